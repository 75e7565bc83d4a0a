#include "ledger/schema.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <vector>

#include "ledger/chain.h"
#include "ledger/database.h"
#include "ledger/transaction.h"

namespace bb::ledger {

namespace {

// Version 1: a game is its setup, its inputs (the event log) and their double-entry postings.
void to_version_1(Database& db) {
  db.exec(R"sql(
CREATE TABLE games(
  id          INTEGER PRIMARY KEY,
  edition     TEXT NOT NULL CHECK(length(edition) > 0),
  setup       TEXT NOT NULL CHECK(json_valid(setup)),
  origin      TEXT,                     -- what made it: 'table', or 'script <hash>' for boardbank replay
  started_at  TEXT NOT NULL,
  finished_at TEXT,                     -- NULL while the game is unfinished
  CHECK(finished_at IS NULL OR finished_at >= started_at)
);
CREATE INDEX games_by_origin ON games(origin);

CREATE TABLE inputs(
  game          INTEGER NOT NULL REFERENCES games(id),
  seq           INTEGER NOT NULL CHECK(seq >= 0),        -- position in the game's log, from 0
  input_id      TEXT NOT NULL CHECK(length(input_id) > 0), -- made by its source: the idempotency key
  source        TEXT NOT NULL CHECK(length(source) > 0),
  kind          TEXT NOT NULL CHECK(length(kind) > 0 AND kind NOT GLOB '*[^a-z_]*'),  -- the script's t
  body          TEXT NOT NULL CHECK(json_valid(body)),    -- the game-script line, exactly
  outcome       TEXT NOT NULL CHECK(json_valid(outcome)), -- what it caused, returned again for a repeated id
  authorised_by TEXT,                                     -- banker card UID or 'pin', for corrections
  reason        TEXT,
  recorded_at   TEXT NOT NULL,
  PRIMARY KEY(game, seq),
  UNIQUE(game, input_id),
  -- An undo or an adopted position changes money outside the play: someone must have said so, and why.
  CHECK(kind NOT IN ('undo', 'adopt') OR (coalesce(length(authorised_by), 0) > 0 AND coalesce(length(reason), 0) > 0))
) WITHOUT ROWID;

CREATE TABLE postings(
  game         INTEGER NOT NULL REFERENCES games(id),
  seq          INTEGER NOT NULL CHECK(seq >= 0),
  input_seq    INTEGER,                 -- NULL: made by the setup (starting cash)
  from_account INTEGER NOT NULL CHECK(from_account <> -2),
  to_account   INTEGER NOT NULL CHECK(to_account <> -2),
  amount       INTEGER NOT NULL CHECK(amount > 0),
  memo         TEXT NOT NULL,
  space        INTEGER,
  card         TEXT,
  PRIMARY KEY(game, seq),
  FOREIGN KEY(game, input_seq) REFERENCES inputs(game, seq),
  CHECK(from_account <> to_account)
) WITHOUT ROWID;
CREATE INDEX postings_by_input ON postings(game, input_seq);
)sql");
}

// Version 2: accounts with balances kept by triggers, so that the stored balances can be checked against the
// postings and the engine; history becomes append-only in SQL itself.
void to_version_2(Database& db) {
  db.exec(R"sql(
CREATE TABLE accounts(
  game    INTEGER NOT NULL REFERENCES games(id),
  account INTEGER NOT NULL CHECK(account <> -2),   -- players 0..n-1, the bank -1, pots below -2
  name    TEXT NOT NULL CHECK(length(name) > 0),
  -- The bank may go negative (it prints money). A player's balance is not checked row by row: within one
  -- input (an undo's compensations) it may dip below zero between two postings; it must equal the engine's cash.
  balance INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY(game, account)
) WITHOUT ROWID;

INSERT INTO accounts(game, account, name, balance)
  SELECT m.game, m.account,
         CASE WHEN m.account = -1 THEN 'bank'
              WHEN m.account >= 0 THEN coalesce(json_extract(g.setup, '$.setup.players[' || m.account || '].name'),
                                                'player ' || m.account)
              ELSE 'pot ' || (-m.account) END,
         sum(m.delta)
  FROM (SELECT game, from_account AS account, -amount AS delta FROM postings
        UNION ALL SELECT game, to_account, amount FROM postings) AS m
  JOIN games g ON g.id = m.game
  GROUP BY m.game, m.account;

CREATE TRIGGER postings_need_accounts BEFORE INSERT ON postings
WHEN NOT EXISTS (SELECT 1 FROM accounts WHERE game = NEW.game AND account = NEW.from_account)
  OR NOT EXISTS (SELECT 1 FROM accounts WHERE game = NEW.game AND account = NEW.to_account)
BEGIN SELECT RAISE(ABORT, 'a posting names an account its game does not have'); END;

CREATE TRIGGER postings_move_money AFTER INSERT ON postings BEGIN
  UPDATE accounts SET balance = balance - NEW.amount WHERE game = NEW.game AND account = NEW.from_account;
  UPDATE accounts SET balance = balance + NEW.amount WHERE game = NEW.game AND account = NEW.to_account;
END;

CREATE TRIGGER accounts_only_by_postings BEFORE UPDATE OF game, account, name ON accounts
BEGIN SELECT RAISE(ABORT, 'accounts are never renamed or moved'); END;
CREATE TRIGGER accounts_kept BEFORE DELETE ON accounts
BEGIN SELECT RAISE(ABORT, 'accounts are history: they are never deleted'); END;
CREATE TRIGGER inputs_not_updated BEFORE UPDATE ON inputs
BEGIN SELECT RAISE(ABORT, 'inputs are history: record a compensating input instead'); END;
CREATE TRIGGER inputs_not_deleted BEFORE DELETE ON inputs
BEGIN SELECT RAISE(ABORT, 'inputs are history: record a compensating input instead'); END;
CREATE TRIGGER postings_not_updated BEFORE UPDATE ON postings
BEGIN SELECT RAISE(ABORT, 'postings are history: record a compensating input instead'); END;
CREATE TRIGGER postings_not_deleted BEFORE DELETE ON postings
BEGIN SELECT RAISE(ABORT, 'postings are history: record a compensating input instead'); END;
CREATE TRIGGER games_not_deleted BEFORE DELETE ON games
BEGIN SELECT RAISE(ABORT, 'games are history: they are never deleted'); END;
-- The only change a game row may see is being finished, once.
CREATE TRIGGER games_finish_once BEFORE UPDATE ON games
WHEN OLD.finished_at IS NOT NULL OR NEW.id IS NOT OLD.id OR NEW.edition IS NOT OLD.edition
  OR NEW.setup IS NOT OLD.setup OR NEW.origin IS NOT OLD.origin OR NEW.started_at IS NOT OLD.started_at
BEGIN SELECT RAISE(ABORT, 'a game row changes only when the game finishes'); END;
)sql");
}

// Version 3: a hash chain over each game's rows, so that bytes flipped inside a row are noticed at start.
void to_version_3(Database& db) {
  db.exec(R"sql(
ALTER TABLE games ADD COLUMN chain TEXT;
ALTER TABLE inputs ADD COLUMN chain TEXT;
DROP TRIGGER inputs_not_updated;
DROP TRIGGER games_finish_once;
)sql");
  Chain::fill(db);
  db.exec(R"sql(
CREATE TRIGGER inputs_not_updated BEFORE UPDATE ON inputs
BEGIN SELECT RAISE(ABORT, 'inputs are history: record a compensating input instead'); END;
CREATE TRIGGER games_finish_once BEFORE UPDATE ON games
WHEN OLD.finished_at IS NOT NULL OR NEW.id IS NOT OLD.id OR NEW.edition IS NOT OLD.edition
  OR NEW.setup IS NOT OLD.setup OR NEW.origin IS NOT OLD.origin OR NEW.started_at IS NOT OLD.started_at
  OR NEW.chain IS NOT OLD.chain
BEGIN SELECT RAISE(ABORT, 'a game row changes only when the game finishes'); END;
CREATE TRIGGER inputs_chained BEFORE INSERT ON inputs WHEN NEW.chain IS NULL
BEGIN SELECT RAISE(ABORT, 'an input must carry its chain hash'); END;
CREATE TRIGGER games_chained BEFORE INSERT ON games WHEN NEW.chain IS NULL
BEGIN SELECT RAISE(ABORT, 'a game must carry its chain hash'); END;
)sql");
}

// Version 4: snapshots of the engine, so that a long game resumes from the newest one plus the inputs after
// it instead of replaying its whole log. A snapshot is a cache, not history: it is checked against its hash
// and the stored postings when used, replaced by a newer one, and dropped when its game finishes.
void to_version_4(Database& db) {
  db.exec(R"sql(
CREATE TABLE snapshots(
  game     INTEGER NOT NULL REFERENCES games(id),
  last_seq INTEGER NOT NULL CHECK(last_seq >= 0),  -- the engine's state after this input of the log
  body     TEXT NOT NULL CHECK(json_valid(body)),  -- Game::snapshot()
  hash     TEXT NOT NULL CHECK(length(hash) = 16), -- over the input's chain hash and the body
  made_at  TEXT NOT NULL,
  PRIMARY KEY(game, last_seq),
  FOREIGN KEY(game, last_seq) REFERENCES inputs(game, seq)
) WITHOUT ROWID;
)sql");
}

const std::vector<std::function<void(Database&)>>& migrations() {
  static const std::vector<std::function<void(Database&)>> steps = {to_version_1, to_version_2, to_version_3,
                                                                    to_version_4};
  return steps;
}

}  // namespace

void Schema::migrate(Database& db) { migrate_to(db, kCurrentVersion); }

void Schema::migrate_to(Database& db, int version) {
  static_assert(kCurrentVersion == 4);
  if (static_cast<int>(migrations().size()) != kCurrentVersion)
    throw std::logic_error("one migration per version");
  int from = db.user_version();
  if (from > kCurrentVersion) {
    throw std::runtime_error(fmt::format(
        "{} was written by a newer boardbank (schema {}, this one knows up to {}): install the newer version",
        db.path(), from, kCurrentVersion));
  }
  for (int v = from; v < version; ++v) {
    Transaction transaction(db);
    migrations()[static_cast<std::size_t>(v)](db);
    db.set_user_version(v + 1);
    transaction.commit();
  }
}

std::vector<std::string> Schema::differences(Database& db) {
  int version = db.user_version();
  if (version < 0 || version > kCurrentVersion) return {fmt::format("unknown schema version {}", version)};
  Database expected(":memory:", Database::Mode::read_write);
  migrate_to(expected, version);
  const char* query =
      "SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_schema ORDER BY type, name";
  std::vector<std::string> want = expected.query_column(query);
  std::vector<std::string> have = db.query_column(query);
  std::vector<std::string> problems;
  for (const std::string& item : have) {
    if (std::find(want.begin(), want.end(), item) == want.end()) {
      problems.push_back(fmt::format("schema: unexpected or altered {}", item.substr(0, item.find(':'))));
    }
  }
  for (const std::string& item : want) {
    if (std::find(have.begin(), have.end(), item) == have.end()) {
      problems.push_back(fmt::format("schema: {} is missing or altered", item.substr(0, item.find(':'))));
    }
  }
  return problems;
}

}  // namespace bb::ledger
