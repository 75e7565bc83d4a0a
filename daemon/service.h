#pragma once
#include <chrono>
#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "daemon/config.h"
#include "daemon/participant.h"
#include "peripherals/device_factory.h"

namespace bb::vision {
class FrameSource;
}

namespace bb::daemon {

// A camera that stops handing over pictures without saying so (a hung driver, a cable pulled mid-frame) is
// reported gone once no frame came for kCameraSilence; the loop looks every kCameraCheckEvery, so the table
// offers manual entry at most kCameraSilence + kCameraCheckEvery (2 s) after the last picture, and says the
// camera is back with the first new one.
inline constexpr std::chrono::milliseconds kCameraSilence{1500};
inline constexpr std::chrono::milliseconds kCameraCheckEvery{250};

// What `boardbank run` (or the demo) gives the service. Everything has a default from the configuration;
// a caller that is not the real table (the demo, a test) overrides only what it brings.
struct ServiceSetup {
  Config config;
  // The devices to open. Empty: config.device_configs(). The demo passes simulated backends here (their
  // `input_fd` is where it types its commands).
  std::vector<peripherals::DeviceConfig> devices;
  bool devices_from_config = true;  // false: open exactly `devices` (possibly none)
  // Makes the camera's frame source, on the camera thread. Unset: config.camera.source (none when empty).
  std::function<std::expected<std::unique_ptr<vision::FrameSource>, std::string>()> frame_source;
  // Woken on the loop thread (see participant.h). The service owns them for the run.
  std::vector<std::unique_ptr<Participant>> participants;
  // A registered SQLite VFS for the ledger (the tests' fault-injecting one); empty: the default.
  std::string ledger_vfs;
  // Makes the ledger's commits durable, on the ledger syncer's thread (see daemon/ledger_syncer.h). Unset:
  // ledger::WalSync over the configured database. Tests hold it back or fail it to see the screen wait.
  std::function<std::expected<void, std::string>()> ledger_sync;
  // The seed of a game started on the setup screen (the demo's --seed, so its game is the same every time);
  // 0: a fresh random one for each game.
  std::uint64_t new_game_seed = 0;
  bool headless = false;  // draw offscreen; print one line per committed input and the end to stdout
  // How long no picture may come before the camera is reported gone (see kCameraSilence). Only the demo on a
  // machine many times slower than a Pi (its virtual camera renders each picture; under an emulator that
  // takes longer than kCameraSilence) stretches it: `boardbank demo --time-factor`.
  std::chrono::milliseconds camera_silence = kCameraSilence;
  // Where the service reports what it does (headless lines, device problems). Defaults to stdout.
  std::function<void(const std::string& line)> log;
};

// The table's service: the loop, the devices, the camera thread, the screen, the ledger and the table,
// wired together. Owns all of them for its lifetime.
// Must never: refuse to start because a configured device is missing (it reports it and the table falls
// back), block the loop longer than a frame, or show an input as done before the ledger stored it.
// Thread: create() and run() on one thread (the loop thread); it starts the camera thread and the ledger
// syncer's thread itself.
class Service {
 public:
  // Opens the ledger (creating its database and folders), resumes the newest unfinished game, opens the
  // devices and the screen. The error says what to fix (an unreadable database, no editions, ...). A start
  // refused for its configuration or environment alone (a BOARDBANK_EDITIONS that is no folder) is refused
  // before any folder is created or the database's lock is taken.
  static std::expected<std::unique_ptr<Service>, std::string> create(ServiceSetup setup);
  ~Service();
  Service(const Service&) = delete;
  Service& operator=(const Service&) = delete;

  // Runs until SIGTERM/SIGINT, a participant's stop() or the screen's quit; returns the exit code.
  int run();

  struct Impl;

 private:
  explicit Service(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace bb::daemon
