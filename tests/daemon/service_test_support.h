// What the service tests share: a temporary folder per test and the configuration of a service on it (real
// ledger file, screen offscreen and silent, the shipped editions). Test code only; gtest's thread.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "daemon/config.h"
#include "daemon/participant.h"
#include "daemon/service.h"
#include "display/intent.h"
#include "table/table.h"
#include "tests/support/test_environment.h"

namespace bb::daemon::service_test {

// A limit counted in wakes of a participant (a wake every 5 ms) is there to end a test that failed rather
// than hang: under the emulator the same wakes come while the service does a twentieth of the work, so limits
// and the camera's silence grow with the factor (tests/support/test_environment.h); what a test checks stays
// the same.
using bb::test_support::test_time_factor;

// `native` wakes (or any count of a fixed period) as a give-up limit for this build: times the factor above.
inline int wake_limit(int native) { return native * test_time_factor(); }

// Whether any of the service's log lines contains `part`.
inline bool said(const std::vector<std::string>& lines, const std::string& part) {
  for (const auto& line : lines)
    if (line.find(part) != std::string::npos) return true;
  return false;
}

// A folder of its own for each test (named after the process and the test), removed at the end.
class TempFolder {
 public:
  explicit TempFolder(const std::string& prefix = "bb-service-") {
    path_ = std::filesystem::temp_directory_path() /
            (prefix + std::to_string(getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempFolder() { std::filesystem::remove_all(path_); }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// A service's configuration with its ledger and backups in `dir`, offscreen, no sound.
inline Config test_config(const TempFolder& dir) {
  Config config;
  config.screen.window = false;
  config.screen.sound = false;
  config.ledger.path = dir.file("state/ledger.db");
  config.ledger.backup_dir = dir.file("state/backups");
  config.editions_dir = std::string(SOURCE_DIR) + "/editions";
  return config;
}

// A headless service with test_config(dir), its log lines gathered in `lines`, and one device: the simulated
// dice unit reading its throws from the pipe end `dice_read_end` (the configuration's devices left out). The
// caller adds what its test needs (the ledger's fault VFS, a sync gate).
inline ServiceSetup dice_service_setup(const TempFolder& dir, int dice_read_end,
                                       std::vector<std::string>& lines) {
  ServiceSetup setup;
  setup.config = test_config(dir);
  setup.headless = true;
  setup.log = [&lines](const std::string& line) { lines.push_back(line); };
  peripherals::DeviceConfig dice;
  dice.kind = "dice";
  dice.backend = "simulated";
  dice.input_fd = dice_read_end;
  setup.devices = {dice};
  setup.devices_from_config = false;
  return setup;
}

// The family at the setup screen starts a classic game of Ann (the car) and Bob (the dog), seed 3, in the
// first two colours, once. True on the wake that started it: that wake has done its act.
inline bool start_two_player_game(ParticipantContext& c, bool& started) {
  if (started || c.table().view().awaiting.kind != table::Awaiting::Kind::setup) return false;
  rules::Setup s;
  s.edition = "classic";
  s.seed = 3;
  s.players = {{"Ann", "car", "", {}}, {"Bob", "dog", "", {}}};
  c.touch(display::StartGame{s, {0, 1}});
  started = true;
  return true;
}

}  // namespace bb::daemon::service_test
