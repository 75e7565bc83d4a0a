#pragma once
// The Ledger class's private parts, shared by its .cpp files (ledger.cpp: opening, starting, recording and
// resuming; ledger_checks.cpp; ledger_queries.cpp; ledger_backups.cpp). Internal to bb_ledger: never included
// outside ledger/. Same thread rules as Ledger: the thread that owns the Ledger.
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ledger/database.h"
#include "ledger/ledger.h"
#include "ledger/sql_error.h"
#include "ledger/statement.h"
#include "rules/game.h"

namespace bb::ledger {

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

// The time now as the ledger writes it (UTC, milliseconds: 2026-11-24T20:41:59.123Z).
std::string now_text();

// What a failed SQLite call means for the family (a full or read-only card, a bug, a damaged file, a failing
// card) and what to do; `what` names what was not recorded.
LedgerError storage_error(const SqlError& e, std::string_view what);

}  // namespace bb::ledger
