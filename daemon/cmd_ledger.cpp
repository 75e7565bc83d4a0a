#include <CLI/CLI.hpp>

#include "daemon/commands.h"

namespace bb::daemon {
// The ledger verbs are registered here once that module exists.
void add_ledger_commands(CLI::App& /*app*/) {}
}  // namespace bb::daemon
