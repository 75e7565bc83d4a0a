#include <CLI/CLI.hpp>

#include "daemon/commands.h"

namespace bb::daemon {
// The vision verbs are registered here once that module exists.
void add_vision_commands(CLI::App& /*app*/) {}
}  // namespace bb::daemon
