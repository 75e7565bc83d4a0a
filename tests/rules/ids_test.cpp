// The typed ids and accounts of rules/ids.h: what each says on the wire, and that "nobody" and the bank are
// values of their own, never a player's number.
#include "rules/ids.h"

#include <gtest/gtest.h>

#include <optional>
#include <type_traits>
#include <vector>

#include "rules/space_set.h"

using namespace bb::rules;

TEST(PlayerIdTest, IsExplicitAndIndexesBySeat) {
  static_assert(!std::is_convertible_v<int, PlayerId>, "a bare int never becomes a player by accident");
  static_assert(!std::is_convertible_v<PlayerId, SpaceId>, "a player is never a space");
  PlayerId ann{0}, bob{1};
  EXPECT_LT(ann, bob);
  EXPECT_EQ(bob.number(), 1);
  EXPECT_EQ(bob.index(), 1u);
  ById<PlayerId, int> cash{1500, 1400};
  EXPECT_EQ(cash[bob], 1400);
  int seats = 0;
  for (PlayerId p : cash.ids()) EXPECT_EQ(p.number(), seats++);
  EXPECT_EQ(seats, 2);
}

TEST(PlayerIdTest, NobodyIsSpelledMinusTwoOnTheWireOnly) {
  EXPECT_EQ(player_wire(std::nullopt), -2);
  EXPECT_EQ(player_wire(PlayerId{3}), 3);
  EXPECT_EQ(player_from_wire(-2), std::nullopt);
  EXPECT_EQ(player_from_wire(-1), std::nullopt);
  EXPECT_EQ(player_from_wire(0), PlayerId{0});
}

TEST(PlayerOrNobodyTest, SaysWhatAnOptionalPlayerIdSaysInOneInt) {
  static_assert(sizeof(PlayerOrNobody) == sizeof(int));
  PlayerOrNobody nobody, also_nobody = std::nullopt, bob = PlayerId{1};
  EXPECT_FALSE(nobody.has_value());
  EXPECT_FALSE(static_cast<bool>(also_nobody));
  EXPECT_TRUE(nobody == std::nullopt);
  EXPECT_TRUE(nobody == also_nobody);
  EXPECT_TRUE(bob.has_value());
  EXPECT_EQ(*bob, PlayerId{1});
  EXPECT_EQ(bob->number(), 1);
  EXPECT_EQ(bob.value(), PlayerId{1});
  EXPECT_THROW((void)nobody.value(), std::bad_optional_access);
  EXPECT_EQ(nobody.value_or(PlayerId{3}), PlayerId{3});
  EXPECT_EQ(bob.value_or(PlayerId{3}), PlayerId{1});
  // Nobody equals no player, whichever seat: the comparison a board scan makes.
  for (int seat = 0; seat < 8; ++seat) {
    EXPECT_FALSE(nobody == PlayerId{seat});
    EXPECT_EQ(bob == PlayerId{seat}, seat == 1);
  }
  bob.reset();
  EXPECT_EQ(bob, std::nullopt);
}

TEST(PlayerOrNobodyTest, ConvertsBothWaysWithStdOptional) {
  const std::optional<PlayerId> ann = PlayerId{0}, none;
  PlayerOrNobody from_ann = ann, from_none = none;
  EXPECT_EQ(from_ann, PlayerId{0});
  EXPECT_EQ(from_none, std::nullopt);
  EXPECT_TRUE(from_ann == ann);
  EXPECT_FALSE(from_none == ann);
  EXPECT_TRUE(from_none == none);
  const std::optional<PlayerId> back = from_ann, back_none = from_none;
  EXPECT_EQ(back, PlayerId{0});
  EXPECT_EQ(back_none, std::nullopt);
  EXPECT_EQ(player_wire(from_ann), 0);
  EXPECT_EQ(player_wire(from_none), -2);
}

TEST(AccountTest, IsTheBankOrAPlayer) {
  Account bank = Account::bank();
  Account ann = PlayerId{0};
  EXPECT_TRUE(bank.is_bank());
  EXPECT_FALSE(ann.is_bank());
  EXPECT_EQ(bank.player(), std::nullopt);
  EXPECT_EQ(ann.player(), PlayerId{0});
  EXPECT_TRUE(ann.is(PlayerId{0}));
  EXPECT_FALSE(ann.is(PlayerId{1}));
  EXPECT_FALSE(bank.is(PlayerId{0}));
  EXPECT_NE(bank, ann);
  EXPECT_EQ(ann, Account{PlayerId{0}});
}

TEST(AccountTest, TheBankIsSpelledMinusOneOnTheWire) {
  EXPECT_EQ(Account::bank().wire(), -1);
  EXPECT_EQ(Account{PlayerId{2}}.wire(), 2);
  EXPECT_EQ(Account::from_wire(-1), Account::bank());
  EXPECT_EQ(Account::from_wire(2), Account{PlayerId{2}});
  EXPECT_EQ(Account::from_wire(-2), std::nullopt);  // "nobody" is no account: a payment always has two sides
}

// A player's lots and a group's members as bits (rules/space_set.h): walked in board order across the words
// of a large board, counted and compared the same as a scan of the board would.
TEST(SpaceSetTest, WalksInBoardOrderAcrossWordsAndCountsLikeAScan) {
  SpaceSet lots;
  EXPECT_TRUE(lots.empty());
  EXPECT_EQ(lots.begin(), lots.end());
  for (int s : {199, 3, 64, 0, 63, 130}) lots.insert(SpaceId{s});
  lots.insert(SpaceId{3});  // twice is once
  std::vector<int> walked;
  for (SpaceId s : lots) walked.push_back(s.number());
  EXPECT_EQ(walked, (std::vector<int>{0, 3, 63, 64, 130, 199}));
  EXPECT_EQ(lots.size(), 6);
  EXPECT_TRUE(lots.contains(SpaceId{64}));
  EXPECT_FALSE(lots.contains(SpaceId{65}));
  lots.erase(SpaceId{64});
  EXPECT_FALSE(lots.contains(SpaceId{64}));
  EXPECT_EQ(lots.size(), 5);
  EXPECT_EQ(lots.find_first([](SpaceId s) { return s.number() > 60; }), SpaceId{63});
  EXPECT_EQ(lots.find_first([](SpaceId s) { return s.number() > 199; }), std::nullopt);

  SpaceSet group;
  for (int s : {3, 130}) group.insert(SpaceId{s});
  EXPECT_TRUE(lots.contains_all(group));
  EXPECT_EQ(lots.count_common(group), 2);
  group.insert(SpaceId{64});  // no longer in lots
  EXPECT_FALSE(lots.contains_all(group));
  EXPECT_EQ(lots.count_common(group), 2);
  EXPECT_TRUE(lots.contains_all(SpaceSet{}));
  SpaceSet same;
  for (SpaceId s : lots) same.insert(s);
  EXPECT_EQ(same, lots);
}
