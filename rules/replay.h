#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/game.h"

namespace bb::rules {

// Pure functions of their arguments (they read edition files, nothing else): any thread.
// Runs a game script (spec/game-script.md) through the engine, as `boardbank replay` and the tests do.
struct ReplayResult {
  std::optional<Game> game;         // the game as it stands after the last accepted input
  std::vector<std::string> errors;  // "script.jsonl:12: ..." for each refused line
  int inputs_applied = 0;
  bool ok() const { return game.has_value() && errors.empty(); }
};

std::expected<Game, std::string> start_game(const Setup& setup, const std::vector<std::string>& edition_dirs);

// Stops at the first refused line unless keep_going, in which case refused lines are reported and skipped.
ReplayResult replay_script(std::string_view script, const std::string& file_name,
                           const std::vector<std::string>& edition_dirs, bool keep_going);

}  // namespace bb::rules
