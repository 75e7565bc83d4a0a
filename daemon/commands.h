#pragma once
// Each module's command-line verbs are registered by one function in daemon/, so that every
// module's wiring stays in the composition root and each verb family lives in its own file.
namespace CLI {
class App;
}

namespace bb::daemon {
void add_rules_commands(CLI::App& app);       // replay, simulate, check-edition (cmd_rules.cpp)
void add_ledger_commands(CLI::App& app);      // ledger ...                 (cmd_ledger.cpp)
void add_peripheral_commands(CLI::App& app);  // probe, record-gpio         (cmd_peripherals.cpp)
void add_vision_commands(CLI::App& app);      // track, render-table, markers (cmd_vision.cpp)
void add_display_commands(CLI::App& app);     // screens                    (cmd_display.cpp)
void add_service_commands(CLI::App& app);     // check-config, hash-pin, run (cmd_service.cpp)
void add_run_command(CLI::App& app);          // run, added by add_service_commands (cmd_service.cpp)
void add_demo_commands(CLI::App& app);        // demo                       (cmd_demo.cpp)
void add_odds_commands(CLI::App& app);        // odds                       (cmd_odds.cpp)
}  // namespace bb::daemon
