// Crash safety: a child plays a scripted game into a ledger and is killed with SIGKILL at its Nth write
// (xWrite or xSync, counted by the fault VFS). After every kill the file must be whole, balanced, hold every
// acknowledged input exactly once, replay to its stored balances, and a second run must finish the game
// exactly as an uninterrupted run does.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "child_process.h"
#include "fault_vfs.h"
#include "ledger/backup_store.h"
#include "ledger/ledger.h"
#include "ledger_test_support.h"
#include "random_driver.h"
#include "temp_dir.h"

namespace bb::ledger {
namespace {

using namespace testing;
namespace fs = std::filesystem;

struct Baseline {
  std::int64_t writes = 0;
  std::string state;
};

// Every run stores a resume snapshot each kSnapshotEvery inputs, so that kills land in snapshot writes too
// and the runs that finish a killed game resume it from a snapshot.
constexpr const char* kSnapshotEvery = "5";

Baseline uninterrupted(const TempDir& dir, const std::string& script, const std::string& phase) {
  std::string db = dir.file("baseline-" + phase + ".db");
  ChildResult run = run_child(CRASH_PLAYER, {script, db, "--phase", phase, "--backup-dir",
                                             dir.file("bb-" + phase), "--snapshot-every", kSnapshotEvery});
  EXPECT_EQ(run.exit_code, 0) << run.out;
  Baseline b{std::stoll(line_value(run.out, "WRITES")), line_value(run.out, "STATE")};
  EXPECT_GT(b.writes, 0);
  EXPECT_FALSE(b.state.empty());
  return b;
}

// The checks in this process skip fsync (through the fault VFS, disarmed): they read, and what they write
// (the recovery at open) is not what is under test. The child syncs as it is told.
LedgerOptions fast(LedgerOptions options) {
  FaultVfs::install(false);
  FaultVfs::skip_syncs(true);
  options.vfs = FaultVfs::kName;
  return options;
}

// Everything that must hold after a kill at write `n`.
void check_after_kill(const TempDir& dir, const std::string& script, const std::string& phase, std::int64_t n,
                      bool torn, const Baseline& baseline, bool finish_again) {
  std::string db = dir.file(fmt::format("kill-{}-{}.db", phase, n));
  std::string backups = dir.file(fmt::format("backups-{}-{}", phase, n));
  std::vector<std::string> args = {
      script,         db,      "--kill-at",        std::to_string(n), "--phase", phase,
      "--backup-dir", backups, "--snapshot-every", kSnapshotEvery};
  if (torn) args.push_back("--torn");
  ChildResult run = run_child(CRASH_PLAYER, args);
  ASSERT_TRUE(run.killed || run.exit_code == 0) << "write " << n << ": " << run.out;
  SCOPED_TRACE(fmt::format("{} phase, killed at write {}{}", phase, n, torn ? " (torn)" : ""));

  if (fs::exists(db)) {
    {
      // What the daemon does at start: check, recover, migrate. It must accept the file.
      auto reopened = Ledger::open(fast(options_for(db)));
      ASSERT_TRUE(reopened.has_value()) << reopened.error().message;
    }
    // integrity_check, the balances summing to zero and equal to their postings, the hash chain, and the
    // replay of every game through the engine giving exactly the stored postings and balances.
    auto problems = Ledger::inspect(db, fast(options_for(db)), true);
    ASSERT_TRUE(problems.has_value()) << problems.error().message;
    EXPECT_TRUE(problems->empty()) << ::testing::PrintToString(*problems);
    auto counts = stored_id_counts(db);
    for (const std::string& id : acked_ids(run.out))
      EXPECT_EQ(counts["1:" + id], 1) << "acknowledged id " << id;
  } else {
    EXPECT_TRUE(acked_ids(run.out).empty());
  }
  // A backup cut short never carries a backup's name; one that does is whole.
  for (const std::string& b : BackupStore(backups, 10).list()) {
    auto problems = Ledger::inspect(b, options_for(b), false);
    ASSERT_TRUE(problems.has_value());
    EXPECT_TRUE(problems->empty()) << b << ": " << (*problems)[0];
  }
  if (finish_again) {
    ChildResult again = run_child(CRASH_PLAYER, {script, db, "--phase", phase, "--backup-dir", backups,
                                                 "--snapshot-every", kSnapshotEvery});
    ASSERT_EQ(again.exit_code, 0) << again.out;
    EXPECT_EQ(line_value(again.out, "STATE"), baseline.state);
  }
  std::error_code ec;
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(db + suffix, ec);
  fs::remove_all(backups, ec);
}

class CrashTest : public ::testing::Test {
 protected:
  std::string write_script(int inputs, std::uint64_t seed) {
    std::string path = dir_.file(fmt::format("game-{}.jsonl", seed));
    write_file(path, RandomDriver::script(EDITIONS_DIR, seed, 3, inputs, true));
    return path;
  }
  TempDir dir_;
  // How often a killed run is followed by a second run that must finish exactly like an uninterrupted one.
  int finish_every_ = sweep_size("BOARDBANK_LEDGER_FINISH_EVERY", 3, 8);
};

TEST_F(CrashTest, ShortGameKilledAtEveryWrite) {
  std::string script = write_script(sweep_size("BOARDBANK_LEDGER_SHORT_INPUTS", 12, 4), 11);
  Baseline baseline = uninterrupted(dir_, script, "play");
  for (std::int64_t n = 1; n <= baseline.writes; ++n) {
    check_after_kill(dir_, script, "play", n, n % 2 == 0, baseline, n % finish_every_ == 0);
    if (HasFatalFailure()) return;
  }
}

TEST_F(CrashTest, LongGameKilledAtSampledWrites) {
  std::string script = write_script(sweep_size("BOARDBANK_LEDGER_LONG_INPUTS", 150, 80), 23);
  Baseline baseline = uninterrupted(dir_, script, "play");
  // 200 points in a normal build; the sanitizer build samples 40 by default to fit its CI budget (set
  // BOARDBANK_LEDGER_CRASH_POINTS=200 or more for the full sweep there).
  int points = sweep_size("BOARDBANK_LEDGER_CRASH_POINTS", 200, 40);
  std::mt19937_64 rng(5);
  std::set<std::int64_t> sample;
  while (static_cast<int>(sample.size()) < std::min<std::int64_t>(points, baseline.writes)) {
    sample.insert(1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(baseline.writes)));
  }
  int i = 0;
  for (std::int64_t n : sample) {
    // Finishing the game again after every twentieth kill keeps the sweep within the CI budget.
    check_after_kill(dir_, script, "play", n, n % 3 == 0, baseline, i++ % 20 == 0);
    if (HasFatalFailure()) return;
  }
}

TEST_F(CrashTest, KilledDuringACheckpoint) {
  std::string script = write_script(sweep_size("BOARDBANK_LEDGER_CHECKPOINT_INPUTS", 30, 12), 31);
  Baseline baseline = uninterrupted(dir_, script, "checkpoint");
  for (std::int64_t n = 1; n <= baseline.writes; ++n) {
    check_after_kill(dir_, script, "checkpoint", n, n % 2 == 1, baseline, n % finish_every_ == 0);
    if (HasFatalFailure()) return;
  }
}

TEST_F(CrashTest, KilledDuringABackup) {
  std::string script = write_script(sweep_size("BOARDBANK_LEDGER_BACKUP_INPUTS", 30, 12), 41);
  Baseline baseline = uninterrupted(dir_, script, "backup");
  for (std::int64_t n = 1; n <= baseline.writes; ++n) {
    check_after_kill(dir_, script, "backup", n, n % 2 == 1, baseline, n % finish_every_ == 0);
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace bb::ledger
