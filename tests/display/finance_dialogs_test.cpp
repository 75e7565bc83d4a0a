// FINANCE (1932)'s and the ships Short Game's decisions on the touchscreen: jail insurance, a partnership
// with its split and both players' cards, the Auctioneer's early sale, the three throws of a house owner in
// Jail, the piece of the series on the auction screen, and the ships draft taken by the chooser's card.
// Touches are injected as SDL finger events and the intents applied to a real rules::Game (display harness).
#include <gtest/gtest.h>

#include "display_test_support.h"

namespace bb::display {
namespace {

using testing::Harness;

SampleTable finance_table(const std::vector<rules::Input>& inputs = {}) {
  auto t = SampleTable::start("finance", EDITIONS_DIR, {"Ann", "Bob", "Cleo"}, 5, "finance-1932");
  if (!t) throw std::runtime_error(t.error());
  for (const auto& in : inputs) {
    auto r = t->apply(in);
    if (!r) throw std::runtime_error(r.error());
  }
  return std::move(*t);
}

rules::Adopt owns(int player, std::vector<rules::AdoptSpace> spaces) {
  rules::Adopt a;
  a.player = rules::PlayerId{player};
  a.spaces = std::move(spaces);
  return a;
}

// "Players may insure against going to Jail by paying $25 to the Bank on approaching the "Go to Jail" corner.
// The $25 must be paid before throwing the dice." The button before the throw, the choice of corner or card,
// then the player's card confirms the payment.
TEST(FinanceScreens, JailInsuranceBeforeTheThrowConfirmedByTheInsuredsCard) {
  Harness h(finance_table());
  ASSERT_TRUE(h.can_see("home.insure"));
  h.tap("home.insure");
  EXPECT_TRUE(h.frame().shows("Against the Go to Jail corner: $25"));
  EXPECT_TRUE(h.frame().shows("Against a Go to Jail card: $5"));
  h.tap("choice.0");
  EXPECT_TRUE(h.frame().shows("Ann, tap your card to confirm"));
  h.card(1);  // Bob's card: not his insurance
  EXPECT_FALSE(h.table().game().state().players[0].insured);
  h.card(0);
  EXPECT_TRUE(h.table().game().state().players[0].insured);
  EXPECT_EQ(h.table().game().state().players[0].cash, 975);
  EXPECT_TRUE(h.refusals.empty()) << h.refusals.front();
  // Insured against the corner: only the card insurance is still offered.
  h.tap("home.insure");
  EXPECT_FALSE(h.frame().shows("Against the Go to Jail corner"));
  EXPECT_TRUE(h.frame().shows("Against a Go to Jail card: $5"));
}

// "A house owner cannot insure against Jail.": no button for him.
TEST(FinanceScreens, NoInsuranceButtonForAHouseOwner) {
  Harness h(finance_table({owns(0, {{rules::SpaceId{1}, 1}, {rules::SpaceId{3}, 0}})}));
  EXPECT_FALSE(h.can_see("home.insure"));
}

// "If two or more players own the Railroads, they may combine and share the full income according to their
// own arrangement." "one player must actually hold all the leases": Bob holds, Ann hands over the
// Pennsylvania R.R. for 30% of every income; both tap their cards.
TEST(FinanceScreens, APartnershipWithItsSplitAndBothCards) {
  Harness h(finance_table({owns(0, {{rules::SpaceId{5}}}), owns(1, {{rules::SpaceId{15}}})}));
  h.tap("home.partner");
  const int railroads = h.table().game().edition().spaces[5].group_index;
  h.tap("partner.group." + std::to_string(railroads));
  h.tap("partner.holder.1");
  h.tap("partner.partner.0");
  for (int i = 0; i < 4; ++i) h.tap("partner.share.minus");  // 50% -> 30%
  EXPECT_TRUE(h.frame().shows("Bob 70%"));
  EXPECT_TRUE(h.frame().shows("Ann 30%"));
  EXPECT_TRUE(h.frame().shows("Bob: tap your card"));
  EXPECT_EQ(h.frame().find("partner.agree.holder"), nullptr) << "with a working reader only the cards agree";
  h.card(2);  // Cleo is not in the deal
  EXPECT_TRUE(h.frame().shows("Only the holder's and the partner's cards"));
  h.card(1);
  EXPECT_TRUE(h.table().game().state().partnerships.empty()) << "one agreement is not a partnership";
  h.card(0);
  const auto& st = h.table().game().state();
  ASSERT_EQ(st.partnerships.size(), 1u);
  EXPECT_EQ(st.partnerships[0].holder, rules::PlayerId{1});
  EXPECT_EQ(st.partnerships[0].partner, rules::PlayerId{0});
  EXPECT_EQ(st.partnerships[0].share_percent, 30);
  EXPECT_EQ(st.spaces[5].owner, rules::PlayerId{1}) << "the holder holds all the leases";
  EXPECT_TRUE(h.refusals.empty()) << h.refusals.front();
}

// "Two players cannot share income on any other properties" and a partner must own a lease to hand over: the
// dialog says why and nobody's tap makes the deal.
TEST(FinanceScreens, APartnershipTheRulesRefuseSaysWhy) {
  Harness h(finance_table({owns(1, {{rules::SpaceId{15}}})}));
  h.tap("home.partner");
  h.tap("partner.holder.1");
  h.tap("partner.partner.0");
  EXPECT_TRUE(h.frame().shows("Ann owns no lease of the Railroads to hand over"));
  h.card(1);
  h.card(0);
  EXPECT_TRUE(h.table().game().state().partnerships.empty());
}

// Without a card reader the screen's buttons agree, one for each player.
TEST(FinanceScreens, WithoutACardReaderBothAgreeOnTheScreen) {
  auto t = finance_table({owns(0, {{rules::SpaceId{5}}}), owns(1, {{rules::SpaceId{15}}})});
  t.devices[1] = {DeviceStatus::Kind::card_reader, "Card reader", DeviceStatus::State::missing, "", ""};
  Harness h(std::move(t));
  h.tap("home.partner");
  h.tap("partner.holder.1");
  h.tap("partner.partner.0");
  h.tap("partner.agree.holder");
  EXPECT_TRUE(h.table().game().state().partnerships.empty());
  h.tap("partner.agree.partner");
  ASSERT_EQ(h.table().game().state().partnerships.size(), 1u);
  EXPECT_EQ(h.table().game().state().partnerships[0].share_percent, 50);
}

// "The Auctioneer may sell the last 3 or 4 properties without waiting for them to be stopped on ... Sell the
// lowest number first." The button appears with four leases left and auctions Rittenhouse Square; the auction
// screen announces "the 3rd piece in Series 7".
TEST(FinanceScreens, TheAuctioneerSellsALeaseEarlyAndAnnouncesThePiece) {
  Harness before(finance_table());
  EXPECT_FALSE(before.can_see("home.sell_lease")) << "28 leases unsold: not yet";
  std::vector<rules::AdoptSpace> sold;
  for (int s : {1, 3, 5, 6, 8, 9, 11, 12, 13, 14, 15, 16, 18, 19, 21, 23, 24, 25, 26, 27, 28, 29, 31, 32})
    sold.push_back({rules::SpaceId{s}});
  Harness h(finance_table({owns(1, sold)}));
  h.tap("home.sell_lease");
  EXPECT_TRUE(h.frame().shows("Auction Rittenhouse Square now"));
  h.tap("confirm.ok");
  ASSERT_TRUE(h.table().game().state().auction);
  EXPECT_EQ(h.table().game().state().auction->space, rules::SpaceId{34});
  if (h.screen().ui().screen() != ScreenId::auction) h.tap("home.auction");
  EXPECT_TRUE(h.frame().shows("The 3rd piece in Series 7"));
}

// "He gets choice of three throws of the dice, all taken on the same turn. Each throw cancels opportunity to
// use the previous one." After a throw the home screen offers to use it or throw again.
TEST(FinanceScreens, AHouseOwnerInJailUsesAThrowOrThrowsAgain) {
  rules::Adopt jailed = owns(0, {{rules::SpaceId{1}, 3}, {rules::SpaceId{3}, 2}});
  jailed.position = rules::SpaceId{20};
  jailed.in_jail = true;
  Harness h(finance_table({jailed, rules::Roll{1, 2}}));
  EXPECT_TRUE(h.frame().shows("Ann threw 3: come out of Jail with it, or throw again?"));
  h.tap("home.option.throw_again");
  ASSERT_TRUE(h.refusals.empty()) << h.refusals.front();
  auto r = h.table().apply(rules::Roll{2, 3});
  ASSERT_TRUE(r) << r.error();
  h.ask(std::nullopt);  // shows the new snapshot
  h.tap("home.option.use_throw");
  EXPECT_FALSE(h.table().game().state().players[0].in_jail);
  EXPECT_EQ(h.table().game().state().players[0].position, rules::SpaceId{25});
}

// The ships Short Game: "the highest score chooses the first set of title deeds": the chooser takes a set by
// tapping his card, as at every other question that is a player's decision.
TEST(ShipsScreens, TheDraftIsTakenByTheChoosersCard) {
  auto t =
      SampleTable::start("draft", EDITIONS_DIR, {"Ann", "Bob", "Cleo"}, 37, "ships", {{"short_game", true}});
  ASSERT_TRUE(t) << t.error();
  Harness h(std::move(*t));
  const auto& q = h.table().game().state().pending.front();
  ASSERT_EQ(q.kind, rules::QuestionKind::draft);
  const std::string first(h.table().game().option_name(q.options.front()));
  h.tap("home.draft");
  h.tap("choice.0");
  EXPECT_TRUE(h.frame().shows("Ann, tap your card to confirm"));
  h.card(1);
  EXPECT_TRUE(h.frame().shows("That is Bob's card"));
  const auto& ed = h.table().game().edition();
  const rules::SpaceId set_lot = ed.group_members(first).front();
  EXPECT_EQ(h.table().game().state().spaces[set_lot].owner, std::nullopt);
  h.card(0);
  EXPECT_EQ(h.table().game().state().spaces[set_lot].owner, rules::PlayerId{0});
  EXPECT_EQ(h.table().game().state().pending.front().player, rules::PlayerId{1}) << "Bob chooses next";
}

}  // namespace
}  // namespace bb::display
