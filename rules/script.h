#pragma once
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/edition.h"
#include "rules/input.h"
#include "rules/state.h"

namespace bb::rules {

class Game;

// Pure functions: they read and write strings, never a file or a clock; any thread (a Game passed in is only
// read, so the caller keeps it still while it is dumped).
// The game-script format of spec/game-script.md: JSON Lines, a setup line then one input per line.
std::expected<Setup, std::string> parse_setup(std::string_view json_line);
// Player fields name players of `names`; spaces are given by index (or by name, an extension).
std::expected<Input, std::string> parse_input(std::string_view json_line,
                                              const std::vector<std::string>& names, const Edition& edition);
// The optional "id" field of an input line (a source-made idempotency id), if any.
std::optional<std::string> input_line_id(std::string_view json_line);

std::string setup_to_json(const Setup& setup);
// `edition` spells what the input names by index: a draw's deck, a draft's set, the group of a free ride.
std::string input_to_json(const Input& input, const std::vector<std::string>& names, const Edition& edition);
// The state dump of `boardbank replay --json`: one JSON object, keys as the spec fixes them.
std::string state_to_json(const Game& game, int indent = -1);
// A short human summary: standings and the ledger total.
std::string state_summary(const Game& game);

}  // namespace bb::rules
