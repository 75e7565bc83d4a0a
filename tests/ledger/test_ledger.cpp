#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "ledger/anchor.h"
#include "ledger/backup_store.h"
#include "ledger/chain.h"
#include "ledger/database.h"
#include "ledger/ledger.h"
#include "ledger/ledger_config.h"
#include "ledger/script_replay.h"
#include "ledger_test_support.h"
#include "random_driver.h"
#include "rules/script.h"
#include "temp_dir.h"

namespace bb::ledger {
namespace {

using namespace testing;
namespace fs = std::filesystem;

class LedgerTest : public ::testing::Test {
 protected:
  Ledger open() {
    auto ledger = Ledger::open(options_for(dir_.file("ledger.db"), dir_.file("backups")));
    EXPECT_TRUE(ledger.has_value()) << ledger.error().message;
    return std::move(*ledger);
  }
  GameId play(Ledger& ledger, std::uint64_t seed, int inputs, bool undo = true) {
    std::string script = dir_.file(fmt::format("game-{}.jsonl", seed));
    write_file(script, RandomDriver::script(EDITIONS_DIR, seed, 3, inputs, undo));
    auto run = ScriptReplay::run(ledger, script, false);
    EXPECT_TRUE(run.has_value()) << run.error();
    EXPECT_TRUE(run->refused.empty()) << run->refused[0];
    return run->game;
  }
  TempDir dir_;
};

TEST_F(LedgerTest, ANewGameHoldsTheStartingCash) {
  Ledger ledger = open();
  auto game = ledger.start_game(RandomDriver::setup(1, 3));
  ASSERT_TRUE(game.has_value()) << game.error().message;
  auto balances = ledger.balances(*game);
  ASSERT_TRUE(balances.has_value());
  rules::Money total = 0;
  for (const auto& b : *balances) {
    total += b.balance;
    if (b.account >= 0) {
      EXPECT_EQ(b.balance, ledger.game(*game)->state().players[b.account].cash) << b.name;
    }
    if (b.account == rules::Account::bank().wire()) {
      EXPECT_EQ(b.name, "bank");
    }
  }
  EXPECT_EQ(total, 0);
  EXPECT_TRUE(ledger.invariant_violations().empty());
  EXPECT_EQ(ledger.newest_unfinished_game(), *game);
}

TEST_F(LedgerTest, StoredBalancesFollowTheEngineInputByInput) {
  Ledger ledger = open();
  auto game = ledger.start_game(RandomDriver::setup(2, 3));
  ASSERT_TRUE(game.has_value());
  RandomDriver driver(2, true);
  for (int n = 0; n < 150 && !ledger.game(*game)->state().ended; ++n) {
    for (int attempt = 0; attempt <= 8; ++attempt) {
      rules::Input input = driver.propose(*ledger.game(*game), attempt);
      auto recorded = ledger.record(*game, input, {fmt::format("touch:{}", n), "touch", "pin", "test"});
      if (recorded) break;
      ASSERT_EQ(recorded.error().kind, LedgerError::Kind::refused) << recorded.error().message;
    }
    auto problems = ledger.invariant_violations();
    ASSERT_TRUE(problems.empty()) << problems[0];
  }
}

TEST_F(LedgerTest, ResumeRebuildsTheSameGameFromItsLog) {
  std::string before;
  GameId game = 0;
  {
    Ledger ledger = open();
    game = play(ledger, 4, 200);
    before = rules::state_to_json(*ledger.game(game));
  }
  Ledger ledger = open();
  EXPECT_EQ(ledger.game(game), nullptr);
  auto report = ledger.resume(game);
  ASSERT_TRUE(report.has_value()) << report.error().message;
  EXPECT_TRUE(report->differences.empty()) << report->differences[0];
  EXPECT_GT(report->inputs, 0);
  EXPECT_EQ(rules::state_to_json(*ledger.game(game)), before);
}

TEST_F(LedgerTest, AnExportedScriptReplaysToTheSameState) {
  Ledger ledger = open();
  GameId game = play(ledger, 6, 150);
  auto script = ledger.export_script(game);
  ASSERT_TRUE(script.has_value());
  write_file(dir_.file("exported.jsonl"), *script);
  auto copy = Ledger::open(options_for(dir_.file("copy.db")));
  ASSERT_TRUE(copy.has_value());
  auto run = ScriptReplay::run(*copy, dir_.file("exported.jsonl"), false);
  ASSERT_TRUE(run.has_value()) << run.error();
  EXPECT_EQ(rules::state_to_json(*copy->game(run->game)), rules::state_to_json(*ledger.game(game)));
  // The ids travel with the script.
  EXPECT_EQ(copy->export_script(run->game).value(), *script);
}

TEST_F(LedgerTest, CsvHasOneRowPerPostingAndAddsUp) {
  Ledger ledger = open();
  GameId game = play(ledger, 8, 100);
  auto csv = ledger.export_csv(game);
  ASSERT_TRUE(csv.has_value());
  std::size_t rows = static_cast<std::size_t>(std::count(csv->begin(), csv->end(), '\n')) - 1;
  EXPECT_EQ(rows, ledger.game(game)->state().postings.size());
  EXPECT_TRUE(csv->starts_with("posting,input,input_id,source,kind,recorded_at,from,to,amount,memo"));
}

// The World edition counts in M and K: the CSV shows "15M", never 1500 alone, and keeps the raw units in
// `amount` for tools that read it.
TEST_F(LedgerTest, CsvShowsTheEditionsMoneyBesideTheRawUnits) {
  Ledger ledger = open();
  rules::Setup setup = RandomDriver::setup(4, 2);
  setup.edition = "world";
  auto game = ledger.start_game(setup);
  ASSERT_TRUE(game.has_value()) << game.error().message;
  auto csv = ledger.export_csv(*game);
  ASSERT_TRUE(csv.has_value());
  std::string header = csv->substr(0, csv->find('\n'));
  EXPECT_TRUE(header.ends_with(",amount,memo,space,card,authorised_by,reason,money")) << header;
  std::string first_row =
      csv->substr(header.size() + 1, csv->find('\n', header.size() + 1) - header.size() - 1);
  EXPECT_NE(first_row.find(",1500,start_cash,"), std::string::npos) << first_row;
  EXPECT_TRUE(first_row.ends_with(",15M")) << first_row;
}

TEST_F(LedgerTest, AnUndoNeedsTheBankerAndAReasonAndCompensates) {
  Ledger ledger = open();
  auto game = ledger.start_game(RandomDriver::setup(5, 2));
  ASSERT_TRUE(game.has_value());
  auto before = ledger.balances(*game).value();
  ASSERT_TRUE(ledger.record(*game, rules::Roll{1, 2}, {"dice:1", "dice", "", ""}).has_value());
  auto refused = ledger.record(*game, rules::Undo{}, {"touch:1", "touch", "", ""});
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, LedgerError::Kind::unauthorised);
  auto undone = ledger.record(*game, rules::Undo{}, {"touch:2", "touch", "0A1B2C3D", "Bob's die rolled off"});
  ASSERT_TRUE(undone.has_value()) << undone.error().message;
  auto after = ledger.balances(*game).value();
  ASSERT_EQ(before.size(), after.size());
  for (std::size_t i = 0; i < before.size(); ++i)
    EXPECT_EQ(after[i].balance, before[i].balance) << after[i].name;
  Database db(dir_.file("ledger.db"), Database::Mode::read_only);
  EXPECT_EQ(db.query_int64("SELECT count(*) FROM inputs"), 2);  // history kept: the roll and its undo
  EXPECT_EQ(db.query_text("SELECT authorised_by || ' / ' || reason FROM inputs WHERE kind = 'undo'"),
            "0A1B2C3D / Bob's die rolled off");
}

TEST_F(LedgerTest, AFinishedGameStaysHistoryAndItsBackupIsTheServicesCall) {
  Ledger ledger = open();
  GameId game = play(ledger, 10, 60);
  ASSERT_TRUE(ledger.game(game)->state().ended);
  auto summary = ledger.summary(game);
  ASSERT_TRUE(summary.has_value());
  EXPECT_TRUE(summary->finished_at.has_value());
  // record() never copies the file (longer than a frame); the service backs up once its loop is free.
  EXPECT_TRUE(BackupStore(dir_.file("backups"), 10).list().empty());
  ASSERT_TRUE(ledger.backup_now().has_value());
  EXPECT_EQ(BackupStore(dir_.file("backups"), 10).list().size(), 1u);
  auto late = ledger.record(game, rules::Roll{1, 1}, {"dice:late", "dice", "", ""});
  ASSERT_FALSE(late.has_value());
  EXPECT_EQ(late.error().kind, LedgerError::Kind::game_over);
  EXPECT_FALSE(ledger.newest_unfinished_game().has_value());
}

TEST_F(LedgerTest, BackupsRotateAndRestoreKeepsTheReplacedFile) {
  LedgerOptions options = options_for(dir_.file("ledger.db"), dir_.file("backups"));
  options.keep_backups = 3;
  std::string first_backup;
  {
    auto ledger = Ledger::open(options);
    ASSERT_TRUE(ledger.has_value());
    ASSERT_TRUE(ledger->start_game(RandomDriver::setup(1, 2)).has_value());
    first_backup = ledger->backup_now().value();
    ASSERT_TRUE(ledger->start_game(RandomDriver::setup(2, 2)).has_value());
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(ledger->backup_now().has_value());
    EXPECT_EQ(BackupStore(options.backup_dir, 3).list().size(), 3u);
    EXPECT_FALSE(fs::exists(first_backup));
    first_backup = BackupStore(options.backup_dir, 3).list().front();
    ASSERT_TRUE(ledger->start_game(RandomDriver::setup(3, 2)).has_value());
  }
  auto kept = BackupStore::restore(first_backup, options.path);
  ASSERT_TRUE(kept.has_value()) << kept.error();
  EXPECT_TRUE(fs::exists(*kept));
  auto ledger = Ledger::open(options);
  ASSERT_TRUE(ledger.has_value());
  EXPECT_EQ(ledger->list().size(), 2u);
  auto old = Ledger::open(options_for(*kept));
  ASSERT_TRUE(old.has_value());
  EXPECT_EQ(old->list().size(), 3u);
}

TEST_F(LedgerTest, ABackupStartedOnTheLoopAndFinishedElsewhereLandsWholeAndPassesTheCheck) {
  LedgerOptions options = options_for(dir_.file("ledger.db"), dir_.file("backups"));
  options.keep_backups = 2;
  options.backup_every_minutes = 10;
  auto ledger = Ledger::open(options);
  ASSERT_TRUE(ledger.has_value());
  GameId game = play(*ledger, 5, 40);
  auto pending = ledger->start_backup();
  ASSERT_TRUE(pending.has_value()) << pending.error().message;
  // Copied, not yet named: nothing a restore would offer, and nothing the rotation counts.
  EXPECT_TRUE(fs::exists(pending->partial));
  EXPECT_FALSE(fs::exists(pending->final_name));
  EXPECT_TRUE(BackupStore(options.backup_dir, 2).list().empty());
  // Finished on another thread, as the service's BackupFinisher does, while the ledger goes on.
  std::expected<std::string, std::string> made = std::unexpected("not run");
  std::thread finisher([&] { made = BackupStore::finish(*pending); });
  finisher.join();
  ASSERT_TRUE(made.has_value()) << made.error();
  EXPECT_EQ(*made, pending->final_name);
  EXPECT_FALSE(fs::exists(pending->partial));
  EXPECT_TRUE(fs::exists(Anchor::path_for(*made)));
  auto problems = Ledger::inspect(*made, options_for(*made), true);
  ASSERT_TRUE(problems.has_value()) << problems.error().message;
  EXPECT_TRUE(problems->empty()) << problems->front();
  auto copy = Ledger::open(options_for(*made));
  ASSERT_TRUE(copy.has_value()) << copy.error().message;
  EXPECT_EQ(copy->balances(game).value().size(), ledger->balances(game).value().size());
  // The interval counts from the start: a scheduled one is not due again at once.
  EXPECT_FALSE(ledger->start_backup_if_due(std::chrono::system_clock::now()).has_value());
}

TEST_F(LedgerTest, ABackupCopiedInStepsHoldsEveryInputCommittedBetweenItsSteps) {
  LedgerOptions options = options_for(dir_.file("ledger.db"), dir_.file("backups"));
  options.backup_every_minutes = 10;
  auto ledger = Ledger::open(options);
  ASSERT_TRUE(ledger.has_value());
  (void)play(*ledger, 11, 200);
  ASSERT_TRUE(ledger->begin_backup().has_value());
  EXPECT_TRUE(ledger->backup_under_way());
  // A second copy is refused while this one is under way; a scheduled one is not due.
  EXPECT_FALSE(ledger->start_backup().has_value());
  EXPECT_FALSE(ledger->begin_backup_if_due(std::chrono::system_clock::now()).has_value());
  // A few pages a step, as the service's loop copies it, with whole games committed between the steps: their
  // writes land on pages already copied and on pages still to copy.
  int steps = 0;
  std::optional<PendingBackup> pending;
  std::vector<GameId> games_between;
  while (!pending) {
    auto stepped = ledger->step_backup(2);
    ASSERT_TRUE(stepped.has_value()) << stepped.error().message;
    ++steps;
    if (*stepped) {
      pending = std::move(**stepped);
      break;
    }
    if (steps == 1) {
      EXPECT_GT(ledger->backup_progress().total_pages, 2);
      EXPECT_EQ(ledger->backup_progress().remaining_pages, ledger->backup_progress().total_pages - 2);
    }
    if (steps == 1 || steps == 5) games_between.push_back(play(*ledger, 20 + steps, 60));
  }
  EXPECT_GT(steps, 5);
  EXPECT_FALSE(ledger->backup_under_way());
  ASSERT_EQ(games_between.size(), 2u);
  // The ledger's anchor is synced by the finisher, not where the copy was made.
  EXPECT_EQ(pending->ledger_anchor, Anchor::path_for(options.path));
  auto made = BackupStore::finish(*pending);
  ASSERT_TRUE(made.has_value()) << made.error();
  auto problems = Ledger::inspect(*made, options_for(*made), true);
  ASSERT_TRUE(problems.has_value()) << problems.error().message;
  EXPECT_TRUE(problems->empty()) << problems->front();
  auto copy = Ledger::open(options_for(*made));
  ASSERT_TRUE(copy.has_value()) << copy.error().message;
  auto games = ledger->list();
  ASSERT_EQ(copy->list().size(), games.size());
  for (const GameSummary& game : games) {
    EXPECT_EQ(copy->export_script(game.id).value(), ledger->export_script(game.id).value())
        << "game " << game.id;
  }
  // Inputs after the last step are not in it (the copy is what was committed before it completed).
  GameId after = play(*ledger, 40, 10);
  EXPECT_FALSE(copy->summary(after).has_value());
}

TEST_F(LedgerTest, ABackupCopyCutShortByTheLedgersCloseLeavesNoPartialCopy) {
  LedgerOptions options = options_for(dir_.file("ledger.db"), dir_.file("backups"));
  {
    auto ledger = Ledger::open(options);
    ASSERT_TRUE(ledger.has_value());
    (void)play(*ledger, 12, 100);
    ASSERT_TRUE(ledger->begin_backup().has_value());
    auto stepped = ledger->step_backup(1);
    ASSERT_TRUE(stepped.has_value()) << stepped.error().message;
    EXPECT_FALSE(stepped->has_value());
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(options.backup_dir)) files.push_back(entry.path());
    ASSERT_EQ(files.size(), 1u);
    EXPECT_TRUE(files[0].string().ends_with(".db.partial")) << files[0];
  }
  EXPECT_TRUE(fs::is_empty(options.backup_dir));
  auto problems = Ledger::inspect(options.path, options, true);
  ASSERT_TRUE(problems.has_value()) << problems.error().message;
  EXPECT_TRUE(problems->empty()) << problems->front();
}

TEST_F(LedgerTest, ABackupThatCannotBeFinishedSaysWhyAndLeavesNoPartialCopy) {
  LedgerOptions options = options_for(dir_.file("ledger.db"), dir_.file("backups"));
  options.backup_every_minutes = 10;
  auto ledger = Ledger::open(options);
  ASSERT_TRUE(ledger.has_value());
  (void)play(*ledger, 3, 20);
  auto pending = ledger->start_backup();
  ASSERT_TRUE(pending.has_value()) << pending.error().message;
  // The final name is taken by a directory: the rename into place fails.
  fs::create_directories(fs::path(pending->final_name) / "in-the-way");
  auto made = BackupStore::finish(*pending);
  ASSERT_FALSE(made.has_value());
  EXPECT_NE(made.error().find("cannot name the backup"), std::string::npos) << made.error();
  EXPECT_FALSE(fs::exists(pending->partial));
  EXPECT_FALSE(fs::exists(Anchor::path_for(pending->final_name)));
  EXPECT_TRUE(BackupStore(options.backup_dir, 10).list().empty());
  // A scheduled backup is due again at once, as after a copy that failed.
  EXPECT_FALSE(ledger->start_backup_if_due(std::chrono::system_clock::now()).has_value());
  ledger->backup_not_finished();
  EXPECT_TRUE(ledger->start_backup_if_due(std::chrono::system_clock::now()).has_value());
}

TEST_F(LedgerTest, AScheduledBackupWaitsForItsInterval) {
  LedgerOptions options = options_for(dir_.file("ledger.db"), dir_.file("backups"));
  options.backup_every_minutes = 10;
  auto ledger = Ledger::open(options);
  ASSERT_TRUE(ledger.has_value());
  auto now = std::chrono::system_clock::now();
  EXPECT_TRUE(ledger->backup_if_due(now).has_value());  // never backed up: due
  EXPECT_FALSE(ledger->backup_if_due(now + std::chrono::minutes(5)).has_value());
  EXPECT_TRUE(ledger->backup_if_due(now + std::chrono::minutes(11)).has_value());
}

TEST_F(LedgerTest, AGameThatNoLongerReplaysToItsBalancesIsReportedAndStopped) {
  GameId game = 0;
  {
    Ledger ledger = open();
    game = play(ledger, 14, 80, false);
  }
  {
    // Someone edits the file behind the ledger's back, even fixing up the balances, the hash chain and the
    // anchor beside the file (which alone would show the rewritten history).
    Database db(dir_.file("ledger.db"), Database::Mode::read_write);
    std::vector<std::string> triggers = db.query_column(
        "SELECT sql FROM sqlite_schema WHERE name IN ('postings_not_updated', 'inputs_not_updated', "
        "'games_finish_once')");
    ASSERT_EQ(triggers.size(), 3u);
    db.exec(
        "DROP TRIGGER postings_not_updated; DROP TRIGGER inputs_not_updated; DROP TRIGGER games_finish_once");
    db.exec("UPDATE postings SET amount = amount + 10 WHERE seq = (SELECT max(seq) FROM postings)");
    db.exec(R"sql(UPDATE accounts SET balance = balance + 10 WHERE account =
                    (SELECT to_account FROM postings WHERE seq = (SELECT max(seq) FROM postings)))sql");
    db.exec(R"sql(UPDATE accounts SET balance = balance - 10 WHERE account =
                    (SELECT from_account FROM postings WHERE seq = (SELECT max(seq) FROM postings)))sql");
    Chain::fill(db);
    db.exec("UPDATE games SET finished_at = NULL");
    for (const std::string& sql : triggers) db.exec(sql);  // put back, so that only the money differs
    ASSERT_TRUE(Anchor::write(Anchor::path_for(dir_.file("ledger.db")), Anchor::heads(db)).has_value());
  }
  Ledger ledger = open();
  auto report = ledger.resume(game);
  ASSERT_TRUE(report.has_value());
  EXPECT_FALSE(report->differences.empty());
  auto refused = ledger.record(game, rules::Roll{1, 2}, {"dice:x", "dice", "", ""});
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, LedgerError::Kind::diverged);
  auto problems = Ledger::inspect(dir_.file("ledger.db"), options_for(dir_.file("ledger.db")), true);
  ASSERT_TRUE(problems.has_value());
  EXPECT_FALSE(problems->empty());
}

TEST(LedgerConfigFile, ReadsTheLedgerTable) {
  TempDir dir;
  write_file(dir.file("boardbank.toml"),
             "[ledger]\npath = \"/srv/bank.db\"\nbackup_dir = \"/srv/backups\"\nbackup_every_minutes = 15\n"
             "keep_backups = 5\n");
  auto config = LedgerConfig::load(dir.file("boardbank.toml"));
  ASSERT_TRUE(config.has_value()) << config.error();
  EXPECT_EQ(config->path, "/srv/bank.db");
  EXPECT_EQ(config->backup_dir, "/srv/backups");
  EXPECT_EQ(config->backup_every_minutes, 15);
  EXPECT_EQ(config->resume_budget_ms, 100);  // not in the file: the default
  EXPECT_EQ(config->keep_backups, 5);
  EXPECT_TRUE(LedgerConfig::load(dir.file("missing.toml")).has_value());
  write_file(dir.file("bad.toml"), "[ledger\n");
  EXPECT_FALSE(LedgerConfig::load(dir.file("bad.toml")).has_value());
  write_file(dir.file("budget.toml"), "[ledger]\nresume_budget_ms = 250\n");
  EXPECT_EQ(LedgerConfig::load(dir.file("budget.toml"))->resume_budget_ms, 250);
  write_file(dir.file("negative.toml"), "[ledger]\nresume_budget_ms = -1\n");
  auto negative = LedgerConfig::load(dir.file("negative.toml"));
  ASSERT_FALSE(negative.has_value());
  EXPECT_NE(negative.error().find("resume_budget_ms"), std::string::npos);
}

}  // namespace
}  // namespace bb::ledger
