#pragma once
#include <string>

namespace bb::daemon {
// `boardbank replay SCRIPT --db FILE`: plays a game script into a ledger database exactly as the daemon
// records a game (one transaction per input; ids are line numbers unless a line carries "id"), skipping
// inputs already stored, then prints the same state dump as the plain replay. Returns the process exit code.
int replay_into_ledger(const std::string& script_path, const std::string& db_path, bool json,
                       bool keep_going);
}  // namespace bb::daemon
