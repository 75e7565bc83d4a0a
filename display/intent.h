#pragma once
#include <string>
#include <variant>
#include <vector>

#include "rules/input.h"

namespace bb::display {

// What a touch asks for. The display decides nothing about the game: the caller applies these through the
// rules and shows the result.
struct ApplyInput {
  rules::Input input;
  std::string reason;     // for corrections (undo): why, as the banker gave it; stored in the ledger
  int confirmed_by = -1;  // the player whose card tap confirmed it, -1 when confirmed on the screen
};
struct StartGame {
  rules::Setup setup;  // the caller fills the seed
  std::vector<int> colours;
};
struct ResumeGame {};
struct SetSound {
  bool on = true;
};
struct Recalibrate {};

using Intent = std::variant<ApplyInput, StartGame, ResumeGame, SetSound, Recalibrate>;

// Short sounds the screen asks for; the caller plays them (or not, by the setting).
enum class Cue { tap, payment, refused };

}  // namespace bb::display
