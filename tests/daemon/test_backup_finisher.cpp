// The backup finisher: backups copied on the loop are finished on its thread and reported back to the loop.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <thread>
#include <vector>

#include "daemon/backup_finisher.h"
#include "ledger/backup_store.h"
#include "ledger/ledger.h"
#include "ledger_test_support.h"
#include "random_driver.h"
#include "temp_dir.h"

using namespace bb;
using namespace bb::daemon;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

using Occasion = BackupFinisher::Occasion;
namespace lt = bb::ledger::testing;

struct Fixture {
  lt::TempDir dir;
  std::unique_ptr<EventLoop> loop = EventLoop::create().value();
  ledger::LedgerOptions options = lt::options_for(dir.file("ledger.db"), dir.file("backups"));
  ledger::Ledger ledger = ledger::Ledger::open(options).value();
  std::vector<BackupFinisher::Result> results;  // loop thread

  Fixture() { EXPECT_TRUE(ledger.start_game(lt::RandomDriver::setup(7, 3)).has_value()); }
  std::function<void(const BackupFinisher::Result&)> collect() {
    return [this](const BackupFinisher::Result& r) { results.push_back(r); };
  }
  void turn_until_reported(const BackupFinisher& finisher) {
    for (int round = 0; round < 2000 && finisher.busy(); ++round) loop->run_once(10ms);
  }
  void expect_sound(const std::string& backup) {
    EXPECT_TRUE(fs::exists(backup));
    EXPECT_TRUE(fs::exists(ledger::Anchor::path_for(backup)));
    auto problems = ledger::Ledger::inspect(backup, lt::options_for(backup), false);
    ASSERT_TRUE(problems.has_value()) << problems.error().message;
    EXPECT_TRUE(problems->empty()) << problems->front();
  }
};

TEST(BackupFinisher, ABackupCopiedOnTheLoopLandsWholeAndIsReportedOnTheLoop) {
  Fixture f;
  BackupFinisher finisher(*f.loop, ledger::BackupStore::finish, f.collect());
  EXPECT_FALSE(finisher.busy());
  auto pending = f.ledger.start_backup();
  ASSERT_TRUE(pending.has_value()) << pending.error().message;
  const std::string name = pending->final_name;
  finisher.hand_over(std::move(*pending), Occasion::end_of_game);
  EXPECT_TRUE(finisher.busy());  // the loop starts no other copy until this one is reported
  f.turn_until_reported(finisher);
  ASSERT_EQ(f.results.size(), 1u);
  EXPECT_EQ(f.results[0].occasion, Occasion::end_of_game);
  ASSERT_TRUE(f.results[0].made.has_value()) << f.results[0].made.error();
  EXPECT_EQ(*f.results[0].made, name);
  f.expect_sound(name);
}

TEST(BackupFinisher, ABackupThatFailsIsReportedWithWhatWentWrong) {
  Fixture f;
  BackupFinisher finisher(*f.loop, ledger::BackupStore::finish, f.collect());
  auto pending = f.ledger.start_backup();
  ASSERT_TRUE(pending.has_value()) << pending.error().message;
  fs::create_directories(fs::path(pending->final_name) / "in-the-way");  // the rename into place fails
  finisher.hand_over(std::move(*pending), Occasion::scheduled);
  f.turn_until_reported(finisher);
  ASSERT_EQ(f.results.size(), 1u);
  EXPECT_EQ(f.results[0].occasion, Occasion::scheduled);
  ASSERT_FALSE(f.results[0].made.has_value());
  EXPECT_NE(f.results[0].made.error().find("cannot name the backup"), std::string::npos)
      << f.results[0].made.error();
  EXPECT_FALSE(finisher.busy());
}

TEST(BackupFinisher, StoppingDuringABackupWaitsForItAndReportsItOnce) {
  Fixture f;
  std::atomic<bool> finishing{false};
  std::atomic<bool> stopping{false};
  auto finish = [&](const ledger::PendingBackup& pending) {
    finishing = true;
    while (!stopping) std::this_thread::yield();  // the service stops while this backup is under way
    return ledger::BackupStore::finish(pending);
  };
  auto finisher = std::make_unique<BackupFinisher>(*f.loop, finish, f.collect());
  auto pending = f.ledger.start_backup();
  ASSERT_TRUE(pending.has_value()) << pending.error().message;
  const std::string name = pending->final_name;
  finisher->hand_over(std::move(*pending), Occasion::end_of_game);
  while (!finishing) std::this_thread::yield();
  stopping = true;
  finisher.reset();  // joins: the backup under way lands whole
  f.expect_sound(name);
  EXPECT_FALSE(fs::exists(name + ".partial"));
  // Reported exactly once: by the destructor, or (had the post won the race) from the loop's queue.
  for (int i = 0; i < 3; ++i) f.loop->run_once(1ms);
  ASSERT_EQ(f.results.size(), 1u);
  EXPECT_TRUE(f.results[0].made.has_value());
}

}  // namespace
