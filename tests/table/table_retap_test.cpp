// Quick re-taps: a Wiegand reader cannot tell a card lying on it from a card lifted and tapped again, so its
// decoder flags the same card within 1.5 s as a repeat (PeripheralEvent::repeat) and the table judges it:
// a new tap when a payment waits for that card, "already counted" (said once) otherwise.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "table_test_support.h"

namespace bb::table::testing {
namespace {

using QK = display::TableQuestion::Kind;

// A card from the Wiegand reader, flagged (or not) as seen again within the reader's same-card window.
CardTapped wiegand_tap(const std::string& uid, std::int64_t at_ms, bool reader_repeat) {
  return CardTapped{uid, "wiegand", fmt::format("wiegand:reader:{}", at_ms * 1'000'000), at_ms,
                    reader_repeat};
}

TEST_F(TableTest, AQuickSecondTapConfirmsTheSecondPaymentInARow) {
  start();
  touch(display::RequestHousePayment{rules::PlayerId{0}, rules::Account::bank(), 50, "Free Parking jackpot"});
  touch(display::RequestHousePayment{rules::PlayerId{0}, rules::Account::bank(), 20, "Lost a bet"});
  ASSERT_TRUE(question());
  EXPECT_EQ(question()->kind, QK::house_payment);
  const auto before = cash(0);
  auto r = event(wiegand_tap(kAnnCard, 5'000, false));
  ASSERT_EQ(r.recorded.size(), 1u);
  EXPECT_EQ(cash(0), before - 50);
  ASSERT_TRUE(question());  // the second payment waits
  // Ann lifts her card and taps again 0.7 s later: the reader flags it as the same card, but the second
  // payment waits for her card, so it is heard.
  r = event(wiegand_tap(kAnnCard, 5'700, true));
  ASSERT_EQ(r.recorded.size(), 1u);
  EXPECT_EQ(cash(0), before - 70);
  EXPECT_FALSE(question());
  // She leaves it lying there and the reader repeats its frame: nothing waits, so nothing is done, and the
  // screen says so once (not every second while the card lies there).
  r = event(wiegand_tap(kAnnCard, 6'400, true));
  EXPECT_TRUE(r.recorded.empty());
  EXPECT_TRUE(r.cards.empty());
  EXPECT_TRUE(contains(r.messages, "Ann's card: already counted"))
      << (r.messages.empty() ? "" : r.messages[0]);
  r = event(wiegand_tap(kAnnCard, 7'100, true));
  EXPECT_TRUE(r.recorded.empty());
  EXPECT_TRUE(r.messages.empty());
  EXPECT_EQ(cash(0), before - 70);
}

TEST_F(TableTest, ACardLyingOnARepeatingReaderIsOneTapForTheScreen) {
  start();
  dice(1, 2);  // Ann on Baltic Avenue: the screen's buy dialog waits for her card
  auto r = event(wiegand_tap(kAnnCard, 1'000, false));
  ASSERT_EQ(r.cards.size(), 1u);
  EXPECT_EQ(r.cards[0].player, rules::PlayerId{0});
  // The reader repeats: not handed to the screen again (it could start a second purchase or bid).
  r = event(wiegand_tap(kAnnCard, 1'500, true));
  EXPECT_TRUE(r.cards.empty());
  EXPECT_TRUE(contains(r.messages, "already counted"));
  // Another card on the reader in between: Ann's card came back, a tap of its own.
  r = event(wiegand_tap(kBobCard, 1'800, false));
  r = event(wiegand_tap(kAnnCard, 2'100, true));
  ASSERT_EQ(r.cards.size(), 1u);
  EXPECT_EQ(r.cards[0].player, rules::PlayerId{0});
}

TEST_F(TableTest, TheSameFrameDeliveredAgainChangesNothingEvenWithAPaymentWaiting) {
  start();
  touch(display::RequestHousePayment{rules::PlayerId{0}, rules::Account::bank(), 50, "Free Parking jackpot"});
  touch(display::RequestHousePayment{rules::PlayerId{0}, rules::Account::bank(), 20, "Lost a bet"});
  const auto before = cash(0);
  auto tap_once = wiegand_tap(kAnnCard, 5'000, false);
  ASSERT_EQ(event(tap_once).recorded.size(), 1u);
  // The very same event again (a restart re-delivering it): its input is stored, the second payment still
  // waits for a tap of its own.
  tap_once.reader_repeat = true;
  EXPECT_TRUE(event(tap_once).recorded.empty());
  EXPECT_EQ(cash(0), before - 50);
  ASSERT_TRUE(question());
  EXPECT_EQ(question()->kind, QK::house_payment);
}

TEST_F(TableTest, TheBankersQuickSecondTapAuthorisesASecondPayout) {
  start();
  touch(
      display::RequestHousePayment{rules::Account::bank(), rules::PlayerId{1}, 100, "Free Parking jackpot"});
  touch(display::RequestHousePayment{rules::Account::bank(), rules::PlayerId{1}, 30, "Beauty contest"});
  const auto before = cash(1);
  ASSERT_EQ(event(wiegand_tap(kBankerCard, 9'000, false)).recorded.size(), 1u);
  ASSERT_EQ(event(wiegand_tap(kBankerCard, 9'800, true)).recorded.size(), 1u);
  EXPECT_EQ(cash(1), before + 130);
  const auto r = event(wiegand_tap(kBankerCard, 10'500, true));
  EXPECT_TRUE(r.recorded.empty());
  EXPECT_TRUE(contains(r.messages, "The banker's card: already counted"));
}

}  // namespace
}  // namespace bb::table::testing
