// Here and Now: The World Edition (seeds/here-and-now-world-edition-rules.txt), built on classic.toml with
// `extends`. Each test names the sentence it checks; scripts/world_*.jsonl check more as game scripts.
#include <gtest/gtest.h>

#include "test_support.h"

namespace bb::rules::testing {
namespace {

const char* kWorld = R"({"setup": {"edition": "world", "players": ["Ann", "Bob", "Cleo"], "seed": 5}})";

// "Each players starting balance is 15M"; "to add 2M" for passing GO; a deed such as Paris (rent 260K,
// houses 2M, mortgage 1.5M). Amounts are units of 10K, always shown in M and K, never as 1500000.
TEST(World, MoneyIsShownInMAndK) {
  ScriptedGame g(kWorld);
  const Edition& ed = g.game().edition();
  EXPECT_EQ(ed.format_money(g.game().rules().start_cash), "15M");
  EXPECT_EQ(ed.format_money(g.game().rules().salary), "2M");
  EXPECT_EQ(ed.format_money(150), "1.5M");
  EXPECT_EQ(ed.format_money(25), "250K");
  EXPECT_EQ(ed.format_money(1275), "12.75M");
  const Space& paris = ed.spaces[31];
  EXPECT_EQ(paris.name, "Paris");
  EXPECT_EQ(ed.format_money(paris.rent.amounts[0]), "260K");
  EXPECT_EQ(ed.format_money(paris.house_cost), "2M");
  EXPECT_EQ(ed.format_money(paris.mortgage), "1.5M");
  EXPECT_EQ(ed.format_money(ed.spaces[39].price), "4M");  // Montreal
  EXPECT_EQ(ed.format_money(ed.spaces[19].price), "2M");  // Vancouver
  g.ok(R"({"t": "roll", "dice": [3, 3]})");
  g.ok(R"({"t": "choose", "player": "Ann", "option": "buy"})");
  const Posting& bought = g.game().state().postings.back();
  EXPECT_EQ(g.game().memo_text(bought), "bought Tokyo");
  auto out = g.game().apply(Roll{1, 2});  // the double's second throw: Tokyo (6) to Athens (9)
  ASSERT_TRUE(out);
  for (const auto& e : out->events) EXPECT_EQ(g.game().describe(e).find('$'), std::string::npos);
}

// "Each deal is randomly timed you could have anywhere between 13 and 50 seconds."
TEST(World, EachDealHasARandomTimerOf13To50Seconds) {
  int shortest = 100, longest = 0;
  for (int seed = 1; seed <= 200; ++seed) {
    ScriptedGame g(
        fmt::format(R"({{"setup": {{"edition": "world", "players": ["Ann", "Bob"], "seed": {}}}}})", seed));
    g.ok(R"({"t": "roll", "dice": [1, 2]})");
    g.ok(R"({"t": "choose", "player": "Ann", "option": "auction"})");
    int timer = g.game().state().auction->timer_s;
    shortest = std::min(shortest, timer);
    longest = std::max(longest, timer);
  }
  EXPECT_GE(shortest, 13);
  EXPECT_LE(longest, 50);
  EXPECT_LT(shortest, 20);  // the whole range is used
  EXPECT_GT(longest, 43);
}

// "Owning any of the four Airports or the two service providers will also award players money, though no
// houses or hotels can be built on these spaces."
TEST(World, FourAirportsAndTwoServiceProvidersWithoutHouses) {
  ScriptedGame g(kWorld);
  const Edition& ed = g.game().edition();
  EXPECT_EQ(ed.group_members("railroad").size(), 4u);
  EXPECT_EQ(ed.group("railroad")->name, "Airports");
  EXPECT_EQ(ed.group_members("utility").size(), 2u);
  EXPECT_EQ(ed.group("utility")->name, "Service providers");
  g.ok(
      R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 5}, {"space": 15}, {"space": 25}, {"space": 35}]})");
  ASSERT_TRUE(g.game().why_not_build(PlayerId{0}, SpaceId{5}));
  EXPECT_NE(g.game().why_not_build(PlayerId{0}, SpaceId{5})->find("cannot have buildings"),
            std::string::npos);
}

// "Also, properties with no houses or hotels may be mortgaged for half of the property price."
TEST(World, MortgagesAreHalfThePrice) {
  ScriptedGame g(kWorld);
  for (const auto& sp : g.game().edition().spaces) {
    if (sp.price > 0) {
      EXPECT_EQ(sp.mortgage * 2, sp.price) << sp.name;
    }
  }
}

// "Continue until only one player is left in the game. This player is the winner!" by default, and the
// text's other ending, "As soon as a second player goes bankrupt, the game ends", as an option; the classic
// Short Game and Time Limit Game options are not this text's.
TEST(World, TheEndsTheTextGives) {
  ScriptedGame g(kWorld);
  EXPECT_EQ(g.game().rules().end_after_bankruptcies, 0);
  std::vector<std::string> names;
  for (const auto& o : g.game().edition().options) names.push_back(o.name);
  EXPECT_EQ(names, (std::vector<std::string>{"second_bankruptcy", "strict_hotel_sale"}));
  ScriptedGame second(
      R"({"setup": {"edition": "world", "players": ["Ann", "Bob", "Cleo"], "options": {"second_bankruptcy": true}, "seed": 5}})");
  EXPECT_EQ(second.game().rules().end_after_bankruptcies, 2);
}

}  // namespace
}  // namespace bb::rules::testing
