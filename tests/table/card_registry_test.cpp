#include "table/card_registry.h"

#include <gtest/gtest.h>

namespace bb::table {
namespace {

TEST(CardRegistry, OneUidStandsForOneThing) {
  CardRegistry r;
  ASSERT_TRUE(r.add("04a1b2c3", {CardRole::Kind::player, rules::PlayerId{0}, {}, {}}, "Ann"));
  const auto again = r.add("04:A1:B2:C3", {CardRole::Kind::player, rules::PlayerId{1}, {}, {}}, "Bob");
  ASSERT_FALSE(again);
  EXPECT_NE(again.error().find("Ann's card"), std::string::npos) << again.error();
  EXPECT_TRUE(r.add("04A1B2C3", {CardRole::Kind::player, rules::PlayerId{0}, {}, {}},
                    "Ann"));  // the same again is harmless
  ASSERT_TRUE(r.find("04a1b2c3"));
  EXPECT_EQ(r.find("04a1b2c3")->player, rules::PlayerId{0});
  EXPECT_FALSE(r.add("zz", {CardRole::Kind::banker, std::nullopt, {}, {}}, ""));
}

TEST(CardRegistry, TwoPlayersWithOneUidAreRefusedWithBothNames) {
  CardRegistry r;
  ASSERT_TRUE(r.add("0a1b2c3d", {CardRole::Kind::player, rules::PlayerId{0}, {}, {}}, "Ann"));
  const auto bob = r.add("0A-1B-2C-3D", {CardRole::Kind::player, rules::PlayerId{1}, {}, {}}, "Bob");
  ASSERT_FALSE(bob);
  EXPECT_EQ(
      bob.error(),
      "Card 0A1B2C3D is already Ann's card: Bob cannot have it too (one card stands for one thing only; "
      "give Bob a card of their own)");
  EXPECT_EQ(r.find("0a1b2c3d")->player, rules::PlayerId{0});  // still Ann's
  ASSERT_TRUE(r.add("ff01", {CardRole::Kind::banker, std::nullopt, {}, {}}, "the banker"));
  const auto cara = r.add("FF01", {CardRole::Kind::player, rules::PlayerId{2}, {}, {}}, "Cara");
  ASSERT_FALSE(cara);
  EXPECT_EQ(
      cara.error(),
      "Card FF01 is already the banker's card: Cara cannot have it too (one card stands for one thing only; "
      "give Cara a card of their own)");
}

TEST(CardRegistry, NewPlayersKeepTheBankersAndTheDeckCards) {
  CardRegistry r;
  ASSERT_TRUE(r.add("01", {CardRole::Kind::player, rules::PlayerId{0}, {}, {}}, "Ann"));
  ASSERT_TRUE(r.add("02", {CardRole::Kind::banker, std::nullopt, {}, {}}, ""));
  ASSERT_TRUE(r.add("03", {CardRole::Kind::deck_card, std::nullopt, "chance", "advance_to_go"}, ""));
  r.clear_players();
  EXPECT_FALSE(r.find("01"));
  EXPECT_TRUE(r.find("02"));
  EXPECT_TRUE(r.find("03"));
}

}  // namespace
}  // namespace bb::table
