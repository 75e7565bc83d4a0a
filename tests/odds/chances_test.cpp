// Each player's chance of winning from a position, estimated by playouts with the bots.
#include "odds/chances.h"

#include <gtest/gtest.h>

#include <numeric>

#include "odds_test_support.h"

namespace bb::odds {
namespace {

using testing::apply;
using testing::start;

long long total_units(const Chances& c) {
  return std::accumulate(c.players.begin(), c.players.end(), 0LL,
                         [](long long sum, const Chance& p) { return sum + p.win_units; });
}

TEST(Chances, SumToOneAndEveryPlayoutIsCounted) {
  const rules::Game game = start(3);
  const Chances c = estimate_chances(game, {.playouts = 120, .seed = 3, .turn_cap = 400});
  EXPECT_EQ(c.playouts, 120);
  EXPECT_EQ(c.refused, 0);
  EXPECT_EQ(total_units(c), 120 * kShareUnits);  // exact: shares are whole units
  double sum = 0;
  for (const auto& p : c.players) sum += p.estimate();
  EXPECT_NEAR(sum, 1.0, 1e-12);
  for (const auto& p : c.players) {
    EXPECT_LE(p.low(), p.estimate());
    EXPECT_GE(p.high(), p.estimate());
  }
}

// The start is symmetric but for the order of play, and the first to throw has a real edge in these games
// (20,000 playouts from a four-player start: 28%, 26%, 23% and 22% in turn order): so each player plays once
// from every seat, and their chance over the seats is 1/N within its margin.
TEST(Chances, ASymmetricStartGivesEachPlayerOneInNWithinTheMargin) {
  for (int players : {2, 4}) {
    const int per_seating = 800 / players;
    rules::ById<rules::PlayerId, Chance> by_player(static_cast<std::size_t>(players));
    for (int rotation = 0; rotation < players; ++rotation) {
      const rules::Game game = start(players, 11, rotation);
      // Other dice for each seating: with the same, every seating would play the very same games, and the
      // pooled chances would be 1/N whatever the playouts did.
      const Chances c = estimate_chances(
          game, {.playouts = per_seating, .seed = 5 + static_cast<std::uint64_t>(rotation), .turn_cap = 400});
      ASSERT_EQ(static_cast<int>(c.players.size()), players);
      for (int seat = 0; seat < players; ++seat) {
        // The player in this seat is the one start() names (seat + rotation) % players.
        Chance& pooled = by_player[rules::PlayerId{(seat + rotation) % players}];
        pooled.win_units += c.players[rules::PlayerId{seat}].win_units;
        pooled.playouts += c.players[rules::PlayerId{seat}].playouts;
      }
    }
    for (int p = 0; p < players; ++p) {
      const Chance& ch = by_player[rules::PlayerId{p}];
      EXPECT_EQ(ch.playouts, per_seating * players);
      EXPECT_LE(ch.low(), 1.0 / players) << players << " players, player " << p << ": " << format_chance(ch);
      EXPECT_GE(ch.high(), 1.0 / players) << players << " players, player " << p << ": " << format_chance(ch);
      EXPECT_LT(ch.margin(), 0.05);
    }
  }
}

TEST(Chances, APlayerWhoOwnsEverythingAgainstPlayersWithOneDollarWinsAtLeast99Percent) {
  rules::Game game = start(3);
  std::vector<rules::SpaceId> everything;
  for (const auto& sp : game.edition().spaces)
    if (sp.price > 0) everything.push_back(rules::SpaceId{sp.index});
  apply(game, testing::holding(rules::PlayerId{0}, 5000, everything));
  apply(game, testing::holding(rules::PlayerId{1}, 1));
  apply(game, testing::holding(rules::PlayerId{2}, 1));
  const Chances c = estimate_chances(game, {.playouts = 300, .seed = 9, .turn_cap = 400});
  EXPECT_GE(c.players[0].estimate(), 0.99) << format_chance(c.players[0]);
  EXPECT_EQ(format_chance(c.players[0]), ">99%");
}

TEST(Chances, TheSameSeedGivesTheSameOddsAndAnotherSeedOtherPlayouts) {
  const rules::Game game = start(4);
  const PlayoutSettings settings{.playouts = 60, .seed = 21, .turn_cap = 300};
  const Chances a = estimate_chances(game, settings);
  const Chances b = estimate_chances(game, settings);
  ASSERT_EQ(a.players.size(), b.players.size());
  for (std::size_t p = 0; p < a.players.size(); ++p)
    EXPECT_EQ(a.players[p].win_units, b.players[p].win_units);
  EXPECT_EQ(a.turns, b.turns);
  const Chances other = estimate_chances(game, {.playouts = 60, .seed = 22, .turn_cap = 300});
  EXPECT_NE(a.turns, other.turns);  // a different dice stream plays different games
}

TEST(Chances, ThePlayoutsNeverTouchTheGameTheyStartFrom) {
  const rules::Game game = start(2);
  const auto before = game.signature();
  (void)estimate_chances(game, {.playouts = 10, .seed = 1, .turn_cap = 200});
  EXPECT_EQ(game.signature(), before);
}

// Ann has thrown 3+4 onto Chance and has a card to draw: a position whose next card nobody at the table
// knows.
rules::Game ann_to_draw_from_chance(std::uint64_t game_seed) {
  rules::Game game = start(3, game_seed);
  apply(game, rules::Roll{3, 4});
  EXPECT_FALSE(game.state().pending.empty());
  EXPECT_EQ(game.state().pending.front().kind, rules::QuestionKind::draw);
  return game;
}

TEST(Chances, ThePlayoutsDoNotKnowTheOrderOfTheCards) {
  // Two games that differ only in their setup's seed: the same throws, but their Chance decks lie in other
  // orders, so the card Ann draws next is another (checked: her place or cash after the draw differs).
  const rules::Game first = ann_to_draw_from_chance(7);
  const rules::Game second = ann_to_draw_from_chance(8);
  auto ann_after_draw = [](rules::Game game) {
    apply(game, rules::Draw{*game.state().pending.front().deck, std::nullopt});
    const auto& ann = game.state().players[rules::PlayerId{0}];
    return std::pair{ann.position, ann.cash};
  };
  ASSERT_NE(ann_after_draw(first), ann_after_draw(second))
      << "choose setup seeds whose top Chance cards differ";
  // The odds are the same: no playout plays the game's own order of the cards (the card Ann draws would
  // otherwise be the same in every playout, and the odds would know it).
  const PlayoutSettings settings{.playouts = 200, .seed = 4, .turn_cap = 300};
  const Chances a = estimate_chances(first, settings);
  const Chances b = estimate_chances(second, settings);
  ASSERT_EQ(a.players.size(), b.players.size());
  for (std::size_t p = 0; p < a.players.size(); ++p)
    EXPECT_EQ(a.players[p].win_units, b.players[p].win_units) << "player " << p;
  EXPECT_EQ(a.turns, b.turns);
}

// Ann holds two oranges, Bob the third; both have the same cash and otherwise equal holdings.
rules::Game oranges_split() {
  rules::Game game = start(2, 13);
  const auto orange = testing::group("orange");
  const auto red = testing::group("red");
  EXPECT_EQ(orange.size(), 3u);
  EXPECT_EQ(red.size(), 3u);
  apply(game, testing::holding(rules::PlayerId{0}, 900, {orange[0], orange[1], red[0]}));
  apply(game, testing::holding(rules::PlayerId{1}, 900, {orange[2], red[1], red[2]}));
  return game;
}

TEST(TradeChances, ATradeThatHandsAFullGroupToOnePlayerRaisesThatPlayersChance) {
  const rules::Game game = oranges_split();
  rules::Trade trade;
  trade.from = rules::PlayerId{1};
  trade.to = rules::PlayerId{0};
  trade.give.spaces = {testing::group("orange")[2]};  // Bob gives Ann the third orange for nothing
  auto advice = estimate_trade(game, trade, {.playouts = 300, .seed = 4, .turn_cap = 400});
  ASSERT_TRUE(advice) << advice.error();
  const Chance& before = advice->without_trade.players[0];
  const Chance& after = advice->with_trade.players[0];
  EXPECT_GT(after.estimate(), before.estimate() + 0.05)
      << format_change("Ann", before, after) << " (" << format_chance(before) << " -> "
      << format_chance(after) << ")";
  EXPECT_LT(advice->with_trade.players[1].estimate(), advice->without_trade.players[1].estimate());
}

TEST(TradeChances, AnIllegalTradeIsRefusedWithTheRulesReason) {
  const rules::Game game = oranges_split();
  rules::Trade trade;
  trade.from = rules::PlayerId{1};
  trade.to = rules::PlayerId{0};
  trade.give.spaces = {testing::group("orange")[0]};  // Ann's own lot: Bob cannot give it
  auto advice = estimate_trade(game, trade, {.playouts = 10, .seed = 4, .turn_cap = 100});
  ASSERT_FALSE(advice);
  EXPECT_FALSE(advice.error().empty());
}

TEST(FormatChance, ShowsOnlyTheDigitsTheMarginSupports) {
  Chance few{.win_units = 31 * kShareUnits, .playouts = 100};  // 31% of 100: margin about 9 points
  EXPECT_EQ(format_chance(few), "31% ±9");
  Chance many{.win_units = 3100 * kShareUnits, .playouts = 10000};
  EXPECT_EQ(format_chance(many), "31% ±1");
  Chance plenty{.win_units = 310000 * kShareUnits, .playouts = 1000000};
  EXPECT_EQ(format_chance(plenty), "31.0% ±0.1");
  EXPECT_EQ(format_chance(Chance{}), "?");
  EXPECT_EQ(format_change("Ann", few, Chance{.win_units = 44 * kShareUnits, .playouts = 100}),
            "Ann 31% -> 44%");
}

}  // namespace
}  // namespace bb::odds
