#pragma once
#include <cstdint>
#include <optional>

#include "rules/game.h"
#include "rules/input.h"

namespace bb::rules {

// A table of simple players for `simulate`, benchmarks and property tests: it always sends an input the game
// accepts, decided by plain rules of thumb and its own seeded random source (never the engine's).
// It asks the game yes-or-no questions (Game::refusal_to_*) and never has a refusal worded. Threads: a Bot
// belongs to the one thread that plays its game; several bots on several threads share nothing.
class Bot {
 public:
  explicit Bot(std::uint64_t seed) : rng_(seed * 0x9e3779b97f4a7c15ULL + 1) {}
  Input next(const Game& game);

 private:
  std::optional<Input> finance_1932(const Game& game, int player);
  int dice();
  std::uint64_t random();
  std::uint64_t rng_;
};

}  // namespace bb::rules
