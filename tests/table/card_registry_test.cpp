#include "table/card_registry.h"

#include <gtest/gtest.h>

namespace bb::table {
namespace {

TEST(CardRegistry, OneUidStandsForOneThing) {
  CardRegistry r;
  ASSERT_TRUE(r.add("04a1b2c3", {CardRole::Kind::player, 0, {}, {}}, "Ann"));
  const auto again = r.add("04:A1:B2:C3", {CardRole::Kind::player, 1, {}, {}}, "Bob");
  ASSERT_FALSE(again);
  EXPECT_NE(again.error().find("Ann's card"), std::string::npos) << again.error();
  EXPECT_TRUE(r.add("04A1B2C3", {CardRole::Kind::player, 0, {}, {}}, "Ann"));  // the same again is harmless
  ASSERT_TRUE(r.find("04a1b2c3"));
  EXPECT_EQ(r.find("04a1b2c3")->player, 0);
  EXPECT_FALSE(r.add("zz", {CardRole::Kind::banker, -1, {}, {}}, ""));
}

TEST(CardRegistry, NewPlayersKeepTheBankersAndTheDeckCards) {
  CardRegistry r;
  ASSERT_TRUE(r.add("01", {CardRole::Kind::player, 0, {}, {}}, "Ann"));
  ASSERT_TRUE(r.add("02", {CardRole::Kind::banker, -1, {}, {}}, ""));
  ASSERT_TRUE(r.add("03", {CardRole::Kind::deck_card, -1, "chance", "advance_to_go"}, ""));
  r.clear_players();
  EXPECT_FALSE(r.find("01"));
  EXPECT_TRUE(r.find("02"));
  EXPECT_TRUE(r.find("03"));
}

}  // namespace
}  // namespace bb::table
