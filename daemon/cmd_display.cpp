#include <CLI/CLI.hpp>

#include "daemon/commands.h"

namespace bb::daemon {
// The display verbs are registered here once that module exists.
void add_display_commands(CLI::App& /*app*/) {}
}  // namespace bb::daemon
