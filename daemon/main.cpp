#include <CLI/CLI.hpp>
#include <string>

#include "daemon/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"boardbank: the bank at a family's board-game table"};
  // The version of the CMake project this binary was built from (what the .deb is named after).
  app.set_version_flag("--version", std::string{"boardbank "} + BOARDBANK_VERSION);
  app.require_subcommand(1);
  bb::daemon::add_rules_commands(app);
  bb::daemon::add_ledger_commands(app);
  bb::daemon::add_peripheral_commands(app);
  bb::daemon::add_vision_commands(app);
  bb::daemon::add_display_commands(app);
  bb::daemon::add_service_commands(app);
  bb::daemon::add_demo_commands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return 0;
}
