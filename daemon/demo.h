#pragma once
// `boardbank demo` as a library: the service set up with the virtual table (simulated devices, the rendered
// camera) and the bots as its participant, so the command, its tests and its benchmark run the same demo.

#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/demo_bots.h"
#include "daemon/service.h"
#include "daemon/virtual_table.h"

namespace bb::daemon {

struct DemoOptions {
  bool headless = false;
  double speed = 1;
  std::uint64_t seed = 1;
  std::string db;  // empty: default_demo_db()
  int players = 4;
  int turns = 0;  // > 0: a time-limit game ended after this many turns
  std::string size = "1024x600";
  std::string editions;
  std::string fonts;
  std::string state_json;  // where to write the final state (tests compare it with a replay of the ledger)
  bool no_slips = false;
  // The tokens start beside the board: the camera does not find them on GO, and the family learns them one
  // at a time as the table asks ("Ann: put the car on the board").
  bool one_at_a_time = false;
  std::string screenshots;  // a folder: the screen at the key moments of the evening, as PNGs
  // Print the service's line per stored input ("input N: ..."), which the headless demo otherwise hides: the
  // crash test reads from it what the killed process had committed.
  bool log_inputs = false;
  // A machine this many times slower than a Pi (an emulator, a starved build machine): the virtual camera
  // renders every picture itself, so the service waits this many times kCameraSilence for one before it calls
  // the camera gone. 1 everywhere else.
  int time_factor = 1;
};

// Why the options cannot be used (with what to give instead), or nullopt.
std::optional<std::string> demo_options_problem(const DemoOptions& options);
// $XDG_STATE_HOME/boardbank/demo.db (or ~/.local/state/...): never a real table's ledger.
std::string default_demo_db();
// A demo must never play on a real family's unfinished game: the newest unfinished game in the file must be
// one of the demo's (its players hold the demo's cards), or there must be none. nullopt: the file will do.
std::optional<std::string> not_a_demo_ledger(const std::string& path,
                                             const std::vector<std::string>& editions);

// What make_demo() built: the service's setup and the virtual table it drives. The bots are owned by
// setup.participants (then by the service); `bots` stays valid as long as that owner lives.
struct Demo {
  ServiceSetup setup;
  std::shared_ptr<VirtualDevices> devices;
  std::shared_ptr<VirtualCamera> camera;
  DemoBots* bots = nullptr;
  std::string db;
  std::vector<std::string> editions;
};
// Checks the options and the ledger file, opens the virtual devices and builds the camera and the bots.
std::expected<Demo, std::string> make_demo(const DemoOptions& options);

// Plays the demo: the summary (standings, ledger) is printed at the end. Returns the process exit code.
int run_demo(const DemoOptions& options);

// The standings of the newest game in the ledger file and what the ledger holds, read back from the file.
void print_demo_summary(const std::string& path, const std::vector<std::string>& editions);

}  // namespace bb::daemon
