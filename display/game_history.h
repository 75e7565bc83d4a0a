#pragma once
#include <vector>

#include "rules/game.h"

namespace bb::display {

// What the charts need that the state does not keep: worth over time and where tokens landed. The caller
// records every accepted input.
class GameHistory {
 public:
  void start(const rules::Game& game);
  void record(const rules::Game& game, const rules::Outcome& outcome);

  // worth()[i][p]: worth of player p after the i-th recorded input (entry 0 is the start).
  const std::vector<std::vector<rules::Money>>& worth() const { return worth_; }
  // landings()[space]: how often any token ended a move there.
  const std::vector<int>& landings() const { return landings_; }
  std::vector<std::string> invariant_violations() const;

 private:
  void sample(const rules::Game& game);
  std::vector<std::vector<rules::Money>> worth_;
  std::vector<int> landings_;
};

}  // namespace bb::display
