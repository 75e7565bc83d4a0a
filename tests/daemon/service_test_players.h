// What test_service.cpp and test_service_faults.cpp share beside service_test_support.h: a watcher that stops
// the service once a condition holds, a player who throws the simulated dice through a pipe, the service set
// up with that dice unit and its ledger on the fault VFS, and the stored ledger opened afterwards. Test code
// only; a participant runs on the service's loop thread, the rest on gtest's.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "daemon/participant.h"
#include "daemon/service.h"
#include "fault_vfs.h"
#include "ledger/ledger.h"
#include "service_test_support.h"
#include "table/table.h"

namespace bb::daemon::service_test {

// Waits for a condition on the table's view, then stops the service; gives up after `limit` wakes.
struct Watcher final : Participant {
  std::function<bool(ParticipantContext&)> done;
  int wakes = 0;
  int limit = 1000;
  bool reached = false;
  std::string name() const override { return "watcher"; }
  Wake wake() const override { return Wake{-1, std::chrono::milliseconds(5)}; }
  void on_wake(ParticipantContext& c) override {
    if (done(c)) {
      reached = true;
      return c.stop(0);
    }
    if (++wakes > wake_limit(limit)) c.stop(1);
  }
};

// A player at a table whose disk fills up: starts a game, throws the simulated dice through its pipe and
// hands each step to the test.
struct DicePlayer final : Participant {
  explicit DicePlayer(int pipe) : dice_pipe(pipe) {}
  std::string name() const override { return "dice player"; }
  Wake wake() const override { return Wake{-1, std::chrono::milliseconds(5)}; }
  void on_wake(ParticipantContext& c) override {
    const auto& view = c.table().view();
    if (start_two_player_game(c, started)) return;
    if (view.game && step(c, view)) c.stop(0);
    if (++wakes > wake_limit(4000)) c.stop(1);  // 20 s: the test failed; do not hang
  }
  void roll(int a, int b) {
    const std::string line = "roll " + std::to_string(a) + " " + std::to_string(b) + "\n";
    ASSERT_EQ(write(dice_pipe, line.data(), line.size()), static_cast<ssize_t>(line.size()));
  }
  std::function<bool(ParticipantContext&, const table::TableView&)> step;
  int dice_pipe;
  bool started = false;
  int wakes = 0;
};

// dice_service_setup with the ledger on the fault VFS, so a test can make its writes fail.
inline ServiceSetup dice_setup(const TempFolder& dir, int dice_read_end, std::vector<std::string>& lines) {
  ServiceSetup setup = dice_service_setup(dir, dice_read_end, lines);
  setup.ledger_vfs = ledger::testing::FaultVfs::kName;
  return setup;
}

inline ledger::Ledger open_stored(const TempFolder& dir) {
  ledger::LedgerOptions options;
  options.path = dir.file("state/ledger.db");
  options.edition_dirs = {std::string(SOURCE_DIR) + "/editions"};
  auto stored = ledger::Ledger::open(options);
  EXPECT_TRUE(stored.has_value()) << stored.error().message;
  return std::move(*stored);
}

}  // namespace bb::daemon::service_test
