#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "daemon/commands.h"

namespace {

// CLI11 answers a word that names no verb with "A subcommand is required". Say which word, and what the
// verbs are. Called only after a parse failed, from CLI11's state of that parse.
bool explain_unknown_verb(CLI::App& app) {
  CLI::App* deepest = &app;
  std::string path = "boardbank";
  for (auto parsed = deepest->get_subcommands(); !parsed.empty(); parsed = deepest->get_subcommands()) {
    deepest = parsed.front();
    path += " " + deepest->get_name();
  }
  if (deepest->get_require_subcommand_min() == 0) return false;
  std::vector<std::string> rest = deepest->remaining();
  std::vector<std::string> verbs;
  for (const CLI::App* sub : deepest->get_subcommands({})) verbs.push_back(sub->get_name());
  if (rest.empty()) {
    std::cerr << fmt::format("{}: say which verb: {}. ('{} --help' says what each does.)\n", path,
                             fmt::join(verbs, ", "), path);
    return true;
  }
  if (rest.front().starts_with("-")) return false;
  std::string word = rest.front().substr(0, 60);
  std::cerr << fmt::format("{}: '{}' is not a verb. The verbs are: {}. ('{} --help' says what each does.)\n",
                           path, word, fmt::join(verbs, ", "), path);
  return true;
}

}  // namespace

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
  bb::daemon::add_odds_commands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::RequiredError& e) {
    if (explain_unknown_verb(app)) return e.get_exit_code();
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return 0;
}
