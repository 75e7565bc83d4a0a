#include <CLI/CLI.hpp>

#include "daemon/commands.h"

namespace bb::daemon {
void add_rules_commands(CLI::App& /*app*/) {}
}  // namespace bb::daemon
