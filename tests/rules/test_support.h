#pragma once
// Helpers shared by the rules tests: a game driven line by line with the invariants checked after every
// input.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "rules/bot.h"
#include "rules/game.h"
#include "rules/replay.h"
#include "rules/script.h"
#include "rules/splitmix.h"

namespace bb::rules::testing {

inline std::vector<std::string> editions() { return {EDITIONS_DIR}; }

// The throws of a bot game played with dice of its own (as the odds' playouts throw); two with the same seed
// throw the same.
class StreamDice final : public BotDice {
 public:
  explicit StreamDice(std::uint64_t seed) : state_(seed) {}
  int die() override { return static_cast<int>(splitmix64(state_) % 6) + 1; }

 private:
  std::uint64_t state_;
};

// A shipped edition by id (a test failure, and an empty edition, if it does not load).
inline Edition load_shipped(const std::string& id) {
  auto ed = load_edition(id, editions());
  EXPECT_TRUE(ed) << (ed ? "" : ed.error().what());
  return ed ? *ed : Edition{};
}

// One bot game played to its end as `simulate` plays it (End after 1,000 turns, once nothing is pending),
// every invariant checked after every input when `check_each_input`; `on_outcome` sees each accepted input's
// outcome. Returns the game at its end, or nullopt after reporting why (the start or a bot input refused, an
// invariant broken).
template <class OnOutcome>
std::optional<Game> play_bot_game(const std::shared_ptr<const Edition>& edition, const Setup& setup,
                                  OnOutcome&& on_outcome, bool check_each_input = true) {
  auto game = Game::start(edition, setup);
  EXPECT_TRUE(game) << (game ? "" : game.error());
  if (!game) return std::nullopt;
  Bot bot(setup.seed);
  int guard = 0;
  while (!game->state().ended && ++guard < 200000) {
    Input in = game->state().turns >= 1000 && game->state().pending.empty() && !game->state().auction
                   ? Input{End{}}
                   : bot.next(*game);
    auto ok = game->apply(in);
    if (!ok) {
      ADD_FAILURE() << "game seed " << setup.seed << ": bot input refused: " << ok.error();
      return std::nullopt;
    }
    on_outcome(*ok);
    if (check_each_input) {
      auto bad = game->invariant_violations();
      if (!bad.empty()) {
        ADD_FAILURE() << "game seed " << setup.seed << " input " << game->inputs().size() << ": "
                      << bad.front();
        return std::nullopt;
      }
    }
  }
  EXPECT_TRUE(game->state().ended) << "seed " << setup.seed;
  return std::move(*game);
}

class ScriptedGame {
 public:
  explicit ScriptedGame(const std::string& setup_line) {
    auto setup = parse_setup(setup_line);
    EXPECT_TRUE(setup) << setup.error();
    auto game = start_game(*setup, editions());
    EXPECT_TRUE(game) << game.error();
    game_.emplace(std::move(*game));
    for (const auto& p : setup->players) names_.push_back(p.name);
  }
  // Applies one input line; returns the refusal message, or "" when accepted.
  std::string send(const std::string& line) {
    auto input = parse_input(line, names_, game_->edition());
    if (!input) return input.error();
    auto before = state_to_json(*game_);
    auto out = game_->apply(*input);
    auto bad = game_->invariant_violations();
    EXPECT_TRUE(bad.empty()) << "after " << line << ": " << (bad.empty() ? "" : bad.front());
    if (!out) {
      EXPECT_EQ(before, state_to_json(*game_)) << "a refused input changed the state: " << line;
      return out.error();
    }
    return "";
  }
  void ok(const std::string& line) { ASSERT_EQ(send(line), "") << line; }
  nlohmann::json dump() const { return nlohmann::json::parse(state_to_json(*game_)); }
  nlohmann::json player(const std::string& name) const {
    auto state = dump();
    for (const auto& p : state["players"])
      if (p["name"] == name) return p;
    return {};
  }
  long long cash(const std::string& name) const { return player(name)["cash"].get<long long>(); }
  int position(const std::string& name) const { return player(name)["position"].get<int>(); }
  nlohmann::json space(int index) const {
    auto state = dump();
    for (const auto& s : state["spaces"])
      if (s["index"] == index) return s;
    return {};
  }
  nlohmann::json pending() const { return dump()["pending"]; }
  Game& game() { return *game_; }

 private:
  std::optional<Game> game_;
  std::vector<std::string> names_;
};

// A bot game's setup: `players` players (P0, P1, ...) at `edition`, seeded with `seed`.
inline Setup bot_setup(const std::string& edition, std::uint64_t seed, int players) {
  Setup setup;
  setup.edition = edition;
  setup.seed = seed;
  for (int p = 0; p < players; ++p) setup.players.push_back({"P" + std::to_string(p), "", "", {}});
  return setup;
}

// How many of `games` bot games a differential test (fast paths, fused play) compares: all of them in the
// normal build; under the sanitizers a third (at least 4), since each is compared after every input, several
// times slower there, and the sanitizers look for memory faults on the paths a few games already take. Each
// test's coverage checks hold for either count.
inline int games_to_compare(int games) {
#if defined(__SANITIZE_ADDRESS__)
  constexpr int kShareOfGames = 3;
#else
  constexpr int kShareOfGames = 1;
#endif
  return std::max(std::min(games, 4), games / kShareOfGames);
}

inline const char* kTwoPlayers =
    R"({"setup": {"edition": "classic", "players": [{"name": "Ann"}, {"name": "Bob"}], "seed": 7}})";
inline const char* kThreePlayers =
    R"({"setup": {"edition": "classic", "players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cleo"}], "seed": 7}})";

}  // namespace bb::rules::testing
