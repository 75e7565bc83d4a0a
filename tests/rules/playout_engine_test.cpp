// The compact playout engine (rules/playout_engine.h) against Game and Bot: the same bot games played both
// ways end the same, to the bit (the whole snapshot: every player, lot, deck order and the engine's random
// state; the inputs and postings counted; the bot's next draws), in every shipped edition the compact engine
// covers and in those it hands to Game whole, with the bots' own dice and with a stream of their own (as the
// odds' playouts throw), from the start and from positions in mid-game. The same games ended by the turn cap
// at every turn compare the games turn by turn.
#include "rules/playout_engine.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>

#include "rules/splitmix.h"
#include "test_support.h"

namespace bb::rules {
namespace playout_engine_test {

using testing::StreamDice;

struct Ending {
  std::string snapshot;
  std::size_t inputs = 0;
  std::size_t postings = 0;
  std::string bot_next;  // the bot's next decision afterwards: its random source is where it should be
  bool refused = false;
};

std::string decision_words(Bot& bot, const Game& game) {
  const Input next = bot.next(game);
  if (const auto* roll = std::get_if<Roll>(&next)) return fmt::format("roll {} {}", roll->d1, roll->d2);
  return fmt::format("input {}", next.index());
}

// The game played on by the plain loop of Game and Bot (what PlayoutEngine::play stands for).
Ending by_game(Game game, Bot bot, int cap, std::optional<std::uint64_t> dice_seed) {
  std::optional<StreamDice> stream;
  if (dice_seed) stream.emplace(*dice_seed);
  BotDice* dice = stream ? &*stream : nullptr;
  Ending out;
  while (!game.state().ended) {
    const auto& st = game.state();
    const bool capped = st.turns >= cap && st.pending.empty() && !st.auction;
    if (capped ? !game.play(End{}) : !bot.play(game, dice)) {
      out.refused = true;
      break;
    }
  }
  out.snapshot = game.snapshot();
  out.inputs = game.input_count();
  out.postings = game.posting_count();
  out.bot_next = decision_words(bot, game);
  return out;
}

Ending by_playout_engine(Game game, Bot bot, int cap, std::optional<std::uint64_t> dice_seed,
                         PlayoutEngine::Stats& stats) {
  std::optional<StreamDice> stream;
  if (dice_seed) stream.emplace(*dice_seed);
  Ending out;
  out.refused = PlayoutEngine::play(game, bot, cap, stream ? &*stream : nullptr, nullptr, &stats) ==
                PlayoutEngine::Result::refused;
  out.snapshot = game.snapshot();
  out.inputs = game.input_count();
  out.postings = game.posting_count();
  out.bot_next = decision_words(bot, game);
  return out;
}

rules::Setup setup_of(const std::string& edition, int players, std::uint64_t seed) {
  rules::Setup s;
  s.edition = edition;
  s.seed = seed;
  for (int p = 0; p < players; ++p) s.players.push_back({"P" + std::to_string(p), "", "", {}});
  return s;
}

std::shared_ptr<const Edition> load(const std::string& id) {
  auto loaded = load_edition(id, testing::editions());
  if (!loaded) throw std::runtime_error(loaded.error().what());
  return std::make_shared<const Edition>(std::move(*loaded));
}

Game playout_game(const std::shared_ptr<const Edition>& edition, const rules::Setup& setup) {
  auto game = Game::start(edition, setup);
  if (!game) throw std::runtime_error(game.error());
  game->forget_history();
  game->forget_journal();
  return std::move(*game);
}

void expect_same(const Ending& a, const Ending& b, const std::string& where) {
  EXPECT_FALSE(a.refused) << where;
  EXPECT_FALSE(b.refused) << where;
  EXPECT_EQ(a.inputs, b.inputs) << where;
  EXPECT_EQ(a.postings, b.postings) << where;
  EXPECT_EQ(a.bot_next, b.bot_next) << where;
  EXPECT_EQ(a.snapshot, b.snapshot) << where;
}

TEST(PlayoutEngine, CoversTheClassicRulesAndNotAGameThatKeepsItsHistory) {
  const auto classic = load("classic");
  const bb::rules::Setup setup = setup_of("classic", 4, 1);
  EXPECT_TRUE(PlayoutEngine::covers(playout_game(classic, setup)));
  auto kept = Game::start(classic, setup);
  ASSERT_TRUE(kept);
  EXPECT_FALSE(PlayoutEngine::covers(*kept));  // an undo history and a journal: Game plays it
  EXPECT_FALSE(PlayoutEngine::covers(playout_game(load("finance-1932"), setup_of("finance-1932", 4, 1))));
}

TEST(PlayoutEngine, PlaysTheSameClassicGamesAsGameAndBot) {
  const auto classic = load("classic");
  PlayoutEngine::Stats stats;
  for (int players = 2; players <= 6; ++players)
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      const bb::rules::Setup setup = setup_of("classic", players, seed);
      for (const bool own_dice : {true, false}) {
        const std::optional<std::uint64_t> dice = own_dice ? std::nullopt : std::optional(seed * 7 + 3);
        const Game start = playout_game(classic, setup);
        const std::string where = fmt::format("classic, {} players, seed {}, {}", players, seed,
                                              own_dice ? "own dice" : "a stream");
        expect_same(by_game(start, Bot(seed), 1000, dice),
                    by_playout_engine(start, Bot(seed), 1000, dice, stats), where);
        if (HasFailure()) return;
      }
    }
  // The compact engine played most of it: Game only what it hands over.
  EXPECT_GT(stats.from_rest, 100000);
  EXPECT_LT(stats.handed_over * 10, stats.from_rest);
  EXPECT_GT(stats.handed_over, 0);
}

TEST(PlayoutEngine, TheSameGamesTurnByTurn) {
  // Each game ended by the turn cap after every turn: the two ways agree at every turn, not only at the end.
  const auto classic = load("classic");
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const bb::rules::Setup setup = setup_of("classic", 4, seed);
    const Game start = playout_game(classic, setup);
    for (int cap = 0; cap <= 260; ++cap) {
      PlayoutEngine::Stats stats;
      const std::optional<std::uint64_t> dice = seed == 2 ? std::optional<std::uint64_t>(99) : std::nullopt;
      expect_same(by_game(start, Bot(seed), cap, dice), by_playout_engine(start, Bot(seed), cap, dice, stats),
                  fmt::format("classic seed {} ended after turn {}", seed, cap));
      if (HasFailure()) return;
    }
  }
}

TEST(PlayoutEngine, FromPositionsInMidGame) {
  // As the odds' playouts start: a game already played some way (by Game), then played on; some of these
  // positions are a jailed player's turn, the question asked.
  const auto classic = load("classic");
  int jail_starts = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    Game position = playout_game(classic, setup_of("classic", 4, seed));
    Bot bot(seed + 1000);
    for (int decisions = 0; decisions < 40 * static_cast<int>(seed) && !position.state().ended; ++decisions)
      ASSERT_TRUE(bot.play(position));
    const auto& pending = position.state().pending;
    jail_starts += !pending.empty() && pending.front().kind == QuestionKind::jail ? 1 : 0;
    PlayoutEngine::Stats stats;
    const int cap = position.state().turns + 300;
    expect_same(by_game(position, bot, cap, seed * 5), by_playout_engine(position, bot, cap, seed * 5, stats),
                fmt::format("classic seed {} from turn {}", seed, position.state().turns));
  }
  SUCCEED() << jail_starts << " positions were a jailed player's turn";
}

TEST(PlayoutEngine, EveryShippedEditionPlaysTheSameGames) {
  // Those it covers on their own boards and cards; the others by Game alone, the same way.
  for (const std::string id : {"world", "sliders", "ships", "finance-parker", "finance-1932"}) {
    const auto edition = load(id);
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
      const bb::rules::Setup setup = setup_of(id, 4, seed);
      const Game start = playout_game(edition, setup);
      PlayoutEngine::Stats stats;
      expect_same(by_game(start, Bot(seed), 600, seed), by_playout_engine(start, Bot(seed), 600, seed, stats),
                  fmt::format("{} seed {}", id, seed));
      if (HasFailure()) return;
    }
  }
}

TEST(PlayoutEngine, StopsBetweenMovesWhenAsked) {
  const auto classic = load("classic");
  Game game = playout_game(classic, setup_of("classic", 4, 5));
  Bot bot(5);
  std::atomic<bool> stop{true};
  EXPECT_EQ(PlayoutEngine::play(game, bot, 1000, nullptr, &stop), PlayoutEngine::Result::stopped);
  EXPECT_FALSE(game.state().ended);
  EXPECT_TRUE(game.state().pending.empty());
  stop = false;
  EXPECT_EQ(PlayoutEngine::play(game, bot, 1000, nullptr, &stop), PlayoutEngine::Result::ended);
  EXPECT_TRUE(game.state().ended);
}

// The edition's facts the engine keeps on the thread do not keep the edition alive once its games are gone,
// and a new edition is played by its own facts.
TEST(PlayoutEngine, KeepsNoEditionAliveAndPlaysANewOneByItsOwnFacts) {
  std::weak_ptr<const Edition> gone;
  {
    auto classic = load("classic");
    gone = classic;
    Game game = playout_game(classic, setup_of("classic", 3, 2));
    Bot bot(2);
    ASSERT_EQ(PlayoutEngine::play(game, bot, 1000), PlayoutEngine::Result::ended);
  }
  EXPECT_TRUE(gone.expired()) << "the engine's facts keep the edition alive";
  const auto again = load("classic");
  const Game start = playout_game(again, setup_of("classic", 3, 3));
  PlayoutEngine::Stats stats;
  expect_same(by_game(start, Bot(3), 1000, std::nullopt),
              by_playout_engine(start, Bot(3), 1000, std::nullopt, stats), "a new classic edition");
}

}  // namespace playout_engine_test
}  // namespace bb::rules
