#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "daemon/commands.h"
#include "daemon/ledger_replay.h"
#include "daemon/paths.h"
#include "daemon/text_file.h"
#include "ledger/backup_store.h"
#include "ledger/ledger.h"
#include "ledger/ledger_config.h"
#include "ledger/script_replay.h"
#include "rules/script.h"

namespace bb::daemon {

namespace {

struct LedgerArgs {
  std::string config = ledger::LedgerConfig::kDefaultFile;
  std::string db;
  std::string backup_dir;
  std::string game;
  bool csv = false;
  bool script = false;
  bool create = false;
  std::string file;
};

[[noreturn]] void fail(const std::string& message, int code = 1) {
  std::cerr << "boardbank ledger: " << message << "\n";
  throw CLI::RuntimeError(code);
}

ledger::LedgerOptions options_from(const LedgerArgs& args) {
  auto config = ledger::LedgerConfig::load(args.config);
  if (!config) fail(config.error(), 2);
  ledger::LedgerOptions options;
  options.path = args.db.empty() ? config->path : args.db;
  options.backup_dir = args.backup_dir.empty() ? config->backup_dir : args.backup_dir;
  options.keep_backups = config->keep_backups;
  options.resume_budget_ms = config->resume_budget_ms;
  // Scheduled backups belong to the daemon's long run; a command-line call backs up only when asked.
  options.backup_every_minutes = 0;
  auto dirs = bb::daemon::edition_dirs();
  if (!dirs) fail(dirs.error(), 2);
  options.edition_dirs = std::move(*dirs);
  // A mistyped --db must not quietly become a new, empty ledger (which a later hint could then offer).
  options.access = args.create ? ledger::LedgerAccess::create_or_open : ledger::LedgerAccess::open_existing;
  return options;
}

ledger::Ledger open_ledger(const LedgerArgs& args) {
  auto opened = ledger::Ledger::open(options_from(args));
  if (!opened) fail(opened.error().message);
  return std::move(*opened);
}

ledger::GameId game_id(const std::string& text) {
  try {
    std::size_t used = 0;
    long long id = std::stoll(text, &used);
    if (used == text.size() && id > 0) return id;
  } catch (const std::exception&) {
  }
  fail(fmt::format("'{}' is not a game number (see 'boardbank ledger list')", text), 2);
}

void list(const LedgerArgs& args) {
  auto ledger = open_ledger(args);
  auto games = ledger.list();
  if (games.empty()) {
    std::cout << "no games yet\n";
    return;
  }
  std::cout << fmt::format("{:>5}  {:<10} {:<24} {:<24} {:>7}  {}\n", "game", "edition", "started",
                           "finished", "inputs", "players");
  for (const auto& g : games) {
    std::cout << fmt::format("{:>5}  {:<10} {:<24} {:<24} {:>7}  {}\n", g.id, g.edition, g.started_at,
                             g.finished_at.value_or("(in play)"), g.inputs, fmt::join(g.players, ", "));
  }
}

void show(const LedgerArgs& args) {
  auto ledger = open_ledger(args);
  ledger::GameId id = game_id(args.game);
  auto summary = ledger.summary(id);
  if (!summary) fail(summary.error().message);
  auto report = ledger.resume(id);
  auto balances = ledger.balances(id);
  if (!balances) fail(balances.error().message);
  const rules::Game* game = ledger.game(id);
  auto money = [&](rules::Money m) { return game ? game->edition().format_money(m) : std::to_string(m); };
  std::cout << fmt::format("game {} ({}), started {}, {}\n", id, summary->edition, summary->started_at,
                           summary->finished_at ? "finished " + *summary->finished_at : "in play");
  std::cout << fmt::format("{} inputs\n", summary->inputs);
  if (game && !game->state().winners.empty()) {
    std::vector<std::string> names;
    for (rules::PlayerId w : game->state().winners) names.push_back(game->account_name(w));
    std::cout << fmt::format("won by {}{}\n", fmt::join(names, " and "), names.size() > 1 ? ": a tie" : "");
  }
  rules::Money total = 0;
  for (const auto& b : *balances) {
    std::cout << fmt::format("  {:<16} {:>14}\n", b.name, money(b.balance));
    total += b.balance;
  }
  std::cout << fmt::format("  {:<16} {:>14}\n", "sum", money(total));
  if (!report) {
    std::cout << "replay: " << report.error().message << "\n";
  } else if (report->differences.empty()) {
    std::cout << fmt::format("replay: {} inputs in {:.1f} ms give exactly the stored balances\n",
                             report->inputs, report->replay_ms);
  } else {
    std::cout << "replay DIFFERS from the stored ledger:\n";
    for (const auto& d : report->differences) std::cout << "  " << d << "\n";
    throw CLI::RuntimeError(1);
  }
}

void export_game(const LedgerArgs& args) {
  if (args.csv == args.script) fail("say --csv or --script", 2);
  auto ledger = open_ledger(args);
  ledger::GameId id = game_id(args.game);
  auto text = args.csv ? ledger.export_csv(id) : ledger.export_script(id);
  if (!text) fail(text.error().message);
  std::cout << *text;
}

void check(const LedgerArgs& args) {
  auto options = options_from(args);
  std::string path = args.file.empty() ? options.path : args.file;
  auto problems = ledger::Ledger::inspect(path, options, true);
  if (!problems) fail(problems.error().message);
  if (problems->empty()) {
    std::cout << fmt::format("{}: ok (SQLite integrity, balances, hash chain and the replay of every game)\n",
                             path);
    return;
  }
  std::cout << fmt::format("{}: {} problem(s)\n", path, problems->size());
  for (const auto& p : *problems) std::cout << "  " << p << "\n";
  if (auto newest = ledger::Ledger::newest_sound_backup(options); newest && *newest != path) {
    std::cout << fmt::format(
        "The newest sound backup is {}; 'boardbank ledger restore {}' puts it in place and keeps "
        "this file beside it.\n",
        *newest, *newest);
  }
  throw CLI::RuntimeError(1);
}

void backup(const LedgerArgs& args) {
  auto ledger = open_ledger(args);
  auto made = ledger.backup_now();
  if (!made) fail(made.error().message);
  std::cout << *made << "\n";
}

void restore(const LedgerArgs& args) {
  auto options = options_from(args);
  auto problems = ledger::Ledger::inspect(args.file, options, true);
  if (!problems) fail(problems.error().message);
  if (!problems->empty())
    fail(fmt::format("{} was not restored, nothing was changed: {}", args.file, (*problems)[0]));
  auto kept = ledger::BackupStore::restore(args.file, options.path);
  if (!kept) fail(kept.error());
  std::cout << fmt::format("restored {} to {}\n", args.file, options.path);
  if (!kept->empty()) std::cout << fmt::format("the file it replaced is kept as {}\n", *kept);
}

}  // namespace

int replay_into_ledger(const std::string& script_path, const std::string& db_path, bool json,
                       bool keep_going) {
  // Refused before the ledger is opened, so a mistyped script path leaves no new, empty ledger behind.
  if (auto checked = bb::daemon::check_file_path(script_path, "the game script"); !checked) {
    std::cerr << "boardbank replay: " << checked.error().message << "\n";
    return 2;
  }
  auto dirs = bb::daemon::edition_dirs();
  if (!dirs) {
    std::cerr << "boardbank replay: " << dirs.error() << "\n";
    return 2;
  }
  ledger::LedgerOptions options;
  options.path = db_path;
  options.edition_dirs = std::move(*dirs);
  auto opened = ledger::Ledger::open(options);
  if (!opened) {
    std::cerr << "boardbank replay: " << opened.error().message << "\n";
    return 2;
  }
  auto result = ledger::ScriptReplay::run(*opened, script_path, keep_going);
  if (!result) {
    std::cerr << "boardbank replay: " << result.error() << "\n";
    return 2;
  }
  for (const auto& r : result->refused) std::cerr << "boardbank replay: " << r << "\n";
  const rules::Game* game = opened->game(result->game);
  if (json) {
    std::cout << rules::state_to_json(*game) << "\n";
  } else {
    std::cout << rules::state_summary(*game);
    std::cerr << fmt::format("ledger {}: game {}: {} inputs stored now, {} found stored already\n", db_path,
                             result->game, result->applied, result->skipped);
  }
  auto problems = opened->invariant_violations();
  for (const auto& b : game->invariant_violations()) problems.push_back(b);
  if (!problems.empty()) {
    for (const auto& p : problems) std::cerr << "invariant broken: " << p << "\n";
    return 3;
  }
  return result->refused.empty() ? 0 : 1;
}

void add_ledger_commands(CLI::App& app) {
  auto args = std::make_shared<LedgerArgs>();
  CLI::App* ledger = app.add_subcommand("ledger", "the games and payments stored on this bank");
  ledger->require_subcommand(1);
  ledger->add_option("--db", args->db, "the ledger file (default: [ledger] path of the configuration)");
  ledger->add_option("--config", args->config, "the configuration file")->capture_default_str();
  ledger->add_option("--backup-dir", args->backup_dir, "where backups go (default: [ledger] backup_dir)");
  ledger->add_flag(
      "--create", args->create,
      "start a new, empty ledger when --db does not exist (otherwise a missing file is refused)");

  ledger->add_subcommand("list", "every game, finished or in play")->callback([args] { list(*args); });
  auto* show_cmd = ledger->add_subcommand("show", "one game's balances, checked by replaying its inputs");
  show_cmd->add_option("GAME", args->game, "game number")->required();
  show_cmd->callback([args] { show(*args); });
  auto* export_cmd = ledger->add_subcommand("export", "one game as CSV postings or as a game script");
  export_cmd->add_option("GAME", args->game, "game number")->required();
  export_cmd->add_flag("--csv", args->csv, "every posting, with the input that caused it");
  export_cmd->add_flag("--script", args->script, "the game script: 'boardbank replay' plays it again");
  export_cmd->callback([args] { export_game(*args); });
  auto* check_cmd = ledger->add_subcommand("check", "checks a ledger file without writing to it");
  check_cmd->add_option("FILE", args->file, "the file to check (default: the configured ledger)");
  check_cmd->callback([args] { check(*args); });
  ledger->add_subcommand("backup", "makes a backup now")->callback([args] { backup(*args); });
  auto* restore_cmd = ledger->add_subcommand("restore", "puts a backup in place; the replaced file is kept");
  restore_cmd->add_option("BACKUP", args->file, "the backup file")->required();
  restore_cmd->callback([args] { restore(*args); });
}

}  // namespace bb::daemon
