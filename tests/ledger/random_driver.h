#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "rules/game.h"

namespace bb::ledger::testing {

// A simple random-but-legal player for every seat: rolls seeded dice, answers questions (mostly with their
// first option), draws from the engine's decks, builds and mortgages now and then, raises money or goes
// bankrupt when in debt. It proposes; the engine decides: a refused proposal is followed by another (attempt
// + 1).
class RandomDriver {
 public:
  explicit RandomDriver(std::uint64_t seed, bool allow_undo = false) : rng_(seed), allow_undo_(allow_undo) {}

  rules::Input propose(const rules::Game& game, int attempt);

  // Plays a whole game (at most `max_inputs`, then `end`) and returns it as a game script: the setup line,
  // then one line per accepted input. The game must start; a driver that gets stuck ends the game.
  static std::string script(const std::string& editions_dir, std::uint64_t seed, int players, int max_inputs,
                            bool allow_undo = false);
  static rules::Setup setup(std::uint64_t seed, int players);

 private:
  int die() { return static_cast<int>(rng_() % 6) + 1; }
  bool chance(int percent) { return static_cast<int>(rng_() % 100) < percent; }
  std::mt19937_64 rng_;
  bool allow_undo_;
};

}  // namespace bb::ledger::testing
