// What the service's loop relies on: record() never copies the file (backups are separate calls the loop
// schedules), the game() pointer a display snapshot holds stays valid through a resume and a failed commit,
// and an undo after a snapshot restore can have its history loaded ahead of time.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <array>

#include "fault_vfs.h"
#include "ledger/backup_store.h"
#include "ledger/ledger.h"
#include "ledger/wal_sync.h"
#include "ledger_test_support.h"
#include "random_driver.h"
#include "rules/script.h"
#include "temp_dir.h"

namespace bb::ledger {
namespace {

using namespace testing;

struct Played {
  rules::Setup setup;
  std::vector<rules::Input> inputs;
};

Played scripted(int max_inputs, bool undos = true) {
  const std::string script = RandomDriver::script(EDITIONS_DIR, 91, 3, max_inputs, undos);
  std::vector<std::string> lines;
  for (std::size_t start = 0; start < script.size();) {
    auto end = script.find('\n', start);
    if (end == std::string::npos) end = script.size();
    if (end > start) lines.push_back(script.substr(start, end - start));
    start = end + 1;
  }
  Played p;
  p.setup = *rules::parse_setup(lines.at(0));
  auto edition = rules::load_edition("classic", {EDITIONS_DIR});
  std::vector<std::string> names;
  for (const auto& player : p.setup.players) names.push_back(player.name);
  for (std::size_t i = 1; i < lines.size(); ++i)
    p.inputs.push_back(*rules::parse_input(lines[i], names, *edition));
  return p;
}

// Authorised, as the banker's undo in the script needs.
InputMeta meta(std::size_t i) { return {fmt::format("touch:{}", i), "touch", "pin", "test correction"}; }

TEST(LoopSafety, RecordNeverMakesABackupTheScheduledCallDoes) {
  TempDir dir;
  const Played game = scripted(400);  // to the end of the game
  LedgerOptions options = options_for(dir.file("l.db"), dir.file("backups"));
  options.backup_every_minutes = 1;
  auto ledger = Ledger::open(options);
  ASSERT_TRUE(ledger.has_value());
  auto id = ledger->start_game(game.setup, "test");
  ASSERT_TRUE(id.has_value());
  bool over = false;
  for (std::size_t i = 0; i < game.inputs.size(); ++i) {
    auto recorded = ledger->record(*id, game.inputs[i], meta(i));
    ASSERT_TRUE(recorded.has_value()) << recorded.error().message;
    over = over || recorded->game_over;
  }
  EXPECT_TRUE(over) << "the script should play the game to its end";
  EXPECT_TRUE(BackupStore(dir.file("backups"), 10).list().empty());
  // The service's timer: due (no backup yet), then not again within the interval.
  auto due = ledger->backup_if_due(std::chrono::system_clock::now());
  ASSERT_TRUE(due.has_value());
  ASSERT_TRUE(due->has_value()) << due->error().message;
  EXPECT_FALSE(ledger->backup_if_due(std::chrono::system_clock::now()).has_value());
  EXPECT_EQ(BackupStore(dir.file("backups"), 10).list().size(), 1u);
}

// The service's loop writes commits and leaves their sync to another thread: with Durability::by_caller a
// record() syncs nothing (one xSync fewer per input than each_commit, as the fault VFS counts them), the
// WAL is then synced by its path (WalSync), and the file reopened holds every input.
TEST(LoopSafety, ByCallerDurabilityWritesWithoutSyncingAndWalSyncMakesItDurable) {
  FaultVfs::install(false);
  const Played game = scripted(30, false);
  std::array<std::int64_t, 2> counted{};
  for (const auto durability :
       {LedgerOptions::Durability::each_commit, LedgerOptions::Durability::by_caller}) {
    TempDir dir;
    LedgerOptions options = options_for(dir.file("l.db"));
    options.vfs = FaultVfs::kName;
    options.durability = durability;
    options.anchor_every_ms = 60000;  // the anchor's own writes are not the question here
    GameId id{};
    {
      auto ledger = Ledger::open(options);
      ASSERT_TRUE(ledger.has_value()) << ledger.error().message;
      auto started = ledger->start_game(game.setup, "test");
      ASSERT_TRUE(started.has_value());
      id = *started;
      FaultVfs::arm(FaultVfs::Mode::count);
      for (std::size_t i = 0; i < game.inputs.size(); ++i)
        ASSERT_TRUE(ledger->record(id, game.inputs[i], meta(i)).has_value());
      counted[durability == LedgerOptions::Durability::by_caller ? 1 : 0] = FaultVfs::writes();
      FaultVfs::disarm();
      if (durability == LedgerOptions::Durability::by_caller) {
        const WalSync wal(options.path);
        EXPECT_EQ(wal.wal_path(), options.path + "-wal");
        auto synced = wal.sync();
        EXPECT_TRUE(synced.has_value()) << synced.error();
      }
    }  // closed: what it wrote is read back by a new connection
    auto reopened = Ledger::open(options_for(dir.file("l.db")));
    ASSERT_TRUE(reopened.has_value()) << reopened.error().message;
    ASSERT_TRUE(reopened->resume(id).has_value());
    EXPECT_EQ(reopened->game(id)->input_count(), game.inputs.size());
  }
  EXPECT_LE(counted[1] + static_cast<std::int64_t>(game.inputs.size()), counted[0])
      << "each_commit " << counted[0] << " writes and syncs, by_caller " << counted[1];
  // No log (nothing written yet, or none at all): nothing to sync, and that is no error.
  TempDir empty;
  EXPECT_TRUE(WalSync(empty.file("none.db")).sync().has_value());
}

TEST(LoopSafety, ResumeRebuildsTheGameInPlace) {
  TempDir dir;
  const Played game = scripted(40);
  auto ledger = Ledger::open(options_for(dir.file("l.db")));
  ASSERT_TRUE(ledger.has_value());
  auto id = ledger->start_game(game.setup, "test");
  ASSERT_TRUE(id.has_value());
  const rules::Game* shown = ledger->game(*id);  // what a display snapshot holds
  for (std::size_t i = 0; i < game.inputs.size(); ++i)
    ASSERT_TRUE(ledger->record(*id, game.inputs[i], meta(i)));
  const auto signature = shown->signature();
  auto resumed = ledger->resume(*id);
  ASSERT_TRUE(resumed.has_value());
  EXPECT_EQ(ledger->game(*id), shown);
  EXPECT_EQ(shown->signature(), signature);
}

TEST(LoopSafety, AFailedCommitKeepsThePointerAndMarksTheGameStaleUntilRebuilt) {
  FaultVfs::install(false);
  FaultVfs::skip_syncs(true);
  TempDir dir;
  const Played game = scripted(40);
  LedgerOptions options = options_for(dir.file("l.db"));
  options.vfs = FaultVfs::kName;
  auto ledger = Ledger::open(options);
  ASSERT_TRUE(ledger.has_value());
  auto id = ledger->start_game(game.setup, "test");
  ASSERT_TRUE(id.has_value());
  for (std::size_t i = 0; i + 1 < game.inputs.size(); ++i)
    ASSERT_TRUE(ledger->record(*id, game.inputs[i], meta(i)));
  const rules::Game* shown = ledger->game(*id);
  const auto before = shown->signature();
  const std::size_t last = game.inputs.size() - 1;

  FaultVfs::fail_with_disk_full(true);
  FaultVfs::arm(FaultVfs::Mode::fail, 1);
  auto refused = ledger->record(*id, game.inputs[last], meta(last));
  FaultVfs::disarm();
  FaultVfs::fail_with_disk_full(false);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, LedgerError::Kind::storage_full);
  EXPECT_TRUE(ledger->stale(*id));
  EXPECT_EQ(ledger->game(*id), shown);  // still the same object: a snapshot holding it does not dangle

  auto resumed = ledger->resume(*id);
  ASSERT_TRUE(resumed.has_value());
  EXPECT_FALSE(ledger->stale(*id));
  EXPECT_EQ(ledger->game(*id), shown);
  EXPECT_EQ(shown->signature(), before);  // back where the file stands
  ASSERT_TRUE(ledger->record(*id, game.inputs[last], meta(last)).has_value());
  EXPECT_TRUE(ledger->invariant_violations().empty());
  FaultVfs::skip_syncs(false);
}

TEST(LoopSafety, TheHistoryAnUndoNeedsCanBeLoadedAheadOfTheUndo) {
  TempDir dir;
  const Played game = scripted(60, false);  // no undo: a restore from the snapshot skips the history
  LedgerOptions options = options_for(dir.file("l.db"));
  options.snapshot_every_inputs = 10;
  GameId id = 0;
  {
    auto ledger = Ledger::open(options);
    ASSERT_TRUE(ledger.has_value());
    id = *ledger->start_game(game.setup, "test");
    // All but the script's closing `end`: the game stays unfinished, so its snapshot is kept.
    for (std::size_t i = 0; i + 1 < game.inputs.size(); ++i) {
      auto recorded = ledger->record(id, game.inputs[i], meta(i));
      ASSERT_TRUE(recorded.has_value()) << i << ": " << recorded.error().message;
    }
  }
  auto ledger = Ledger::open(options);
  ASSERT_TRUE(ledger.has_value());
  auto resumed = ledger->resume(id);
  ASSERT_TRUE(resumed.has_value());
  ASSERT_GT(resumed->from_snapshot, 0) << "the resume should have used a snapshot";
  const rules::Game* shown = ledger->game(id);
  EXPECT_FALSE(shown->has_history());
  auto loaded = ledger->load_history(id);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_TRUE(shown->has_history());
  EXPECT_EQ(ledger->game(id), shown);
}

}  // namespace
}  // namespace bb::ledger
