#pragma once
// Positions for the odds tests: a fresh classic game and positions set with the engine's own Adopt input.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "rules/edition.h"
#include "rules/game.h"

namespace bb::odds::testing {

inline std::shared_ptr<const rules::Edition> classic() {
  static auto edition = [] {
    auto loaded = rules::load_edition("classic", {EDITIONS_DIR});
    EXPECT_TRUE(loaded) << (loaded ? "" : loaded.error().what());
    return std::make_shared<const rules::Edition>(loaded ? std::move(*loaded) : rules::Edition{});
  }();
  return edition;
}

// A fresh classic game of `players` named Ann, Bob, Cleo and on; `rotation` seats them that many places on
// (the first to throw is then the one named `rotation`).
inline rules::Game start(int players, std::uint64_t seed = 7, int rotation = 0) {
  static const char* kNames[] = {"Ann", "Bob", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana"};
  rules::Setup setup;
  setup.edition = "classic";
  setup.seed = seed;
  for (int seat = 0; seat < players; ++seat)
    setup.players.push_back({kNames[(seat + rotation) % players], "", "", {}, -1});
  auto game = rules::Game::start(classic(), setup);
  EXPECT_TRUE(game) << (game ? "" : game.error());
  return std::move(*game);
}

inline void apply(rules::Game& game, const rules::Input& input) {
  auto applied = game.apply(input);
  ASSERT_TRUE(applied) << applied.error();
  ASSERT_TRUE(game.is_consistent()) << game.invariant_violations().front();
}

// A player's cash and lots (unbuilt, unmortgaged), set with the engine's Adopt input.
inline rules::Adopt holding(rules::PlayerId player, rules::Money cash,
                            const std::vector<rules::SpaceId>& lots = {}) {
  rules::Adopt adopt;
  adopt.player = player;
  adopt.cash = cash;
  for (rules::SpaceId lot : lots) {
    rules::AdoptSpace space;
    space.space = lot;
    adopt.spaces.push_back(space);
  }
  return adopt;
}

// The spaces of a colour group ("orange") in the classic edition.
inline std::vector<rules::SpaceId> group(const std::string& id) { return classic()->group_members(id); }

}  // namespace bb::odds::testing
