// The fused path of the playouts (Bot::play: the bot's decision handed to the engine without an Input, on top
// of the engine's fast throw) against the general path (Bot::next, an Input, Game::apply with the fast paths
// off): the same bot games, played both ways, are the same game after every fused call (the signature and
// the whole snapshot; a call that plays a throw and the questions it asks is matched by as many inputs of the
// general path), in every shipped edition, with 2 to 6 players, with the bots' own dice and with the
// throws of a stream of their own (as the odds' playouts throw). The games are checked to reach the fused
// decisions (throws, houses) and what they hand back (questions, auctions, debts, bankruptcy, trades).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <variant>

#include "rules/bot.h"
#include "rules/game.h"
#include "rules/splitmix.h"
#include "test_support.h"

namespace bb::rules {
namespace {

using testing::StreamDice;

struct DecisionsCompared {
  long long decisions = 0;
  long long turns = 0;
  long long whole_throws =
      0;  // fused calls that played a throw and the questions it asked (two inputs or more)
  std::map<std::size_t, long long> inputs;  // by the index of the general path's input in the Input variant
};

enum class Mode {
  journal,  // the game keeps its journal and history (an undo now and then); the bots' own dice
  playout,  // as a playout plays: no journal, no history; the dice from a stream of their own
};

// Plays one bot game twice from the same start: by Bot::play (fast paths on) and by Bot::next and
// Game::apply (fast paths off), two bots of the same seed deciding each on its own game; stops at the first
// decision after which the games differ.
void compare_game(const std::shared_ptr<const Edition>& edition, const Setup& setup, Mode mode,
                  DecisionsCompared& out) {
  auto fused = Game::start(edition, setup);
  ASSERT_TRUE(fused) << fused.error();
  if (mode == Mode::playout) fused->forget_journal();
  Game general = *fused;
  general.use_fast_paths(false);
  Bot fused_bot(setup.seed), general_bot(setup.seed);
  StreamDice fused_dice(setup.seed * 7 + 3), general_dice(setup.seed * 7 + 3);
  BotDice* dice = mode == Mode::playout ? &fused_dice : nullptr;
  const std::string where = setup.edition + " seed " + std::to_string(setup.seed) + " players " +
                            std::to_string(setup.players.size()) +
                            (mode == Mode::playout ? " (playout)" : " (journal)");
  for (int guard = 0; !fused->state().ended && guard < 200000; ++guard) {
    const auto& st = general.state();
    const bool cap = st.turns >= 400 && st.pending.empty() && !st.auction;
    if (mode == Mode::journal && guard % 211 == 210) {
      // An undo replays each game the way it was played; the fused path's inputs were kept as inputs.
      ASSERT_TRUE(fused->apply(Undo{}));
      ASSERT_TRUE(general.apply(Undo{}));
    } else if (cap) {
      ASSERT_TRUE(fused->play(End{}));
      ASSERT_TRUE(general.play(End{}));
    } else {
      const std::size_t before = fused->input_count();
      auto by_fused = fused_bot.play(*fused, dice);
      ASSERT_TRUE(by_fused) << where << ": " << by_fused.error();
      out.whole_throws += fused->input_count() > before + 1 ? 1 : 0;
      // One fused call may play several inputs (a throw, then the buy question or the card it asked for):
      // the general path plays its decisions one by one until it has taken as many.
      do {
        Input in = general_bot.next(general);
        if (auto* roll = std::get_if<Roll>(&in); roll && dice) {
          roll->d1 = general_dice.die();
          roll->d2 = general_dice.die();
        }
        ++out.inputs[in.index()];
        auto by_general = general.apply(in);
        ASSERT_TRUE(by_general) << where << ": " << by_general.error();
      } while (general.input_count() < fused->input_count());
    }
    ++out.decisions;
    ASSERT_EQ(fused->input_count(), general.input_count()) << where;
    ASSERT_EQ(fused->signature(), general.signature()) << where << " input " << general.input_count();
    // The snapshot holds what the signature may not: the steps still queued, the decks' order, the dice.
    ASSERT_EQ(fused->snapshot(), general.snapshot()) << where << " input " << general.input_count();
  }
  EXPECT_TRUE(fused->state().ended) << where;
  if (mode == Mode::journal) {
    EXPECT_EQ(fused->invariant_violations(), std::vector<std::string>{}) << where;
  }
  out.turns += fused->state().turns;
}

template <typename T>
constexpr std::size_t index_of = Input(T{}).index();

DecisionsCompared compare_decisions(const std::string& id, int games, std::uint64_t first_seed,
                                    const std::map<std::string, bool>& options = {}) {
  auto edition = std::make_shared<const Edition>(testing::load_shipped(id));
  DecisionsCompared out;
  const int played = testing::games_to_compare(games);
  for (int gi = 0; gi < played; ++gi) {
    Setup setup = testing::bot_setup(id, first_seed + static_cast<std::uint64_t>(gi), 2 + gi % 5);
    setup.options = options;
    compare_game(edition, setup, gi % 2 == 0 ? Mode::playout : Mode::journal, out);
    if (::testing::Test::HasFatalFailure()) break;
  }
  // The fused decisions were played (throws; houses where the edition's games build) and so were the
  // general path's answers between them.
  EXPECT_GT(out.inputs[index_of<Roll>], 0) << id;
  EXPECT_GT(out.inputs[index_of<Choose>] + out.inputs[index_of<Bid>], 0) << id;
  return out;
}

TEST(FusedPlay, ClassicGamesAreTheSameAfterEveryDecision) {
  DecisionsCompared c = compare_decisions("classic", 30, 1);
  EXPECT_GT(c.inputs[index_of<Build>], 0);
  EXPECT_GT(c.inputs[index_of<Draw>], 0);
  EXPECT_GT(c.inputs[index_of<Bankrupt>], 0);
  EXPECT_GT(c.inputs[index_of<Sell>] + c.inputs[index_of<Mortgage>], 0);
  EXPECT_GT(c.inputs[index_of<Trade>], 0);
  EXPECT_GT(c.inputs[index_of<Unmortgage>], 0);
  EXPECT_GT(c.whole_throws, 0);
}

TEST(FusedPlay, WorldAndFinanceParkerGamesAreTheSameAfterEveryDecision) {
  EXPECT_GT(compare_decisions("world", 10, 50).inputs[index_of<Build>], 0);
  EXPECT_GT(compare_decisions("finance-parker", 10, 70).inputs[index_of<Build>], 0);
}

// FINANCE (1932): with FORGETTERS every decision goes the general way (a salary may wait for a claim).
TEST(FusedPlay, Finance1932GamesAreTheSameAfterEveryDecision) {
  compare_decisions("finance-1932", 10, 90);
  DecisionsCompared forgetters =
      compare_decisions("finance-1932", 5, 100, {{"forgetters", true}, {"doubles_throw_again", true}});
  EXPECT_GT(forgetters.inputs[index_of<Claim>], 0);
}

TEST(FusedPlay, ShipsAndSlidersGamesAreTheSameAfterEveryDecision) {
  compare_decisions("ships", 10, 110);
  compare_decisions("ships", 5, 130, {{"short_game", true}});
  compare_decisions("sliders", 10, 150);
}

}  // namespace
}  // namespace bb::rules
