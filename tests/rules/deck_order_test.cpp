// The decks' draw order: a deck is a ring (DeckState), drawn from the top and refilled at the bottom without
// moving the other cards. Checked against the plain picture of a deck, a vector whose front is the top: the
// ring on its own through many laps, and whole bot games, where every card drawn must be the one on top, go
// back to the bottom unless kept (a Get Out of Jail card), and a kept card come back to the bottom when its
// holder gives it up.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rules/bot.h"
#include "rules/engine.h"
#include "rules/game.h"
#include "rules/splitmix.h"
#include "test_support.h"

namespace bb::rules {
namespace {

TEST(DeckOrder, TheRingKeepsTheOrderOfAVectorDrawnFromItsFrontThroughManyLaps) {
  const std::vector<int> start = {4, 0, 3, 1, 2, 5, 1};
  DeckState deck(start);
  std::vector<int> model = start;
  std::uint64_t rng = 7;
  int laps_drawn = 0;
  for (int i = 0; i < 5000; ++i) {
    std::uint64_t r = splitmix64(rng) % 10;
    if (r < 6 && !model.empty()) {  // drawn and put back at the bottom
      ASSERT_EQ(deck.pop_top(), model.front());
      deck.push_bottom(model.front());
      model.push_back(model.front());
      model.erase(model.begin());
      ++laps_drawn;
    } else if (r < 8 && !model.empty()) {  // drawn and kept
      std::size_t at = (r == 6) ? 0 : static_cast<std::size_t>(splitmix64(rng) % model.size());
      ASSERT_EQ(deck.erase_at(at), model[at]);
      model.erase(model.begin() + static_cast<std::ptrdiff_t>(at));
    } else if (model.size() < start.size()) {  // a kept card given back
      int c = static_cast<int>(splitmix64(rng) % 6);
      deck.push_bottom(c);
      model.push_back(c);
    }
    ASSERT_EQ(deck.size(), model.size());
    ASSERT_EQ(deck.order(), model) << "after " << i;
  }
  EXPECT_GT(laps_drawn, 10 * static_cast<int>(start.size()));
}

TEST(DeckOrder, ARingHandedMoreCardsThanItHoldsGrowsInOrder) {
  DeckState deck(std::vector<int>{1, 2});
  deck.pop_top();
  deck.push_bottom(3);
  deck.push_bottom(4);  // past the slots it started with
  EXPECT_EQ(deck.order(), (std::vector<int>{2, 3, 4}));
  EXPECT_EQ(DeckState{}.order(), std::vector<int>{});
}

// The card index an event's card has in its deck, and the deck's index.
std::pair<std::size_t, int> card_of(const Edition& ed, const Card* card) {
  for (std::size_t d = 0; d < ed.decks.size(); ++d) {
    const auto& cards = ed.decks[d].cards;
    if (!cards.empty() && card >= cards.data() && card < cards.data() + cards.size())
      return {d, static_cast<int>(card - cards.data())};
  }
  ADD_FAILURE() << "a card drawn from no deck";
  return {0, 0};
}

std::vector<std::vector<int>> decks_of(const Game& game) {
  return nlohmann::json::parse(game.snapshot()).at("decks").get<std::vector<std::vector<int>>>();
}

TEST(DeckOrder, BotGamesDrawFromTheTopAndPutCardsBackAtTheBottomLapAfterLap) {
  auto classic = std::make_shared<const Edition>(testing::load_shipped("classic"));
  long long kept = 0, returned = 0, lapped_decks = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    rules::Setup setup;
    setup.edition = "classic";
    setup.seed = seed;
    for (int p = 0; p < 4; ++p) setup.players.push_back({"P" + std::to_string(p), "", "", {}});
    auto game = Game::start(classic, setup);
    ASSERT_TRUE(game) << game.error();
    Bot bot(seed);
    std::vector<std::vector<int>> before = decks_of(*game);
    std::vector<int> drawn(before.size(), 0);
    for (int guard = 0; !game->state().ended && guard < 200000; ++guard) {
      Input in = game->state().turns >= 600 && game->state().pending.empty() && !game->state().auction
                     ? Input{End{}}
                     : bot.next(*game);
      auto ok = game->apply(in);
      ASSERT_TRUE(ok) << ok.error();
      std::vector<std::vector<int>> model = before;
      for (const Event& e : ok->events) {
        if (e.kind != Event::Kind::card_drawn) continue;
        auto [d, c] = card_of(*classic, e.card);
        ASSERT_FALSE(model[d].empty());
        ASSERT_EQ(model[d].front(), c) << "seed " << seed << ": a card drawn from below the top";
        model[d].erase(model[d].begin());
        ++drawn[d];
        if (is_jail_card(classic->decks[d].cards[static_cast<std::size_t>(c)]))
          ++kept;
        else
          model[d].push_back(c);
      }
      std::vector<std::vector<int>> after = decks_of(*game);
      for (std::size_t d = 0; d < after.size(); ++d) {
        // Anything more is a kept card given back, at the bottom.
        ASSERT_GE(after[d].size(), model[d].size());
        ASSERT_TRUE(std::equal(model[d].begin(), model[d].end(), after[d].begin()))
            << "seed " << seed << " input " << game->inputs().size();
        for (std::size_t i = model[d].size(); i < after[d].size(); ++i) {
          ASSERT_TRUE(is_jail_card(classic->decks[d].cards[static_cast<std::size_t>(after[d][i])]));
          ++returned;
        }
      }
      before = std::move(after);
      ASSERT_TRUE(game->invariant_violations().empty());
    }
    for (std::size_t d = 0; d < drawn.size(); ++d)
      if (drawn[d] > static_cast<int>(before[d].size()) + 2) ++lapped_decks;
  }
  EXPECT_GT(kept, 0);
  EXPECT_GT(returned, 0);
  EXPECT_GT(lapped_decks, 0);
}

}  // namespace
}  // namespace bb::rules
