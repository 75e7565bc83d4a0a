#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "rules/game.h"
#include "rules/input.h"
#include "rules/money.h"

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
  // The least any lot of the edition costs to build on or to lift from its mortgage: below both, the bot
  // need not look at its lots between moves. Worked out once per edition the bot plays.
  struct Thresholds {
    Money house_cost = kMaxMoney;
    Money mortgage = kMaxMoney;
    // The groups of lots that can have buildings, each as a set, in the edition's order: the lots a player
    // might build on are the members of the groups they own whole.
    std::vector<const SpaceSet*> property_groups;
    SpaceSet properties;  // every lot that can have buildings
  };
  const Thresholds& thresholds(const Edition& edition);
  // The lots the player might build on by the cheap tests alone: lots that can have buildings, in groups the
  // player owns whole where the edition asks for that. Empty when the bank and the player's credits have no
  // house and no hotel left to build with, since the rules then refuse every build.
  SpaceSet build_candidates(const Game& game, PlayerId player, const Thresholds& least);
  Input between_moves_without_lots(const Game& game, PlayerId player);
  std::optional<Input> finance_1932(const Game& game, PlayerId player);
  int dice();
  std::uint64_t random();
  std::uint64_t rng_;
  const Edition* thresholds_for_ = nullptr;  // the edition thresholds_ was worked out for
  Thresholds thresholds_;
  // By seat: the lots of the groups a player owns whole, worked out for the lots they owned then. A player's
  // lots change far less often than the bot decides, and each answer is a walk of the edition's groups.
  // Cleared with the thresholds when the edition changes.
  struct WholeGroups {
    SpaceSet lots;
    SpaceSet whole;
  };
  std::vector<WholeGroups> whole_groups_;
};

}  // namespace bb::rules
