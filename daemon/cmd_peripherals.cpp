#include <CLI/CLI.hpp>

#include "daemon/commands.h"

namespace bb::daemon {
// The peripherals verbs are registered here once that module exists.
void add_peripheral_commands(CLI::App& /*app*/) {}
}  // namespace bb::daemon
