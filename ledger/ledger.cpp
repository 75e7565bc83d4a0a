#include "ledger/ledger.h"

#include <fmt/format.h>

#include <cassert>
#include <ctime>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <utility>

#include "ledger/anchor.h"
#include "ledger/backup_store.h"
#include "ledger/chain.h"
#include "ledger/chain_hash.h"
#include "ledger/medium.h"
#include "ledger/names.h"
#include "ledger/schema.h"
#include "ledger/sql_error.h"
#include "ledger/transaction.h"
#include "rules/script.h"

namespace bb::ledger {

namespace fs = std::filesystem;
using Kind = LedgerError::Kind;

struct Ledger::LiveGame {
  LiveGame(rules::Game g, std::vector<std::string> n) : game(std::move(g)), names(std::move(n)) {}
  rules::Game game;
  std::vector<std::string> names;
  std::int64_t next_seq = 0;
  std::string chain;
  bool finished = false;
  std::set<int> accounts;                // accounts that have a row
  std::map<int, rules::Money> balances;  // what the stored postings add up to, kept alongside the file
  std::vector<std::string> differences;  // from the last rebuild: non-empty refuses further inputs
  std::int64_t last_snapshot_seq = -1;   // the input the newest stored snapshot follows (-1: none)
  // The engine moved on but the file did not (a commit failed): rebuilt from the file before the next input.
  bool stale = false;
};

// The statements of the hot path, prepared once.
struct Ledger::Prepared {
  explicit Prepared(Database& db)
      : find_input(db.prepare("SELECT seq, body, outcome FROM inputs WHERE game = ?1 AND input_id = ?2")),
        insert_input(db.prepare(
            "INSERT INTO inputs(game, seq, input_id, source, kind, body, outcome, authorised_by, reason, "
            "recorded_at, chain) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)")),
        insert_posting(db.prepare(
            "INSERT INTO postings(game, seq, input_seq, from_account, to_account, amount, memo, space, card) "
            "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")),
        insert_account(db.prepare("INSERT OR IGNORE INTO accounts(game, account, name) VALUES (?1, ?2, ?3)")),
        game_total(db.prepare("SELECT coalesce(sum(balance), 0) FROM accounts WHERE game = ?1")),
        finish_game(db.prepare("UPDATE games SET finished_at = ?2 WHERE id = ?1 AND finished_at IS NULL")),
        insert_snapshot(db.prepare(
            "INSERT INTO snapshots(game, last_seq, body, hash, made_at) VALUES (?1, ?2, ?3, ?4, ?5)")),
        drop_snapshots_before(db.prepare("DELETE FROM snapshots WHERE game = ?1 AND last_seq < ?2")) {}
  Statement find_input;
  Statement insert_input;
  Statement insert_posting;
  Statement insert_account;
  Statement game_total;
  Statement finish_game;
  Statement insert_snapshot;
  Statement drop_snapshots_before;
};

namespace {

std::string now_text() {
  auto now = std::chrono::system_clock::now();
  std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", utc.tm_year + 1900, utc.tm_mon + 1,
                     utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, millis);
}

LedgerError storage_error(const SqlError& e, std::string_view what) {
  if (e.disk_full()) {
    return {Kind::storage_full,
            fmt::format(
                "The SD card is full: {} was not recorded and nothing was half-written. Free some space "
                "(for example old backups), then send it again; the game goes on from where it stood. ({})",
                what, e.what())};
  }
  if (e.read_only()) {
    return {Kind::read_only,
            fmt::format("The ledger cannot be written (its file, folder or card is read-only): {} was not "
                        "recorded and nothing was changed. Make it writable (for example remount the card "
                        "read-write), then send it again. ({})",
                        what, e.what())};
  }
  if (e.constraint()) {
    return {Kind::invalid,
            fmt::format("The ledger refused to store {}: it breaks one of its rules. This is a bug in "
                        "boardbank: nothing was stored; please report it with 'boardbank ledger "
                        "export --script'. ({})",
                        what, e.what())};
  }
  if (e.corrupt()) {
    return {Kind::damaged, fmt::format("The ledger file is damaged: {} was not recorded. Stop, run "
                                       "'boardbank ledger check' and restore the newest backup. ({})",
                                       what, e.what())};
  }
  return {Kind::io, fmt::format("The SD card failed while writing: {} was not recorded and nothing was "
                                "half-written. Send it again; if this repeats, check the card. ({})",
                                what, e.what())};
}

// An account's name for a message, from the wire's number the file stores (rules/ids.h: -1 the bank, a
// seat); "?" for a number that is neither.
std::string account_label(const rules::Game& game, std::int64_t wire) {
  auto account = rules::Account::from_wire(static_cast<int>(wire));
  return account ? game.account_name(*account) : std::string("?");
}

nlohmann::json events_to_json(const std::vector<rules::Event>& events) {
  nlohmann::json list = nlohmann::json::array();
  for (const rules::Event& e : events) {
    nlohmann::json item = {{"kind", Names::event(e.kind)},
                           {"player", rules::player_wire(e.player)},
                           {"from", e.from},
                           {"to", e.to},
                           {"space", rules::space_wire(e.space)},
                           {"amount", e.amount},
                           {"detail", e.detail}};
    if (e.card) item["card"] = e.card->id;
    list.push_back(std::move(item));
  }
  return list;
}

// Events as stored; a card is found again in the edition by its id. A kind this build does not know (written
// by a newer one) is left out rather than guessed.
std::vector<rules::Event> events_from_json(const nlohmann::json& list, const rules::Edition& edition) {
  std::vector<rules::Event> events;
  for (const auto& item : list) {
    auto kind = Names::event_from(item.value("kind", ""));
    if (!kind) continue;
    rules::Event e;
    e.kind = *kind;
    e.player = rules::player_from_wire(item.value("player", rules::player_wire(std::nullopt)));
    e.from = item.value("from", -1);
    e.to = item.value("to", -1);
    e.space = rules::space_from_wire(item.value("space", -1));
    e.amount = item.value("amount", rules::Money{0});
    e.detail = item.value("detail", 0);
    if (item.contains("card")) {
      std::string id = item["card"].get<std::string>();
      for (const rules::Deck& deck : edition.decks) {
        for (const rules::Card& card : deck.cards) {
          if (card.id == id && !e.card) e.card = &card;
        }
      }
    }
    events.push_back(std::move(e));
  }
  return events;
}

StoredPosting to_stored(const rules::Posting& p, std::optional<std::int64_t> input_seq) {
  StoredPosting s;
  s.seq = p.seq;
  s.input_seq = input_seq;
  s.from = p.from.wire();
  s.to = p.to.wire();
  s.amount = p.amount;
  s.memo = std::string(Names::memo(p.memo));
  if (p.space) s.space = p.space->number();
  if (!p.card.empty()) s.card = p.card;
  return s;
}

std::string describe(const StoredPosting& p) {
  return fmt::format("#{} {} -> {} {} {}", p.seq, p.from, p.to, p.amount, p.memo);
}

bool same(const StoredPosting& a, const StoredPosting& b) {
  return a.seq == b.seq && a.input_seq == b.input_seq && a.from == b.from && a.to == b.to &&
         a.amount == b.amount && a.memo == b.memo && a.space == b.space && a.card == b.card;
}

using EditionCache = std::map<std::string, std::shared_ptr<const rules::Edition>>;

std::expected<std::shared_ptr<const rules::Edition>, LedgerError> edition_for(
    EditionCache& cache, const std::string& id, const std::vector<std::string>& dirs) {
  auto it = cache.find(id);
  if (it != cache.end()) return it->second;
  auto edition = rules::load_edition(id, dirs);
  if (!edition) {
    return std::unexpected(
        LedgerError{Kind::invalid, fmt::format("cannot load edition '{}': {}", id, edition.error().what())});
  }
  auto shared = std::make_shared<const rules::Edition>(std::move(*edition));
  cache.emplace(id, shared);
  return shared;
}

// A game rebuilt from its rows: the engine state after replaying the log, and how it compares with the file.
struct Rebuilt {
  std::optional<rules::Game> game;
  std::vector<std::string> names;
  std::int64_t inputs = 0;
  std::string chain;
  bool finished = false;
  std::map<int, rules::Money> stored_balances;
  std::vector<std::string> differences;
  double replay_ms = 0;
  std::int64_t from_snapshot = 0;  // inputs covered by the snapshot restored (0: replayed from the start)
  std::int64_t last_snapshot_seq = -1;
  std::string snapshot_note;
};

// A stored posting as the engine's, or why it cannot be (an account number that is neither the bank nor a
// seat: a damaged file).
std::expected<rules::Posting, std::string> from_stored(const StoredPosting& s, int engine_input) {
  auto from = rules::Account::from_wire(static_cast<int>(s.from));
  auto to = rules::Account::from_wire(static_cast<int>(s.to));
  if (!from || !to)
    return std::unexpected(
        fmt::format("posting {} names account {} -> {}, which is no account of a game", s.seq, s.from, s.to));
  rules::Posting p;
  p.seq = s.seq;
  p.from = *from;
  p.to = *to;
  p.amount = s.amount;
  p.memo = Names::memo_from(s.memo).value_or(rules::Memo::space);
  p.space = rules::space_from_wire(static_cast<int>(s.space.value_or(-1)));
  p.card = s.card.value_or("");
  p.input = engine_input;
  return p;
}

struct StoredSnapshot {
  std::int64_t last_seq = -1;
  std::string body;
  std::string hash;
};

std::string snapshot_hash(const std::string& input_chain, const std::string& body) {
  return ChainHash(input_chain).add(body).hex();
}

std::optional<StoredSnapshot> newest_snapshot(Database& db, GameId id) {
  Statement q =
      db.prepare("SELECT last_seq, body, hash FROM snapshots WHERE game = ?1 ORDER BY last_seq DESC LIMIT 1");
  q.bind(1, id);
  if (!q.step()) return std::nullopt;
  return StoredSnapshot{q.column_int64(0), q.column_text(1), q.column_text(2)};
}

struct LogRow {
  std::int64_t seq = 0;
  std::string input_id;
  std::string kind;
  std::string body;  // left empty before `bodies_from` (a snapshot covers those inputs)
  std::string chain;
};

// Is there an undo in the game's log after input `seq`?
bool undo_after(Database& db, GameId id, std::int64_t seq) {
  Statement q =
      db.prepare("SELECT EXISTS(SELECT 1 FROM inputs WHERE game = ?1 AND seq > ?2 AND kind = 'undo')");
  q.bind(1, id).bind(2, seq);
  return q.step() && q.column_int64(0) != 0;
}

std::vector<LogRow> read_log(Database& db, GameId id, std::int64_t bodies_from) {
  std::vector<LogRow> log;
  Statement q = db.prepare(
      "SELECT seq, input_id, kind, CASE WHEN seq >= ?2 THEN body ELSE '' END, chain FROM inputs WHERE game = "
      "?1 "
      "ORDER BY seq");
  q.bind(1, id).bind(2, bodies_from);
  while (q.step()) {
    log.push_back(
        {q.column_int64(0), q.column_text(1), q.column_text(2), q.column_text(3), q.column_text(4)});
  }
  return log;
}

// The engine after the first `count` inputs of the log, restored from `snap` instead of replayed. The engine
// gets the journal of postings, each tagged with the engine's index of the input that made it (an undo takes
// back the last input in effect). Without `history` those inputs are not even parsed, and an undo later needs
// a full replay; with it (the log's bodies read), the restored game can undo. Errors say why the snapshot
// cannot be used.
std::expected<rules::Game, std::string> restore_from(const StoredSnapshot& snap,
                                                     const std::vector<LogRow>& log,
                                                     const std::vector<StoredPosting>& stored,
                                                     const std::shared_ptr<const rules::Edition>& edition,
                                                     const rules::Setup& setup,
                                                     const std::vector<std::string>& names, bool history) {
  const auto count = static_cast<std::size_t>(snap.last_seq + 1);
  if (count > log.size() || log[count - 1].seq != snap.last_seq)
    return std::unexpected("it is of an input the log does not hold");
  if (snapshot_hash(log[count - 1].chain, snap.body) != snap.hash)
    return std::unexpected("its hash does not match (damaged)");
  std::vector<int> engine_input(count);
  int in_effect = 0;
  std::vector<rules::Input> inputs;
  for (std::size_t i = 0; i < count; ++i) {
    if (log[i].kind == "undo") {
      if (in_effect == 0) return std::unexpected(fmt::format("input {} undoes nothing", i));
      engine_input[i] = --in_effect;
      if (history) inputs.pop_back();
    } else {
      engine_input[i] = in_effect++;
      if (history) {
        auto input = rules::parse_input(log[i].body, names, *edition);
        if (!input) return std::unexpected(fmt::format("input {} no longer parses: {}", i, input.error()));
        inputs.push_back(std::move(*input));
      }
    }
  }
  std::vector<rules::Posting> journal;
  for (const StoredPosting& p : stored) {
    if (p.input_seq && *p.input_seq >= static_cast<std::int64_t>(count)) break;
    auto posting = from_stored(p, p.input_seq ? engine_input[static_cast<std::size_t>(*p.input_seq)] : -1);
    if (!posting) return std::unexpected(posting.error());
    journal.push_back(std::move(*posting));
  }
  if (history) return rules::Game::restore(edition, setup, snap.body, std::move(journal), std::move(inputs));
  return rules::Game::restore(edition, setup, snap.body, std::move(journal));
}

// `use_snapshot`: start from the newest stored snapshot when it fits (resume); otherwise replay every input
// and compare any stored snapshot with the replay at its point (the full check).
std::expected<Rebuilt, LedgerError> rebuild(Database& db, GameId id, EditionCache& editions,
                                            const std::vector<std::string>& dirs, bool use_snapshot) {
  Rebuilt out;
  Statement g = db.prepare("SELECT setup, chain, finished_at FROM games WHERE id = ?1");
  g.bind(1, id);
  if (!g.step()) return std::unexpected(LedgerError{Kind::not_found, fmt::format("there is no game {}", id)});
  std::string setup_json = g.column_text(0);
  out.chain = g.column_text(1);
  out.finished = !g.column_is_null(2);
  g.reset();

  auto setup = rules::parse_setup(setup_json);
  if (!setup) {
    return std::unexpected(LedgerError{
        Kind::invalid, fmt::format("game {}: its stored setup no longer parses: {}", id, setup.error())});
  }
  auto edition = edition_for(editions, setup->edition, dirs);
  if (!edition) return std::unexpected(edition.error());
  auto started = std::chrono::steady_clock::now();
  auto game = rules::Game::start(*edition, *setup);
  if (!game) {
    return std::unexpected(LedgerError{
        Kind::invalid, fmt::format("game {}: the engine refuses its stored setup: {}", id, game.error())});
  }
  for (const auto& p : setup->players) out.names.push_back(p.name);

  std::optional<StoredSnapshot> snap = out.finished ? std::nullopt : newest_snapshot(db, id);
  if (snap) out.last_snapshot_seq = snap->last_seq;
  // An undo among the inputs after the snapshot rebuilds the game from its first input: the restored engine
  // then needs the inputs before the snapshot too.
  const bool history = snap && use_snapshot && undo_after(db, id, snap->last_seq);
  const bool skip_bodies = snap && use_snapshot && !history;
  std::vector<LogRow> log = read_log(db, id, skip_bodies ? snap->last_seq + 1 : 0);
  std::vector<StoredPosting> stored = stored_postings(db, id);

  // What the replay posts, to be compared with the stored postings from `compared_from` on (the postings of
  // a restored snapshot's inputs are the stored ones).
  std::vector<StoredPosting> expected;
  std::size_t compared_from = 0;
  std::size_t first = 0;  // the first input to replay
  if (snap && use_snapshot) {
    auto restored = restore_from(*snap, log, stored, *edition, *setup, out.names, history);
    if (restored) {
      *game = std::move(*restored);
      first = static_cast<std::size_t>(snap->last_seq + 1);
      out.from_snapshot = static_cast<std::int64_t>(first);
      out.inputs = out.from_snapshot;
      compared_from = game->state().postings.size();
      if (!log.empty()) out.chain = log[first - 1].chain;
    } else {
      out.snapshot_note =
          fmt::format("the snapshot after input {} was not used ({}); the whole log was replayed",
                      snap->last_seq, restored.error());
      if (skip_bodies) log = read_log(db, id, 0);
    }
  }
  if (first == 0) {
    for (const rules::Posting& p : game->state().postings) expected.push_back(to_stored(p, std::nullopt));
  }

  for (std::size_t i = first; i < log.size(); ++i) {
    const LogRow& row = log[i];
    out.chain = row.chain;
    if (row.seq != out.inputs) {
      out.differences.push_back(fmt::format("input {} is missing from the log", out.inputs));
      break;
    }
    auto input = rules::parse_input(row.body, out.names, **edition);
    if (!input) {
      out.differences.push_back(
          fmt::format("input {} (id {}) no longer parses: {}", row.seq, row.input_id, input.error()));
      break;
    }
    auto outcome = game->apply(*input);
    if (!outcome) {
      out.differences.push_back(
          fmt::format("input {} (id {}) is refused on replay: {}", row.seq, row.input_id, outcome.error()));
      break;
    }
    const auto& postings = game->state().postings;
    for (std::size_t k = outcome->first_posting; k < postings.size(); ++k)
      expected.push_back(to_stored(postings[k], row.seq));
    ++out.inputs;
    if (snap && !use_snapshot && row.seq == snap->last_seq) {
      // The full check: the stored snapshot must be the state the replay reaches (unless an engine of another
      // snapshot format wrote it, which resume simply does not use).
      auto format = nlohmann::json::parse(snap->body, nullptr, false);
      bool same_format = format.is_object() && format.value("format", 0) == rules::Game::kSnapshotFormat;
      if (snapshot_hash(row.chain, snap->body) != snap->hash) {
        out.differences.push_back(fmt::format("the snapshot stored after input {} is damaged", row.seq));
      } else if (same_format && game->snapshot() != snap->body) {
        out.differences.push_back(fmt::format(
            "the snapshot stored after input {} is not the state the replay reaches there", row.seq));
      }
    }
  }
  out.replay_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();

  if (stored.size() != compared_from + expected.size()) {
    out.differences.push_back(fmt::format("the file holds {} postings, the replay makes {}", stored.size(),
                                          compared_from + expected.size()));
  }
  for (std::size_t i = compared_from; i < std::min(stored.size(), compared_from + expected.size()); ++i) {
    if (!same(stored[i], expected[i - compared_from])) {
      out.differences.push_back(fmt::format("posting {} differs: stored {}, replay {}", i,
                                            describe(stored[i]), describe(expected[i - compared_from])));
      break;
    }
  }

  Statement b = db.prepare("SELECT account, name, balance FROM accounts WHERE game = ?1 ORDER BY account");
  b.bind(1, id);
  while (b.step()) out.stored_balances[static_cast<int>(b.column_int64(0))] = b.column_int64(2);
  b.reset();
  std::map<int, rules::Money> replayed;
  for (const rules::Posting& p : game->state().postings) {
    replayed[p.from.wire()] -= p.amount;
    replayed[p.to.wire()] += p.amount;
  }
  for (const auto& [account, balance] : replayed) {
    rules::Money stored_balance = out.stored_balances.contains(account) ? out.stored_balances.at(account) : 0;
    if (stored_balance != balance) {
      out.differences.push_back(fmt::format("{}: stored balance {}, replay gives {}",
                                            account_label(*game, account), stored_balance, balance));
    }
  }
  for (const auto& [account, balance] : out.stored_balances) {
    if (!replayed.contains(account) && balance != 0) {
      out.differences.push_back(
          fmt::format("{}: stored balance {}, replay gives 0", account_label(*game, account), balance));
    }
  }
  const auto& players = game->state().players;
  for (std::size_t i = 0; i < players.size(); ++i) {
    rules::Money balance = replayed.contains(static_cast<int>(i)) ? replayed.at(static_cast<int>(i)) : 0;
    if (players[i].cash != balance) {
      out.differences.push_back(fmt::format("{}: the engine says cash {}, its postings add up to {}",
                                            players[i].name, players[i].cash, balance));
    }
  }
  if (out.finished != game->state().ended) {
    out.differences.push_back(out.finished
                                  ? "the file marks the game finished, the replay has not ended"
                                  : "the replay has ended, the file does not mark the game finished");
  }
  out.game.emplace(std::move(*game));
  return out;
}

// Balances that do not add up: a game's accounts not summing to zero, or a stored balance not equal to its
// postings. Works on a read-only connection. `only`: one game (the index on game keeps that cheap), else all.
std::vector<std::string> balance_problems(Database& db, std::optional<GameId> only = std::nullopt) {
  std::vector<std::string> problems;
  // The game number is an integer formatted into the text: nothing a user types reaches this SQL.
  auto where = [&](const char* column) {
    return only ? fmt::format("{} = {}", column, *only) : std::string("1");
  };
  Statement sums = db.prepare(
      fmt::format("SELECT game, sum(balance) FROM accounts WHERE {} GROUP BY game HAVING sum(balance) <> 0",
                  where("game")));
  while (sums.step()) {
    problems.push_back(
        fmt::format("game {}: the balances sum to {}, not zero", sums.column_int64(0), sums.column_int64(1)));
  }
  Statement mismatched = db.prepare(fmt::format(R"sql(
    SELECT a.game, a.name, a.balance, coalesce(m.total, 0) FROM accounts a
    LEFT JOIN (SELECT game, account, sum(delta) AS total FROM
                 (SELECT game, from_account AS account, -amount AS delta FROM postings WHERE {0}
                  UNION ALL SELECT game, to_account, amount FROM postings WHERE {0})
                 GROUP BY game, account) m
      ON m.game = a.game AND m.account = a.account
    WHERE {1} AND a.balance <> coalesce(m.total, 0))sql",
                                                where("game"), where("a.game")));
  while (mismatched.step()) {
    problems.push_back(fmt::format("game {}: {} holds {} but its postings add up to {}",
                                   mismatched.column_int64(0), mismatched.column_text(1),
                                   mismatched.column_int64(2), mismatched.column_int64(3)));
  }
  Statement misnamed = db.prepare(fmt::format(R"sql(
    SELECT a.game, a.account, a.name FROM accounts a JOIN games g ON g.id = a.game
    WHERE {} AND ((a.account = -1 AND a.name <> 'bank')
       OR (a.account >= 0 AND a.name IS NOT json_extract(g.setup, '$.setup.players[' || a.account || '].name'))))sql",
                                              where("a.game")));
  while (misnamed.step()) {
    problems.push_back(fmt::format("game {}: account {} is named '{}', not as its setup says",
                                   misnamed.column_int64(0), misnamed.column_int64(1),
                                   misnamed.column_text(2)));
  }
  Statement orphans = db.prepare(fmt::format(R"sql(
    SELECT p.game, p.seq FROM postings p WHERE {} AND (NOT EXISTS
      (SELECT 1 FROM accounts a WHERE a.game = p.game AND a.account = p.from_account)
      OR NOT EXISTS (SELECT 1 FROM accounts a WHERE a.game = p.game AND a.account = p.to_account)) LIMIT 5)sql",
                                             where("p.game")));
  while (orphans.step()) {
    problems.push_back(fmt::format("game {}: posting {} names an account that is not stored",
                                   orphans.column_int64(0), orphans.column_int64(1)));
  }
  return problems;
}

// SQLite's own check. The full integrity_check also compares every index with its table; on the small files
// of a family's games it takes milliseconds, so quick_check is kept for big files only.
std::vector<std::string> sqlite_problems(Database& db) {
  std::error_code ec;
  auto size = fs::file_size(db.path(), ec);
  bool big = !ec && size > 64u * 1024 * 1024;
  std::vector<std::string> problems;
  for (const std::string& line : db.query_column(big ? "PRAGMA quick_check" : "PRAGMA integrity_check")) {
    if (line != "ok") problems.push_back("sqlite: " + line);
  }
  Statement fk = db.prepare("PRAGMA foreign_key_check");
  while (fk.step())
    problems.push_back(fmt::format("sqlite: a row of {} points at nothing", fk.column_text(0)));
  return problems;
}

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\n") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

}  // namespace

Ledger::Ledger(LedgerOptions options, Database db)
    : options_(std::move(options)), db_(std::move(db)), sql_(std::make_unique<Prepared>(db_)) {}
Ledger::Ledger(Ledger&&) noexcept = default;
Ledger& Ledger::operator=(Ledger&&) noexcept = default;
Ledger::~Ledger() {
  // Closing: the newest heads go on the card (a moved-from ledger has no connection and writes nothing).
  if (anchor_pending_ && db_.handle() != nullptr) (void)write_anchor(Anchor::Durability::synced);
}

namespace {

// What a file that is not a ledger at all is, or nullopt when it has the look of one (its schema is then
// checked in detail).
std::optional<std::string> not_a_ledger(Database& db, const std::string& path, int version) {
  if (version != 0) return std::nullopt;
  auto tables = db.query_int64("SELECT count(*) FROM sqlite_schema");
  if (tables == 0) return fmt::format("{} is not a ledger: it is an empty SQLite database", path);
  return fmt::format(
      "{} is not a ledger: it is an SQLite database of something else ({} schema item(s), none "
      "made by boardbank)",
      path, tables);
}

// The anchor beside the file: every game it names must be held with at least its anchored inputs.
std::vector<std::string> anchor_problems(Database& db, const std::string& path) {
  std::string anchor_path = Anchor::path_for(path);
  auto anchored = Anchor::read(anchor_path);
  if (!anchored) {
    return {
        fmt::format("anchor: {}. The anchor is what shows a removed game or a cut-off end; compare with "
                    "the newest backup (boardbank ledger check <backup>)",
                    anchored.error())};
  }
  if (*anchored) {
    std::vector<std::string> problems;
    for (auto& p : Anchor::verify(db, **anchored)) problems.push_back("anchor: " + p);
    return problems;
  }
  bool marked = db.query_int64("PRAGMA application_id") == Anchor::kApplicationId;
  if (marked && db.query_int64("SELECT count(*) FROM games") > 0) {
    return {
        fmt::format("anchor: {} is missing, but this ledger has been anchored: it was removed, or the file "
                    "was copied without it. Copy it along, or restore the newest backup",
                    anchor_path)};
  }
  return {};  // a ledger from before anchors: Ledger::open writes its first one
}

}  // namespace

std::expected<std::vector<std::string>, LedgerError> Ledger::inspect(const std::string& path,
                                                                     const LedgerOptions& options,
                                                                     bool replay) {
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    return std::unexpected(LedgerError{Kind::not_found, fmt::format("{} does not exist", path)});
  }
  if (!fs::is_regular_file(path, ec)) {
    return std::unexpected(
        LedgerError{Kind::invalid, fmt::format("{} is not a file (a directory or a device?): give the "
                                               "ledger file's path",
                                               path)});
  }
  if (fs::file_size(path, ec) == 0 && !ec)
    return std::vector<std::string>{fmt::format("{} is empty (0 bytes): it is not a ledger", path)};
  std::vector<std::string> problems;
  try {
    Database db(path, reading_mode(path), options.vfs);
    int version = db.user_version();
    if (version > Schema::kCurrentVersion) {
      return std::unexpected(LedgerError{
          Kind::invalid,
          fmt::format("{} was written by a newer boardbank (schema {}); install the newer version", path,
                      version)});
    }
    if (auto what = not_a_ledger(db, path, version)) return std::vector<std::string>{*what};
    problems = sqlite_problems(db);
    for (auto& p : Schema::differences(db)) problems.push_back(std::move(p));
    if (!problems.empty()) return problems;  // rows read from a damaged file prove nothing more
    if (version >= 2) {
      for (auto& p : balance_problems(db)) problems.push_back(std::move(p));
    }
    if (version >= 3) {
      for (auto& p : Chain::verify(db)) problems.push_back(std::move(p));
      for (auto& p : anchor_problems(db, path)) problems.push_back(std::move(p));
    }
    if (replay && version >= 2 && problems.empty()) {
      EditionCache editions;
      for (const std::string& id : db.query_column("SELECT id FROM games ORDER BY id")) {
        auto rebuilt = rebuild(db, std::stoll(id), editions, options.edition_dirs, false);
        if (!rebuilt) {
          problems.push_back(fmt::format("game {}: {}", id, rebuilt.error().message));
          continue;
        }
        for (const auto& d : rebuilt->differences) problems.push_back(fmt::format("game {}: {}", id, d));
      }
    }
  } catch (const SqlError& e) {
    if (e.not_a_database())
      return std::vector<std::string>{fmt::format("{} is not a ledger: it is not an SQLite database", path)};
    problems.push_back(fmt::format("sqlite: {}", e.what()));
  }
  return problems;
}

std::optional<std::string> Ledger::newest_sound_backup(const LedgerOptions& options) {
  if (options.backup_dir.empty()) return std::nullopt;
  auto names = BackupStore(options.backup_dir, options.keep_backups).list();
  for (auto it = names.rbegin(); it != names.rend(); ++it) {
    // An empty or damaged copy is never the one to recommend.
    auto problems = inspect(*it, options, false);
    if (problems && problems->empty()) return *it;
  }
  return std::nullopt;
}

std::expected<Ledger, LedgerError> Ledger::open(const LedgerOptions& options) {
  std::error_code ec;
  const bool present = fs::exists(options.path, ec);
  const bool create = options.access == LedgerAccess::create_or_open;
  if (present && !fs::is_regular_file(options.path, ec)) {
    return std::unexpected(LedgerError{
        Kind::invalid, fmt::format("{} is not a file (a directory or a device?): give the ledger file's path",
                                   options.path)});
  }
  if (!present && !create) {
    return std::unexpected(LedgerError{
        Kind::not_found,
        fmt::format(
            "{} does not exist. Check the path (--db, or [ledger] path in the configuration); to start "
            "a new, empty ledger there, add --create",
            options.path)});
  }
  const bool exists = present && fs::file_size(options.path, ec) > 0;
  if (present && !exists && !create) {
    return std::unexpected(LedgerError{
        Kind::invalid,
        fmt::format("{} is empty (0 bytes): it is not a ledger. Check the path; 'boardbank ledger restore "
                    "<backup>' puts a backup in its place",
                    options.path)});
  }
  const auto read_only = read_only_reason(options.path);
  if (read_only && create) {
    return std::unexpected(
        LedgerError{Kind::read_only,
                    fmt::format("{} cannot be written: {}. The bank must write every payment: make it "
                                "writable (for example remount the card read-write). Nothing was changed",
                                options.path, *read_only)});
  }
  if (exists && !read_only && fs::exists(options.path + "-journal", ec)) {
    // A rollback journal only exists while a new file is being set up, before it switches to WAL: a crash
    // left that first transaction unfinished. SQLite rolls it back on the first read-write open; a read-only
    // check cannot, so let it happen first.
    try {
      Database recover(options.path, Database::Mode::read_write, options.vfs);
      recover.query_int64("SELECT count(*) FROM sqlite_schema");
    } catch (const SqlError& e) {
      return std::unexpected(storage_error(e, "recovering an interrupted first start"));
    }
  }
  // A new file whose first start was cut short before anything was in it holds no ledger yet: it is made
  // anew.
  bool blank = !exists || fs::file_size(options.path, ec) == 0;
  if (!blank && create) {
    try {
      Database peek(options.path, Database::Mode::read_only, options.vfs);
      blank = peek.user_version() == 0 && peek.query_int64("SELECT count(*) FROM sqlite_schema") == 0;
    } catch (const SqlError&) {
      blank = false;  // the check below says what is wrong with it
    }
  }
  if (!blank) {
    auto problems = inspect(options.path, options, false);
    if (!problems) return std::unexpected(problems.error());
    if (!problems->empty()) {
      std::string offer = "There is no backup to restore.";
      if (auto newest = newest_sound_backup(options)) {
        offer = fmt::format("The newest sound backup is {}; restore it with: boardbank ledger restore {}",
                            *newest, *newest);
      }
      return std::unexpected(LedgerError{
          Kind::damaged,
          fmt::format("{} is damaged and was left untouched ({}). {}", options.path, (*problems)[0], offer)});
    }
  }
  if (read_only) {
    try {
      Database db(options.path, reading_mode(options.path), options.vfs);
      if (db.user_version() != Schema::kCurrentVersion) {
        return std::unexpected(LedgerError{
            Kind::read_only,
            fmt::format("{} is healthy but read-only ({}), and it is of an older boardbank (schema {}) that "
                        "must be brought up to date before this one can read it: make it writable once",
                        options.path, *read_only, db.user_version())});
      }
      Ledger ledger(options, std::move(db));
      ledger.read_only_ = true;
      return ledger;
    } catch (const SqlError& e) {
      return std::unexpected(LedgerError{
          Kind::read_only,
          fmt::format("{} is read-only ({}) and could not be opened for reading: {}. Copy it (with any -wal "
                      "and -shm beside it) to writable storage and open the copy",
                      options.path, *read_only, e.what())});
    }
  }
  try {
    Database db(options.path, Database::Mode::read_write, options.vfs);
    // Commits stay atomic and ordered in the WAL; the caller syncs it (see LedgerOptions::durability).
    if (options.durability == LedgerOptions::Durability::by_caller) db.exec("PRAGMA synchronous=NORMAL");
    Schema::migrate(db);
    // The file passed its check against its anchor (if it had one): the anchor now says what it holds, and
    // the file is marked as anchored, so that a missing anchor is noticed from here on.
    auto heads = Anchor::heads(db);
    if (auto written = Anchor::write(Anchor::path_for(options.path), heads); !written) {
      return std::unexpected(LedgerError{
          Kind::io,
          fmt::format("The ledger's anchor could not be written: {}. Check the card", written.error())});
    }
    if (db.query_int64("PRAGMA application_id") != Anchor::kApplicationId)
      db.exec(fmt::format("PRAGMA application_id={}", Anchor::kApplicationId));
    Ledger ledger(options, std::move(db));
    for (AnchorHead& h : heads) ledger.anchor_heads_[h.game] = std::move(h);
    if (!options.backup_dir.empty()) {
      if (auto newest = BackupStore(options.backup_dir, options.keep_backups).newest_time()) {
        ledger.last_backup_ = *newest;
      }
    }
    return ledger;
  } catch (const SqlError& e) {
    return std::unexpected(storage_error(e, "opening the ledger"));
  } catch (const std::runtime_error& e) {
    return std::unexpected(LedgerError{Kind::invalid, e.what()});
  }
}

std::optional<std::string> Ledger::write_anchor(GameId id, std::int64_t inputs, const std::string& chain,
                                                Anchor::Durability durability, bool may_wait) {
  anchor_heads_[id] = AnchorHead{id, inputs, chain};
  auto now = std::chrono::steady_clock::now();
  if (may_wait && now - last_anchor_write_ < std::chrono::milliseconds(options_.anchor_every_ms)) {
    anchor_pending_ = true;  // written by the next input after the interval, a checkpoint, or the close
    return std::nullopt;
  }
  return write_anchor(durability);
}

std::optional<std::string> Ledger::write_anchor(Anchor::Durability durability) {
  if (read_only_) return std::nullopt;
  std::vector<AnchorHead> heads;
  heads.reserve(anchor_heads_.size());
  for (const auto& [game, head] : anchor_heads_) heads.push_back(head);
  auto written = Anchor::write(Anchor::path_for(options_.path), heads, durability);
  last_anchor_write_ = std::chrono::steady_clock::now();
  anchor_pending_ = !written.has_value();
  if (written) return std::nullopt;
  // The input is stored: an anchor left behind is accepted by the check, so this only narrows what a later
  // check can tell. Said, not hidden.
  return fmt::format("the ledger's anchor could not be updated ({}); the input is stored", written.error());
}

std::expected<GameId, LedgerError> Ledger::start_game(const rules::Setup& setup, const std::string& origin) {
  auto edition = edition_for(editions_, setup.edition, options_.edition_dirs);
  if (!edition) return std::unexpected(edition.error());
  auto game = rules::Game::start(*edition, setup);
  if (!game) return std::unexpected(LedgerError{Kind::invalid, game.error()});
  std::vector<std::string> names;
  for (const auto& p : setup.players) names.push_back(p.name);
  auto live_game = std::make_unique<LiveGame>(std::move(*game), std::move(names));
  const rules::Game& g = live_game->game;

  StoredGame row;
  row.edition = setup.edition;
  row.setup = rules::setup_to_json(g.setup());
  row.origin = origin;
  row.started_at = now_text();
  std::vector<StoredPosting> postings;
  for (const rules::Posting& p : g.state().postings) postings.push_back(to_stored(p, std::nullopt));
  try {
    Transaction transaction(db_);
    row.id = db_.query_int64("SELECT coalesce(max(id), 0) + 1 FROM games");
    std::string chain = Chain::game_hash(row, postings);
    Statement insert = db_.prepare(
        "INSERT INTO games(id, edition, setup, origin, started_at, chain) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    insert.bind(1, row.id)
        .bind(2, row.edition)
        .bind(3, row.setup)
        .bind(4, row.origin)
        .bind(5, row.started_at);
    insert.bind(6, chain).run();
    // The accounts table is keyed by the wire's number of each account (rules/ids.h).
    std::set<int> accounts = {rules::Account::bank().wire()};
    for (rules::PlayerId p : g.state().players.ids()) accounts.insert(rules::Account{p}.wire());
    for (const rules::Posting& p : g.state().postings) accounts.insert({p.from.wire(), p.to.wire()});
    for (int account : accounts) {
      sql_->insert_account.bind(1, row.id).bind(2, account).bind(3, account_label(g, account));
      sql_->insert_account.run();
    }
    for (const StoredPosting& p : postings) {
      sql_->insert_posting.bind(1, row.id).bind(2, p.seq).bind_null(3).bind(4, p.from).bind(5, p.to);
      sql_->insert_posting.bind(6, p.amount).bind(7, p.memo).bind(8, p.space ? *p.space : -1);
      if (!p.space) sql_->insert_posting.bind_null(8);
      sql_->insert_posting.bind(9, p.card);
      sql_->insert_posting.run();
    }
    transaction.commit();
    live_game->chain = chain;
    live_game->accounts = accounts;
    for (const rules::Posting& p : g.state().postings) {
      live_game->balances[p.from.wire()] -= p.amount;
      live_game->balances[p.to.wire()] += p.amount;
    }
    games_[row.id] = std::move(live_game);
    // A failed anchor write leaves it behind, which the check accepts; the game is stored either way.
    (void)write_anchor(row.id, 0, chain, Anchor::Durability::page_cache, false);
    return row.id;
  } catch (const SqlError& e) {
    return std::unexpected(storage_error(e, "the new game"));
  }
}

std::expected<Ledger::LiveGame*, LedgerError> Ledger::live(GameId id) {
  auto it = games_.find(id);
  if (it == games_.end() || it->second->stale) {
    auto report = resume(id);
    if (!report) return std::unexpected(report.error());
    it = games_.find(id);
    assert(it != games_.end());
  }
  LiveGame* g = it->second.get();
  if (!g->differences.empty()) {
    return std::unexpected(LedgerError{
        Kind::diverged,
        fmt::format("game {} does not replay to what is stored ({}); it takes no more inputs until "
                    "someone looks: run 'boardbank ledger check'",
                    id, g->differences[0])});
  }
  return g;
}

std::expected<ResumeReport, LedgerError> Ledger::resume(GameId id) {
  return resume(id, options_.resume_budget_ms > 0);
}

std::expected<ResumeReport, LedgerError> Ledger::resume(GameId id, bool use_snapshot) {
  // A game already loaded is rebuilt in place, so that the pointer game() gave out stays valid (the display's
  // snapshot holds it); until the rebuild succeeds it is marked stale and takes no input.
  auto loaded = games_.find(id);
  if (loaded != games_.end()) loaded->second->stale = true;
  try {
    auto rebuilt = rebuild(db_, id, editions_, options_.edition_dirs, use_snapshot);
    if (!rebuilt) return std::unexpected(rebuilt.error());
    ResumeReport report;
    report.game = id;
    report.inputs = rebuilt->inputs;
    report.replay_ms = rebuilt->replay_ms;
    report.from_snapshot = rebuilt->from_snapshot;
    report.replayed = rebuilt->inputs - rebuilt->from_snapshot;
    report.snapshot_note = rebuilt->snapshot_note;
    report.differences = rebuilt->differences;
    // How fast this machine replays, for the snapshot cadence (a few inputs tell nothing).
    if (report.replayed >= 200)
      replay_ms_per_input_ = report.replay_ms / static_cast<double>(report.replayed);
    auto g = std::make_unique<LiveGame>(std::move(*rebuilt->game), std::move(rebuilt->names));
    g->next_seq = rebuilt->inputs;
    g->chain = rebuilt->chain;
    g->finished = rebuilt->finished;
    g->differences = std::move(rebuilt->differences);
    g->last_snapshot_seq = rebuilt->last_snapshot_seq;
    for (const auto& [account, balance] : rebuilt->stored_balances) g->accounts.insert(account);
    g->balances = std::move(rebuilt->stored_balances);
    loaded = games_.find(id);
    if (loaded == games_.end()) {
      loaded = games_.emplace(id, std::move(g)).first;
    } else {
      *loaded->second = std::move(*g);  // same LiveGame, same address of its game
    }
    LiveGame& live_game = *loaded->second;
    // A resume slower than the budget (or one whose snapshot could not be used) leaves a fresh snapshot, so
    // that the next one is quick. It is only a cache: failing to write it changes nothing else.
    bool slow = options_.resume_budget_ms > 0 && report.replay_ms > options_.resume_budget_ms;
    bool unusable = !report.snapshot_note.empty() && options_.resume_budget_ms > 0;
    if ((slow || unusable) && !read_only_ && !live_game.finished && live_game.differences.empty() &&
        live_game.next_seq > 0) {
      try {
        Transaction transaction(db_);
        store_snapshot(id, live_game);
        transaction.commit();
      } catch (const SqlError& e) {
        if (!report.snapshot_note.empty()) report.snapshot_note += "; ";
        report.snapshot_note += fmt::format("a new snapshot could not be written ({})", e.what());
      }
    }
    return report;
  } catch (const SqlError& e) {
    return std::unexpected(storage_error(e, fmt::format("reading game {}", id)));
  }
}

std::expected<Recorded, LedgerError> Ledger::stored_outcome(GameId game, std::int64_t seq,
                                                            const std::string& outcome_json,
                                                            const rules::Edition& edition) {
  Recorded recorded;
  recorded.seq = seq;
  recorded.duplicate = true;
  auto outcome = nlohmann::json::parse(outcome_json, nullptr, false);
  if (outcome.is_discarded()) {
    return std::unexpected(LedgerError{
        Kind::damaged, fmt::format("game {} input {}: its stored outcome is not JSON", game, seq)});
  }
  recorded.events = events_from_json(outcome.value("events", nlohmann::json::array()), edition);
  recorded.game_over = outcome.value("game_over", false);
  int engine_input = outcome.value("engine_input", -1);
  for (const StoredPosting& p : stored_postings(db_, game, seq)) {
    auto posting = from_stored(p, engine_input);
    if (!posting)
      return std::unexpected(
          LedgerError{Kind::damaged, fmt::format("game {} input {}: {}", game, seq, posting.error())});
    recorded.postings.push_back(std::move(*posting));
  }
  return recorded;
}

std::expected<Recorded, LedgerError> Ledger::record(GameId id, const rules::Input& input,
                                                    const InputMeta& meta) {
  if (meta.id.empty()) {
    return std::unexpected(LedgerError{Kind::invalid, "an input needs an id made by its source"});
  }
  try {
    auto found = live(id);
    if (!found) return std::unexpected(found.error());
    if (std::holds_alternative<rules::Undo>(input) && !(*found)->game.has_history()) {
      // The engine undoes by replaying the game without its last input, so it needs the inputs the snapshot
      // it was restored from let it skip: replay the whole log once.
      auto full = resume(id, false);
      if (!full) return std::unexpected(full.error());
      found = live(id);
      if (!found) return std::unexpected(found.error());
    }
    LiveGame& g = **found;
    // With the edition: a partnership's group and a trade's free rides are stored by their group's id.
    std::string body = rules::input_to_json(input, g.names, &g.game.edition());

    sql_->find_input.bind(1, id).bind(2, meta.id);
    if (sql_->find_input.step()) {
      std::int64_t seq = sql_->find_input.column_int64(0);
      std::string stored_body = sql_->find_input.column_text(1);
      std::string outcome = sql_->find_input.column_text(2);
      sql_->find_input.reset();
      if (stored_body != body) {
        return std::unexpected(
            LedgerError{Kind::conflict,
                        fmt::format("input id {} is already stored as input {} with different contents ({}); "
                                    "this one ({}) was not applied",
                                    meta.id, seq, stored_body, body)});
      }
      return stored_outcome(id, seq, outcome, g.game.edition());
    }
    sql_->find_input.reset();

    if (g.finished) {
      return std::unexpected(
          LedgerError{Kind::game_over, fmt::format("game {} is over; it stays as history", id)});
    }
    std::string kind = Names::input_kind(body);
    bool correction = kind == "undo" || kind == "adopt";
    if (correction && (meta.authorised_by.empty() || meta.reason.empty())) {
      return std::unexpected(
          LedgerError{Kind::unauthorised,
                      fmt::format("{} changes money outside play: the banker must confirm it with their card "
                                  "or PIN and say why",
                                  kind)});
    }
    if (const auto* house = std::get_if<rules::HousePayment>(&input);
        house && house->from.is_bank() && meta.authorised_by.empty()) {
      return std::unexpected(LedgerError{
          Kind::unauthorised, "a house-rule payment from the bank needs the banker's card or PIN"});
    }

    auto outcome = g.game.apply(input);
    if (!outcome) return std::unexpected(LedgerError{Kind::refused, outcome.error()});

    const auto& all = g.game.state().postings;
    std::vector<StoredPosting> postings;
    for (std::size_t i = outcome->first_posting; i < all.size(); ++i)
      postings.push_back(to_stored(all[i], g.next_seq));
    bool ended = g.game.state().ended;
    nlohmann::json outcome_json = {{"events", events_to_json(outcome->events)}};
    if (ended) outcome_json["game_over"] = true;
    if (outcome->first_posting < all.size()) outcome_json["engine_input"] = all[outcome->first_posting].input;

    StoredInput row;
    row.seq = g.next_seq;
    row.input_id = meta.id;
    row.source = meta.source.empty() ? "unknown" : meta.source;
    row.kind = std::string(kind);
    row.body = body;
    row.outcome = outcome_json.dump();
    if (!meta.authorised_by.empty()) row.authorised_by = meta.authorised_by;
    if (!meta.reason.empty()) row.reason = meta.reason;
    row.recorded_at = now_text();
    std::string chain = Chain::input_hash(g.chain, row, postings);
    const bool snapshot_due = !ended && row.seq - g.last_snapshot_seq >= snapshot_interval();

    try {
      Transaction transaction(db_);
      Statement& in = sql_->insert_input;
      in.bind(1, id)
          .bind(2, row.seq)
          .bind(3, row.input_id)
          .bind(4, row.source)
          .bind(5, row.kind)
          .bind(6, row.body);
      in.bind(7, row.outcome).bind(8, row.authorised_by).bind(9, row.reason).bind(10, row.recorded_at);
      in.bind(11, chain).run();
      for (const StoredPosting& p : postings) {
        for (std::int64_t account : {p.from, p.to}) {
          if (g.accounts.contains(static_cast<int>(account))) continue;
          sql_->insert_account.bind(1, id).bind(2, account).bind(3, account_label(g.game, account));
          sql_->insert_account.run();
        }
        Statement& ps = sql_->insert_posting;
        ps.bind(1, id).bind(2, p.seq).bind(3, row.seq).bind(4, p.from).bind(5, p.to).bind(6, p.amount);
        ps.bind(7, p.memo);
        if (p.space)
          ps.bind(8, *p.space);
        else
          ps.bind_null(8);
        ps.bind(9, p.card).run();
      }
      if (ended) {
        sql_->finish_game.bind(1, id).bind(2, row.recorded_at).run();
        // A finished game is never resumed: its snapshots are no longer needed.
        sql_->drop_snapshots_before.bind(1, id).bind(2, row.seq + 1).run();
      } else if (snapshot_due) {
        store_snapshot(id, g, row.seq, chain);
      }
      if (!postings.empty()) {
        sql_->game_total.bind(1, id);
        sql_->game_total.step();
        std::int64_t total = sql_->game_total.column_int64(0);
        sql_->game_total.reset();
        // Every posting moves money from one account to another, so a non-zero sum means a balance left the
        // range SQLite's integers hold (an amount near 2^63 that the rules let through). Refused, never
        // stored and never an abort: the transaction rolls back and the game is rebuilt from the file.
        if (total != 0) {
          g.stale = true;
          return std::unexpected(LedgerError{
              Kind::invalid,
              fmt::format("the {} (id {}) was not recorded: its amounts would take a balance beyond what the "
                          "ledger can hold (the balances would sum to {}, not zero). Nothing was stored",
                          kind, meta.id, total)});
        }
      }
      transaction.commit();
    } catch (const SqlError& e) {
      // The engine has moved on but the file has not: rebuild it from what is stored, so both stand where
      // they stood before this input. If even reading fails, the game is rebuilt at the next input.
      // Rebuilt at the next input (or resume()), in place: the game() pointer stays valid. No replay here,
      // so a failed commit costs the loop no more than the failure itself.
      g.stale = true;
      return std::unexpected(storage_error(e, fmt::format("the {} (id {})", kind, meta.id)));
    }

    if (ended) {
      g.last_snapshot_seq = -1;
    } else if (snapshot_due) {
      g.last_snapshot_seq = row.seq;
    }
    g.next_seq++;
    g.chain = chain;
    g.finished = ended;
    for (const StoredPosting& p : postings) {
      g.accounts.insert({static_cast<int>(p.from), static_cast<int>(p.to)});
      g.balances[static_cast<int>(p.from)] -= p.amount;
      g.balances[static_cast<int>(p.to)] += p.amount;
    }

    Recorded recorded;
    recorded.seq = row.seq;
    recorded.postings.assign(all.begin() + static_cast<std::ptrdiff_t>(outcome->first_posting), all.end());
    recorded.events = std::move(outcome->events);
    recorded.game_over = ended;
    recorded.warning = write_anchor(
        id, g.next_seq, chain, ended ? Anchor::Durability::synced : Anchor::Durability::page_cache, !ended);
    // No backup here: a copy of the file takes longer than a frame. The caller makes the end-of-game backup
    // (backup_now()) and the scheduled ones (backup_if_due()) when its loop is free.
    return recorded;
  } catch (const SqlError& e) {
    return std::unexpected(storage_error(e, fmt::format("input {}", meta.id)));
  }
}

std::int64_t Ledger::snapshot_interval() const {
  if (options_.snapshot_every_inputs > 0) return options_.snapshot_every_inputs;
  if (options_.resume_budget_ms <= 0) return std::numeric_limits<std::int64_t>::max();
  // Half the budget for replaying the inputs after the newest snapshot; the rest is reading and checking.
  double inputs = options_.resume_budget_ms / 2 / replay_ms_per_input_;
  return std::clamp<std::int64_t>(static_cast<std::int64_t>(inputs), 100, 1'000'000);
}

void Ledger::store_snapshot(GameId id, const LiveGame& g, std::int64_t last_seq, const std::string& chain) {
  std::string body = g.game.snapshot();
  sql_->insert_snapshot.bind(1, id).bind(2, last_seq).bind(3, body).bind(4, snapshot_hash(chain, body));
  sql_->insert_snapshot.bind(5, now_text()).run();
  sql_->drop_snapshots_before.bind(1, id).bind(2, last_seq).run();
}

void Ledger::store_snapshot(GameId id, LiveGame& g) {
  store_snapshot(id, g, g.next_seq - 1, g.chain);
  g.last_snapshot_seq = g.next_seq - 1;
}

void Ledger::forget(GameId id) { games_.erase(id); }

bool Ledger::stale(GameId id) const {
  auto it = games_.find(id);
  return it != games_.end() && it->second->stale;
}

std::expected<void, LedgerError> Ledger::load_history(GameId id) {
  auto found = live(id);
  if (!found) return std::unexpected(found.error());
  if ((*found)->game.has_history()) return {};
  auto full = resume(id, false);
  if (!full) return std::unexpected(full.error());
  return {};
}

const rules::Game* Ledger::game(GameId id) const {
  auto it = games_.find(id);
  return it == games_.end() ? nullptr : &it->second->game;
}

std::optional<GameId> Ledger::newest_unfinished_game() {
  Statement q = db_.prepare("SELECT id FROM games WHERE finished_at IS NULL ORDER BY id DESC LIMIT 1");
  if (!q.step()) return std::nullopt;
  return q.column_int64(0);
}

std::optional<GameId> Ledger::newest_game_with_origin(const std::string& origin) {
  Statement q = db_.prepare("SELECT id FROM games WHERE origin = ?1 ORDER BY id DESC LIMIT 1");
  q.bind(1, origin);
  if (!q.step()) return std::nullopt;
  return q.column_int64(0);
}

bool Ledger::has_input(GameId id, const std::string& input_id) {
  sql_->find_input.bind(1, id).bind(2, input_id);
  bool found = sql_->find_input.step();
  sql_->find_input.reset();
  return found;
}

std::vector<GameSummary> Ledger::list() {
  std::vector<GameSummary> games;
  Statement q = db_.prepare(
      "SELECT g.id, g.edition, g.setup, g.origin, g.started_at, g.finished_at, "
      "(SELECT count(*) FROM inputs i WHERE i.game = g.id) FROM games g ORDER BY g.id");
  while (q.step()) {
    GameSummary s;
    s.id = q.column_int64(0);
    s.edition = q.column_text(1);
    auto setup = nlohmann::json::parse(q.column_text(2), nullptr, false);
    if (!setup.is_discarded() && setup.contains("setup")) {
      for (const auto& p : setup["setup"].value("players", nlohmann::json::array())) {
        s.players.push_back(p.value("name", "?"));
      }
    }
    s.origin = q.column_optional_text(3);
    s.started_at = q.column_text(4);
    s.finished_at = q.column_optional_text(5);
    s.inputs = q.column_int64(6);
    games.push_back(std::move(s));
  }
  return games;
}

std::expected<GameSummary, LedgerError> Ledger::summary(GameId id) {
  for (GameSummary& s : list())
    if (s.id == id) return std::move(s);
  return std::unexpected(
      LedgerError{Kind::not_found, fmt::format("there is no game {} (see 'boardbank ledger list')", id)});
}

std::expected<std::vector<AccountBalance>, LedgerError> Ledger::balances(GameId id) {
  try {
    std::vector<AccountBalance> list;
    Statement q =
        db_.prepare("SELECT account, name, balance FROM accounts WHERE game = ?1 ORDER BY account DESC");
    q.bind(1, id);
    while (q.step()) {
      list.push_back({static_cast<int>(q.column_int64(0)), q.column_text(1), q.column_int64(2)});
    }
    if (list.empty()) {
      return std::unexpected(LedgerError{Kind::not_found, fmt::format("there is no game {}", id)});
    }
    return list;
  } catch (const SqlError& e) {
    return std::unexpected(storage_error(e, "reading balances"));
  }
}

std::expected<std::string, LedgerError> Ledger::export_csv(GameId id) {
  auto s = summary(id);
  if (!s) return std::unexpected(s.error());
  try {
    std::map<int, std::string> names;
    Statement a = db_.prepare("SELECT account, name FROM accounts WHERE game = ?1");
    a.bind(1, id);
    while (a.step()) names[static_cast<int>(a.column_int64(0))] = a.column_text(1);
    std::ostringstream out;
    // `amount` stays in the edition's units for the tools that read it; `money` is the amount as the edition
    // prints it ("$1,500", or "1.5M" where the edition counts in M and K), last so no column moves.
    // The edition comes from the game's own record, so the column is the same whether the game is loaded or
    // not.
    auto edition = edition_for(editions_, s->edition, options_.edition_dirs);
    const rules::Edition* printed = edition ? edition->get() : nullptr;
    out << "posting,input,input_id,source,kind,recorded_at,from,to,amount,memo,space,card,authorised_by,"
           "reason,money\n";
    Statement q = db_.prepare(R"sql(
      SELECT p.seq, p.input_seq, i.input_id, i.source, i.kind, coalesce(i.recorded_at, g.started_at), p.from_account,
             p.to_account, p.amount, p.memo, p.space, p.card, i.authorised_by, i.reason
      FROM postings p JOIN games g ON g.id = p.game
      LEFT JOIN inputs i ON i.game = p.game AND i.seq = p.input_seq
      WHERE p.game = ?1 ORDER BY p.seq)sql");
    q.bind(1, id);
    while (q.step()) {
      auto opt = [&](int column) { return q.column_is_null(column) ? std::string() : q.column_text(column); };
      out << q.column_int64(0) << ',' << (q.column_is_null(1) ? "setup" : q.column_text(1)) << ','
          << csv_field(opt(2)) << ',' << csv_field(opt(3)) << ',' << csv_field(opt(4)) << ','
          << q.column_text(5) << ',' << csv_field(names[static_cast<int>(q.column_int64(6))]) << ','
          << csv_field(names[static_cast<int>(q.column_int64(7))]) << ',' << q.column_int64(8) << ','
          << q.column_text(9) << ',' << opt(10) << ',' << csv_field(opt(11)) << ',' << csv_field(opt(12))
          << ',' << csv_field(opt(13)) << ','
          << csv_field(printed ? printed->format_money(q.column_int64(8)) : std::string()) << '\n';
    }
    return out.str();
  } catch (const SqlError& e) {
    return std::unexpected(storage_error(e, "exporting"));
  }
}

std::expected<std::string, LedgerError> Ledger::export_script(GameId id) {
  try {
    Statement g = db_.prepare("SELECT setup FROM games WHERE id = ?1");
    g.bind(1, id);
    if (!g.step())
      return std::unexpected(LedgerError{Kind::not_found, fmt::format("there is no game {}", id)});
    std::string out = g.column_text(0) + "\n";
    Statement q = db_.prepare("SELECT input_id, body FROM inputs WHERE game = ?1 ORDER BY seq");
    q.bind(1, id);
    while (q.step()) {
      auto line = nlohmann::ordered_json::parse(q.column_text(1), nullptr, false);
      if (line.is_discarded() || !line.is_object()) {
        return std::unexpected(
            LedgerError{Kind::damaged, fmt::format("game {}: a stored input is not JSON", id)});
      }
      line["id"] = q.column_text(0);
      out += line.dump() + "\n";
    }
    return out;
  } catch (const SqlError& e) {
    return std::unexpected(storage_error(e, "exporting"));
  }
}

std::expected<std::string, LedgerError> Ledger::backup_now() {
  if (options_.backup_dir.empty()) {
    return std::unexpected(
        LedgerError{Kind::invalid, "no backup directory is configured ([ledger] backup_dir)"});
  }
  auto made = BackupStore(options_.backup_dir, options_.keep_backups).write_from(db_);
  if (!made) return std::unexpected(LedgerError{Kind::io, made.error()});
  last_backup_ = std::chrono::system_clock::now();
  if (anchor_pending_) (void)write_anchor(Anchor::Durability::synced);
  return *made;
}

std::optional<std::expected<std::string, LedgerError>> Ledger::backup_if_due(
    std::chrono::system_clock::time_point now) {
  if (options_.backup_dir.empty() || options_.backup_every_minutes <= 0) return std::nullopt;
  if (now - last_backup_ < std::chrono::minutes(options_.backup_every_minutes)) return std::nullopt;
  return backup_now();
}

std::expected<PendingBackup, LedgerError> Ledger::start_backup() {
  if (auto begun = begin_backup(); !begun) return std::unexpected(begun.error());
  auto copied = step_backup(-1);
  if (!copied) return std::unexpected(copied.error());
  if (!*copied) {
    backup_copy_.reset();
    last_backup_ = {};
    return std::unexpected(LedgerError{Kind::io, "the database was busy; the backup was not copied"});
  }
  return std::move(**copied);
}

std::expected<void, LedgerError> Ledger::begin_backup() {
  if (options_.backup_dir.empty()) {
    return std::unexpected(
        LedgerError{Kind::invalid, "no backup directory is configured ([ledger] backup_dir)"});
  }
  if (backup_copy_) {
    return std::unexpected(
        LedgerError{Kind::invalid, "a backup is being copied already; wait for it to finish"});
  }
  auto copy = BackupStore(options_.backup_dir, options_.keep_backups).begin_copy(db_);
  if (!copy) return std::unexpected(LedgerError{Kind::io, copy.error()});
  backup_copy_.emplace(std::move(*copy));
  last_backup_ = std::chrono::system_clock::now();
  return {};
}

std::optional<std::expected<void, LedgerError>> Ledger::begin_backup_if_due(
    std::chrono::system_clock::time_point now) {
  if (options_.backup_dir.empty() || options_.backup_every_minutes <= 0 || backup_copy_) return std::nullopt;
  if (now - last_backup_ < std::chrono::minutes(options_.backup_every_minutes)) return std::nullopt;
  return begin_backup();
}

std::expected<std::optional<PendingBackup>, LedgerError> Ledger::step_backup(int pages) {
  if (!backup_copy_) return std::unexpected(LedgerError{Kind::invalid, "no backup is being copied"});
  auto whole = backup_copy_->step(pages);
  if (whole && !*whole) return std::optional<PendingBackup>{};
  std::expected<PendingBackup, std::string> completed =
      whole ? backup_copy_->complete(db_) : std::unexpected(whole.error());
  backup_copy_.reset();
  if (!completed) {
    last_backup_ = {};  // due again at the next check, as after a copy that failed
    return std::unexpected(LedgerError{Kind::io, completed.error()});
  }
  // Every backup puts the ledger's newest heads on the card too. Renamed into place here (no fsync: this is
  // the connection's thread, often a service loop); BackupStore::finish syncs it on its own thread.
  if (anchor_pending_) (void)write_anchor(Anchor::Durability::page_cache);
  if (!anchor_pending_) completed->ledger_anchor = Anchor::path_for(options_.path);
  return std::optional<PendingBackup>(std::move(*completed));
}

Ledger::BackupProgress Ledger::backup_progress() const {
  if (!backup_copy_) return {};
  return {backup_copy_->remaining_pages(), backup_copy_->total_pages()};
}

std::optional<std::expected<PendingBackup, LedgerError>> Ledger::start_backup_if_due(
    std::chrono::system_clock::time_point now) {
  if (options_.backup_dir.empty() || options_.backup_every_minutes <= 0) return std::nullopt;
  if (now - last_backup_ < std::chrono::minutes(options_.backup_every_minutes)) return std::nullopt;
  return start_backup();
}

std::expected<void, LedgerError> Ledger::checkpoint() {
  try {
    db_.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    // The anchors written since the last checkpoint may still be in the page cache: put the newest on the
    // card.
    if (auto failed = write_anchor(Anchor::Durability::synced))
      return std::unexpected(LedgerError{Kind::io, *failed});
    return {};
  } catch (const SqlError& e) {
    return std::unexpected(storage_error(e, "the checkpoint"));
  }
}

std::vector<std::string> Ledger::invariant_violations() {
  std::vector<std::string> problems;
  try {
    for (const auto& [id, g] : games_) {
      for (auto& p : balance_problems(db_, id)) problems.push_back(std::move(p));
      if (!g->differences.empty()) continue;  // reported by resume() already, and refusing inputs
      Statement q = db_.prepare("SELECT account, balance FROM accounts WHERE game = ?1");
      q.bind(1, id);
      std::map<int, rules::Money> stored;
      while (q.step()) stored[static_cast<int>(q.column_int64(0))] = q.column_int64(1);
      for (const auto& [account, balance] : stored) {
        rules::Money mine = g->balances.contains(account) ? g->balances.at(account) : 0;
        if (mine != balance) {
          problems.push_back(fmt::format("game {}: {} is {} in the file but {} in memory", id,
                                         account_label(g->game, account), balance, mine));
        }
      }
      const auto& players = g->game.state().players;
      for (std::size_t i = 0; i < players.size(); ++i) {
        int account = static_cast<int>(i);
        rules::Money balance = stored.contains(account) ? stored.at(account) : 0;
        if (players[i].cash != balance) {
          problems.push_back(fmt::format("game {}: {} has cash {} in the engine but {} in the ledger", id,
                                         players[i].name, players[i].cash, balance));
        }
      }
    }
  } catch (const SqlError& e) {
    problems.push_back(fmt::format("cannot read the ledger: {}", e.what()));
  }
  return problems;
}

}  // namespace bb::ledger
