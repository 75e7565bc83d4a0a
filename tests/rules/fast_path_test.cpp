// The engine's fast paths (Game::use_fast_paths) against its general step machine: the same bot games,
// played both ways, are the same game after every input (the whole snapshot, the signature and the events),
// in every shipped edition, with 2 to 6 players. The games are checked to reach what the fast paths must hand
// back to the step machine (cards, jail, auctions, debts, bankruptcy, building), so a fast path that breaks
// one of them fails here. After every input, the bots' one-call answer to "where may a house go"
// (Game::first_lot_to_build) is checked against refusal_to_build lot by lot, for every seat, and each refusal
// about another lot of the group against the board (the lot it names).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "rules/bot.h"
#include "rules/game.h"
#include "test_support.h"

namespace bb::rules {
namespace {

// How often each kind of event happened over the games compared: what the comparison covered.
using Seen = std::map<Event::Kind, long long>;

struct InputsCompared {
  long long inputs = 0;
  long long turns = 0;
  Seen seen;
  // Game::first_lot_to_build's answers checked against refusal_to_build's, by what the refusal said
  // (nullopt: allowed).
  std::map<std::optional<Refusal::Kind>, long long> build_answers;
};

// A refusal to build about another lot of the group names the first of its lots, in board order, that makes
// it: the first mortgaged, the first with neither a hotel nor the houses one needs, the first below the lot
// asked about. The rule (Engine::build_refusal) reads only the group's facts; refuse_build finds the lot to
// name on its own, and this checks it against the board.
void check_lot_named(const Game& game, const Refusal& no, SpaceId s, const std::string& where) {
  using K = Refusal::Kind;
  if (no.kind != K::group_lot_mortgaged && no.kind != K::uneven_hotel && no.kind != K::uneven_houses) return;
  const GameState& st = game.state();
  const Edition& ed = game.edition();
  const Rules& r = game.rules();
  auto level = [&](SpaceId m) { return st.spaces[m].hotel ? r.max_houses + 1 : st.spaces[m].houses; };
  std::optional<SpaceId> expected;
  for (SpaceId m : ed.members_of(ed.spaces[s].group_index)) {
    const SpaceState& ms = st.spaces[m];
    const bool makes_it = no.kind == K::group_lot_mortgaged ? ms.mortgaged
                          : no.kind == K::uneven_hotel      ? !ms.hotel && ms.houses < r.houses_for_hotel
                                                            : level(m) < st.spaces[s].houses;
    if (makes_it) {
      expected = m;
      break;
    }
  }
  ASSERT_TRUE(expected.has_value()) << where << ": refusal " << static_cast<int>(no.kind) << " on space "
                                    << s.number() << " but no lot of its group makes it";
  ASSERT_EQ(no.other, expected) << where << ": refusal " << static_cast<int>(no.kind) << " on space "
                                << s.number();
}

// Game::first_lot_to_build (the bots' "where may a house go", a group's facts worked out once) against
// refusal_to_build asked lot by lot: for every seat and every space alone, and for the whole board with no
// budget and with the budget a bot with that cash would give. Any lot where they differ fails.
void check_lots_to_build(const Game& game, InputsCompared& out, const std::string& where) {
  const GameState& st = game.state();
  const Edition& ed = game.edition();
  SpaceSet board;
  for (SpaceId s : st.spaces.ids()) board.insert(s);
  for (PlayerId p : st.players.ids()) {
    for (SpaceId s : st.spaces.ids()) {
      SpaceSet alone;
      alone.insert(s);
      const std::optional<Refusal> no = game.refusal_to_build(p, s);
      ++out.build_answers[no ? std::optional{no->kind} : std::nullopt];
      ASSERT_EQ(game.first_lot_to_build(p, alone, kMaxMoney).has_value(), !no)
          << where << ": seat " << p.number() << ", space " << s.number();
      if (no) check_lot_named(game, *no, s, where);
    }
    for (const Money budget : {kMaxMoney, st.players[p].cash - 301}) {
      std::optional<SpaceId> first;
      for (SpaceId s : st.spaces.ids())
        if (ed.spaces[s].house_cost <= budget && !game.refusal_to_build(p, s)) {
          first = s;
          break;
        }
      ASSERT_EQ(game.first_lot_to_build(p, board, budget), first)
          << where << ": seat " << p.number() << ", budget " << budget;
    }
  }
}

// Plays one bot game on two copies of the same start, one with the fast paths and one without, the bot
// deciding on the fast one; stops at the first input after which they differ.
void compare_game(const std::shared_ptr<const Edition>& edition, const Setup& setup, InputsCompared& out) {
  auto fast = Game::start(edition, setup);
  ASSERT_TRUE(fast) << fast.error();
  Game general = *fast;
  general.use_fast_paths(false);
  ASSERT_TRUE(fast->uses_fast_paths());
  ASSERT_FALSE(general.uses_fast_paths());
  Bot bot(setup.seed);
  for (int guard = 0; !fast->state().ended && guard < 200000; ++guard) {
    // Now and then an undo, which replays the game the way it was played (with or without the fast path).
    const Input in = guard % 211 == 210 ? Input{Undo{}}
                     : fast->state().turns >= 400 && fast->state().pending.empty() && !fast->state().auction
                         ? Input{End{}}
                         : bot.next(*fast);
    auto by_fast = fast->apply(in);
    auto by_general = general.apply(in);
    ASSERT_TRUE(by_fast) << by_fast.error();
    ASSERT_TRUE(by_general) << by_general.error();
    ++out.inputs;
    ASSERT_TRUE(fast->uses_fast_paths() && !general.uses_fast_paths());
    for (const Event& e : by_fast->events) ++out.seen[e.kind];
    ASSERT_EQ(by_fast->events, by_general->events)
        << setup.edition << " seed " << setup.seed << " input " << fast->input_count();
    ASSERT_EQ(fast->signature(), general.signature())
        << setup.edition << " seed " << setup.seed << " input " << fast->input_count();
    // The snapshot holds what the signature may not: the steps still queued, the decks' order, the dice.
    ASSERT_EQ(fast->snapshot(), general.snapshot())
        << setup.edition << " seed " << setup.seed << " input " << fast->input_count();
    check_lots_to_build(*fast, out,
                        setup.edition + " seed " + std::to_string(setup.seed) + " input " +
                            std::to_string(fast->input_count()));
    if (::testing::Test::HasFatalFailure()) return;
  }
  EXPECT_TRUE(fast->state().ended) << setup.edition << " seed " << setup.seed;
  out.turns += fast->state().turns;
}

InputsCompared compare_inputs(const std::string& id, int games, std::uint64_t first_seed,
                              const std::map<std::string, bool>& options = {}) {
  auto edition = std::make_shared<const Edition>(testing::load_shipped(id));
  InputsCompared out;
  const int played = testing::games_to_compare(games);
  for (int gi = 0; gi < played; ++gi) {
    Setup setup = testing::bot_setup(id, first_seed + static_cast<std::uint64_t>(gi), 2 + gi % 5);
    setup.options = options;
    compare_game(edition, setup, out);
    if (::testing::Test::HasFatalFailure()) break;
  }
  return out;
}

// What the fast paths hand back to the step machine, or that follows from it, was played and compared.
void expect_covered(const InputsCompared& c, const std::string& id) {
  using K = Event::Kind;
  for (K kind : {K::moved, K::bought, K::card_drawn, K::jailed, K::released, K::auction_started,
                 K::auction_won, K::built, K::bankrupt, K::game_over, K::turn})
    EXPECT_GT(c.seen.count(kind) ? c.seen.at(kind) : 0, 0)
        << id << ": no event of kind " << static_cast<int>(kind) << " in the games compared";
}

// What Game::first_lot_to_build was checked against: lots allowed, and refused for each reason a bot's
// candidate lot meets in play.
void expect_build_answers_covered(const InputsCompared& c, const std::string& id) {
  using K = Refusal::Kind;
  for (std::optional<K> kind :
       {std::optional<K>{}, std::optional{K::uneven_houses}, std::optional{K::needs_whole_group},
        std::optional{K::mortgaged_lift_first}, std::optional{K::group_lot_mortgaged},
        std::optional{K::has_hotel}, std::optional{K::uneven_hotel}, std::optional{K::cash_short_to_build},
        std::optional{K::bankrupt}})
    EXPECT_GT(c.build_answers.count(kind) ? c.build_answers.at(kind) : 0, 0)
        << id << ": no build answer " << (kind ? static_cast<int>(*kind) : -1) << " checked";
}

TEST(FastPaths, ClassicGamesAreTheSameAfterEveryInput) {
  InputsCompared c = compare_inputs("classic", 30, 1);
  expect_covered(c, "classic");
  expect_build_answers_covered(c, "classic");
  // The general path's debts: a sale or a mortgage was made to pay one (Bot::raise_money).
  EXPECT_GT(c.seen[Event::Kind::mortgaged] + c.seen[Event::Kind::sold], 0);
}

TEST(FastPaths, WorldGamesAreTheSameAfterEveryInput) {
  expect_covered(compare_inputs("world", 10, 50), "world");
}

TEST(FastPaths, FinanceParkerGamesAreTheSameAfterEveryInput) {
  InputsCompared c = compare_inputs("finance-parker", 10, 70);
  for (Event::Kind kind :
       {Event::Kind::bought, Event::Kind::card_drawn, Event::Kind::built, Event::Kind::turn})
    EXPECT_GT(c.seen[kind], 0) << static_cast<int>(kind);
}

// FINANCE (1932): every landing on an unsold lease is an auction, and with FORGETTERS the salary waits for a
// claim; with its later custom, doubles throw again and three go to jail.
TEST(FastPaths, Finance1932GamesAreTheSameAfterEveryInput) {
  InputsCompared c = compare_inputs("finance-1932", 10, 90);
  EXPECT_GT(c.seen[Event::Kind::auction_started], 0);
  InputsCompared forgetters =
      compare_inputs("finance-1932", 5, 100, {{"forgetters", true}, {"doubles_throw_again", true}});
  EXPECT_GT(forgetters.seen[Event::Kind::salary_earned], 0);
  EXPECT_GT(forgetters.seen[Event::Kind::jailed], 0);
}

TEST(FastPaths, ShipsAndSlidersGamesAreTheSameAfterEveryInput) {
  InputsCompared ships = compare_inputs("ships", 10, 110);
  EXPECT_GT(ships.seen[Event::Kind::turn], 0);
  InputsCompared short_ships = compare_inputs("ships", 5, 130, {{"short_game", true}});
  EXPECT_GT(short_ships.seen[Event::Kind::drafted], 0);
  InputsCompared sliders = compare_inputs("sliders", 10, 150);
  EXPECT_GT(sliders.seen[Event::Kind::turn], 0);
}

}  // namespace
}  // namespace bb::rules
