// The typed ids and accounts of rules/ids.h: what each says on the wire, and that "nobody" and the bank are
// values of their own, never a player's number.
#include "rules/ids.h"

#include <gtest/gtest.h>

#include <optional>
#include <type_traits>

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
