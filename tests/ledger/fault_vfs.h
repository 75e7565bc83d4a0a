#pragma once
#include <cstdint>

namespace bb::ledger::testing {

// A SQLite VFS named "fault" that wraps the default one and counts every xWrite and xSync. On the Nth it can
// kill the process (SIGKILL, optionally after writing half the buffer, as a torn write at a power cut), or
// start failing with an I/O error or "disk full". It can also skip syncs, for tests that check logic, not
// durability.
class FaultVfs {
 public:
  // signal: on the Nth, send the process arm_signal()'s signal and go on with the write (a SIGTERM that
  // arrives in the middle of a commit).
  enum class Mode { count, kill, fail, fail_once, signal };
  static constexpr const char* kName = "fault";

  // Registers the VFS (once); `make_default` makes every connection of the process use it, backups included.
  static void install(bool make_default = false);
  static void arm(Mode mode, std::int64_t at = 0, bool torn = false);
  static void arm_signal(int signo, std::int64_t at);  // Mode::signal at the `at`th write or sync
  static void fail_with_disk_full(bool full);          // fail mode: SQLITE_FULL instead of SQLITE_IOERR_WRITE
  static void disarm();                                // back to counting; "the space is back"
  static void skip_syncs(bool skip);
  static std::int64_t writes();  // xWrite + xSync calls since the last arm()
  static bool failing();
};

}  // namespace bb::ledger::testing
