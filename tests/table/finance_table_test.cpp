// FINANCE (1932)'s decisions and the ships Short Game's draft at the table: the card taps reach the screen's
// confirmation, and what the screen sends is stored in the ledger and comes back after a restart.
#include <gtest/gtest.h>

#include "ledger_test_support.h"
#include "table_test_support.h"

namespace bb::table::testing {
namespace {

display::ApplyInput by_card(rules::Input in, int player) {
  return display::ApplyInput{std::move(in), {}, rules::PlayerId{player}, {}};
}

// "The $25 must be paid before throwing the dice": the insurance Ann confirmed with her card is stored, and a
// restart finds her insured for this throw.
TEST_F(TableTest, Finance1932JailInsuranceIsStoredAndSurvivesARestart) {
  start({"Ann", "Bob"}, {kAnnCard, kBobCard}, "finance-1932");
  // Ann's tap while the table waits for her throw goes to the screen (the insurance's confirmation).
  auto r = tap(kAnnCard);
  ASSERT_EQ(r.cards.size(), 1u);
  EXPECT_EQ(r.cards[0].player, rules::PlayerId{0});
  r = touch(by_card(rules::Insure{rules::PlayerId{0}, false}, 0));
  ASSERT_EQ(r.recorded.size(), 1u);
  EXPECT_TRUE(game().state().players[0].insured);
  EXPECT_EQ(cash(0), 975);
  restart();
  EXPECT_TRUE(game().state().players[0].insured);
  EXPECT_EQ(cash(0), 975);
}

// PARTNERSHIPS: the holder and the partner both tapped on the partnership dialog; the deal is one stored
// input, and after a restart Bob still holds the Pennsylvania R.R. for the partnership.
TEST_F(TableTest, Finance1932PartnershipIsStoredAndSurvivesARestart) {
  start({"Ann", "Bob"}, {kAnnCard, kBobCard}, "finance-1932");
  rules::Adopt ann;
  ann.player = rules::PlayerId{0};
  ann.spaces = {{rules::SpaceId{5}}};
  rules::Adopt bob;
  bob.player = rules::PlayerId{1};
  bob.spaces = {{rules::SpaceId{15}}};
  for (auto& a : {ann, bob}) {
    auto r = touch(display::ApplyInput{a, "leases bought before boardbank was started", std::nullopt, "pin"});
    ASSERT_EQ(r.recorded.size(), 1u) << (r.messages.empty() ? "" : r.messages.front());
  }
  const int railroads = game().edition().spaces[5].group_index;
  auto r = touch(by_card(rules::Partner{rules::PlayerId{1}, rules::PlayerId{0}, railroads, 30}, -1));
  ASSERT_EQ(r.recorded.size(), 1u) << (r.messages.empty() ? "" : r.messages.front());
  ASSERT_EQ(game().state().partnerships.size(), 1u);
  restart();
  ASSERT_EQ(game().state().partnerships.size(), 1u);
  EXPECT_EQ(game().state().partnerships[0].share_percent, 30);
  EXPECT_EQ(game().state().spaces[5].owner, rules::PlayerId{1});
}

// "He gets choice of three throws of the dice": with the electronic dice, a throw while Ann is asked to use
// the last one is her next throw (it cancels the previous one, as the text says).
TEST_F(TableTest, Finance1932AHouseOwnersThrowsOutOfJailComeFromTheDice) {
  start({"Ann", "Bob"}, {kAnnCard, kBobCard}, "finance-1932");
  rules::Adopt jailed;
  jailed.player = rules::PlayerId{0};
  jailed.position = rules::SpaceId{20};
  jailed.in_jail = true;
  jailed.spaces = {{rules::SpaceId{1}, 3}, {rules::SpaceId{3}, 2}};
  ASSERT_EQ(
      touch(display::ApplyInput{jailed, "a game carried on from paper", std::nullopt, "pin"}).recorded.size(),
      1u);
  dice(1, 2);
  ASSERT_FALSE(game().state().pending.empty());
  EXPECT_EQ(game().option_names(game().state().pending.front()),
            (std::vector<std::string>{"use_throw", "throw_again"}));
  dice(2, 3);
  EXPECT_EQ(game().state().pending.front().amount, 5);
  dice(3, 5);  // the third throw is used
  EXPECT_FALSE(game().state().players[0].in_jail);
  EXPECT_EQ(game().state().players[0].position, rules::SpaceId{28});
}

// The ships Short Game: "the highest score chooses the first set of title deeds". The chooser's card goes to
// the screen's confirmation; the set taken is stored, and Bob is asked next.
TEST_F(TableTest, ShipsShortGameDraftIsTakenByTheChoosersCard) {
  display::StartGame sg;
  sg.setup.edition = "ships";
  sg.setup.seed = 7;
  sg.setup.options = {{"short_game", true}};
  sg.setup.players = {{"Ann", "car", kAnnCard, {}}, {"Bob", "dog", kBobCard, {}}};
  touch(sg);
  ASSERT_NE(store->game(), nullptr);
  ASSERT_FALSE(game().state().pending.empty());
  ASSERT_EQ(game().state().pending.front().kind, rules::QuestionKind::draft);
  EXPECT_EQ(table->view().awaiting.kind, Awaiting::Kind::rules_question);
  EXPECT_EQ(table->view().awaiting.player, rules::PlayerId{0});
  auto r = tap(kAnnCard);
  ASSERT_EQ(r.cards.size(), 1u);
  EXPECT_EQ(r.cards[0].player, rules::PlayerId{0});
  const rules::QuestionOption set = game().state().pending.front().options.front();
  r = touch(by_card(rules::Choose{rules::PlayerId{0}, set}, 0));
  ASSERT_EQ(r.recorded.size(), 1u);
  EXPECT_EQ(game().state().pending.front().player, rules::PlayerId{1});
  restart();
  EXPECT_EQ(game().state().pending.front().player, rules::PlayerId{1});
  const rules::SpaceId lot = game().edition().members_of(set.group).front();
  EXPECT_EQ(game().state().spaces[lot].owner, rules::PlayerId{0});
}

}  // namespace
}  // namespace bb::table::testing
