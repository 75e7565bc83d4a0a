// The child process of the crash tests: plays a game script into a ledger through the fault VFS, reporting
// each acknowledged input on stdout as it is stored, and can be made to SIGKILL itself at its Nth write.
//
//   ledger_crash_player SCRIPT DB [--kill-at N] [--torn] [--phase play|checkpoint|backup] [--backup-dir DIR]
//                       [--snapshot-every N]
//
// Output lines: "ACK <line> <id>" once an input is durably stored (or found stored), then "WRITES <n>" and
// "STATE <state json>" when it ran to the end. Writes go straight to the file descriptor, so that what was
// printed before a kill is exactly what was acknowledged.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "fault_vfs.h"
#include "ledger/ledger.h"
#include "ledger/script_replay.h"
#include "rules/script.h"

namespace {

void say(const std::string& line) {
  std::string text = line + "\n";
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    ssize_t n = ::write(1, p, left);
    if (n <= 0) std::_Exit(3);
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

[[noreturn]] void die(const std::string& message) {
  std::string text = "crash_player: " + message + "\n";
  (void)!::write(2, text.data(), text.size());
  std::_Exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  using bb::ledger::testing::FaultVfs;
  if (argc < 3)
    die("usage: ledger_crash_player SCRIPT DB [--kill-at N] [--torn] [--phase P] [--backup-dir D]");
  std::string script = argv[1];
  std::string db = argv[2];
  std::int64_t kill_at = 0;
  bool torn = false;
  std::string phase = "play";
  std::string backup_dir;
  int snapshot_every = 0;
  for (int i = 3; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--kill-at" && i + 1 < argc)
      kill_at = std::atoll(argv[++i]);
    else if (arg == "--torn")
      torn = true;
    else if (arg == "--phase" && i + 1 < argc)
      phase = argv[++i];
    else if (arg == "--backup-dir" && i + 1 < argc)
      backup_dir = argv[++i];
    else if (arg == "--snapshot-every" && i + 1 < argc)
      snapshot_every = std::atoi(argv[++i]);
    else
      die("unknown argument " + arg);
  }
  // Every connection of this process, the backup's destination included, goes through the fault VFS. A
  // SIGKILL leaves the kernel's page cache intact, so skipping fsync changes nothing about what survives it;
  // the syncs are still counted as kill points.
  FaultVfs::install(true);
  FaultVfs::skip_syncs(true);
  auto arm = [&] {
    FaultVfs::arm(kill_at > 0 ? FaultVfs::Mode::kill : FaultVfs::Mode::count, kill_at, torn);
  };
  if (phase == "play") arm();

  std::int64_t writes = 0;
  std::string state;
  {
    bb::ledger::LedgerOptions options;
    options.path = db;
    options.edition_dirs = {EDITIONS_DIR};
    options.backup_dir = backup_dir;
    options.snapshot_every_inputs = snapshot_every;
    auto ledger = bb::ledger::Ledger::open(options);
    if (!ledger) die(ledger.error().message);
    auto result = bb::ledger::ScriptReplay::run(
        *ledger, script, true, [](int line, const std::string& id, const bb::ledger::Recorded&) {
          say("ACK " + std::to_string(line) + " " + id);
        });
    if (!result) die(result.error());
    if (phase == "checkpoint") {
      arm();
      if (auto done = ledger->checkpoint(); !done) die(done.error().message);
    } else if (phase == "backup") {
      arm();
      if (auto made = ledger->backup_now(); !made) die(made.error().message);
    }
    state = bb::rules::state_to_json(*ledger->game(result->game));
  }  // closing the last connection checkpoints the WAL: those writes count too
  writes = FaultVfs::writes();
  say("WRITES " + std::to_string(writes));
  say("STATE " + state);
  return 0;
}
