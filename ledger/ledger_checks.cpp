// Ledger's checks: a whole file checked read-only (inspect, `boardbank ledger check`), the newest sound
// backup, and the always-callable invariant over the loaded games.
#include <fmt/format.h>

#include <filesystem>

#include "ledger/anchor.h"
#include "ledger/backup_store.h"
#include "ledger/chain.h"
#include "ledger/ledger.h"
#include "ledger/ledger_private.h"
#include "ledger/medium.h"
#include "ledger/rebuild.h"
#include "ledger/schema.h"

namespace bb::ledger {

namespace fs = std::filesystem;
using Kind = LedgerError::Kind;

namespace {

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
