// What the table keeps across a restart: the cards registered during a game and the payments their payers
// confirmed, stored in the ledger with the game (the `card` and `confirm` inputs), never in the service's
// memory. Each restart here opens the ledger again with the settings the table started with, as a service
// that was killed would.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "ledger_test_support.h"
#include "table_test_support.h"

namespace bb::table::testing {
namespace {

using QK = display::TableQuestion::Kind;

// A restart from the configuration alone: nothing the table learned in memory survives.
class RestartTest : public TableTest {
 protected:
  void kill_and_restart() {
    open(configured);
    table->start_up();
  }
  TableSettings configured;
  void SetUp() override { configured = settings; }
};

TEST_F(RestartTest, ACardRegisteredDuringAGameIsStoredWithItAndKnownAfterARestart) {
  start();
  tap("0DDC0FFE");
  auto r = answer("player:1");
  ASSERT_EQ(r.recorded.size(), 1u);  // the registration is an input of the game
  tap("BA0BA0BB");
  answer("banker", kPin);
  ASSERT_TRUE(table->cards().find("BA0BA0BB"));
  kill_and_restart();
  ASSERT_TRUE(table->cards().find("0DDC0FFE"));
  EXPECT_EQ(table->cards().find("0DDC0FFE")->player, rules::PlayerId{1});
  ASSERT_TRUE(table->cards().find("BA0BA0BB"));
  EXPECT_EQ(table->cards().find("BA0BA0BB")->kind, CardRole::Kind::banker);
  EXPECT_TRUE(table->invariant_violations().empty());
  // Bob's second card answers for Bob after the restart: his rent waits for his tap and this card gives it.
  dice(1, 2);  // Ann on Baltic Avenue
  touch(display::ApplyInput{
      rules::Choose{rules::PlayerId{0}, {rules::Answer::buy}}, {}, rules::PlayerId{0}, {}});
  dice(1, 2);  // Bob on Baltic Avenue: rent to Ann
  ASSERT_TRUE(question());
  ASSERT_EQ(question()->kind, QK::confirm_payment);
  r = tap("0DDC0FFE");
  EXPECT_TRUE(contains(r.messages, "Confirmed")) << (r.messages.empty() ? "" : r.messages.front());
}

TEST_F(RestartTest, AStickeredDeckCardRegisteredAtTheTableDrawsItselfAfterARestart) {
  configured.draw_mode = DrawMode::stickers;
  open(configured);
  start();
  tap("DEC0DE02");
  answer("deck:chance");
  answer("sticker:chance:bank_dividend");
  kill_and_restart();
  ASSERT_TRUE(table->cards().find("DEC0DE02"));
  EXPECT_EQ(table->cards().find("DEC0DE02")->card, "bank_dividend");
  dice(3, 4);  // Chance
  ASSERT_TRUE(question());
  ASSERT_EQ(question()->kind, QK::pick_card);
  const auto before = cash(0);
  tap("DEC0DE02");
  EXPECT_EQ(cash(0), before + 50);
}

TEST_F(RestartTest, APaymentConfirmedBeforeACrashIsNotAskedAgain) {
  start();
  dice(1, 2);
  touch(display::ApplyInput{
      rules::Choose{rules::PlayerId{0}, {rules::Answer::buy}}, {}, rules::PlayerId{0}, {}});
  dice(1, 2);  // Bob pays Ann the rent
  ASSERT_TRUE(question());
  const auto rent = cash(0);
  auto r = tap(kBobCard, "wiegand:door:5000");
  ASSERT_EQ(r.recorded.size(), 1u);  // the confirmation is stored
  EXPECT_FALSE(question());
  const auto count = inputs();
  kill_and_restart();
  EXPECT_FALSE(question()) << question()->text;
  EXPECT_EQ(table->view().awaiting.kind, Awaiting::Kind::throw_dice);
  // The reader delivers the same tap again after the restart: nothing is posted twice, nothing is asked.
  r = tap(kBobCard, "wiegand:door:5000");
  EXPECT_TRUE(r.recorded.empty());
  EXPECT_TRUE(r.cards.empty());
  EXPECT_EQ(inputs(), count);
  EXPECT_EQ(cash(0), rent);
  EXPECT_EQ(ledger::testing::stored_id_counts(db).at("1:wiegand:door:5000"), 1);
  r = dice(2, 3);
  EXPECT_EQ(r.recorded.size(), 1u);
}

TEST_F(RestartTest, APaymentNotConfirmedBeforeACrashIsAskedAgainOnce) {
  start();
  dice(1, 2);
  touch(display::ApplyInput{
      rules::Choose{rules::PlayerId{0}, {rules::Answer::buy}}, {}, rules::PlayerId{0}, {}});
  dice(1, 2);  // Bob pays Ann the rent; the service dies before Bob taps
  ASSERT_TRUE(question());
  const std::string text = question()->text;
  kill_and_restart();
  ASSERT_TRUE(question());
  EXPECT_EQ(question()->kind, QK::confirm_payment);
  EXPECT_EQ(question()->player, rules::PlayerId{1});
  EXPECT_EQ(question()->text, text);
  EXPECT_EQ(table->view().awaiting.kind, Awaiting::Kind::tap_card);
  auto r = dice(2, 3);
  EXPECT_TRUE(contains(r.messages, "Not now"));
  tap(kBobCard);
  EXPECT_FALSE(question());
  kill_and_restart();
  EXPECT_FALSE(question());
}

// The ledger resumes the game from a snapshot taken after its newest input, so the engine holds none of the
// inputs since the throw: the table rebuilds the game from its log to find the payment still to confirm.
TEST_F(RestartTest, APaymentNotConfirmedIsAskedAgainWhenTheGameResumesFromASnapshot) {
  snapshot_every_inputs = 1;
  open(configured);
  start();
  dice(1, 2);
  touch(display::ApplyInput{
      rules::Choose{rules::PlayerId{0}, {rules::Answer::buy}}, {}, rules::PlayerId{0}, {}});
  dice(1, 2);  // Bob pays Ann the rent; the service dies before Bob taps
  ASSERT_TRUE(question());
  kill_and_restart();
  ASSERT_TRUE(question());
  EXPECT_EQ(question()->kind, QK::confirm_payment);
  EXPECT_EQ(question()->player, rules::PlayerId{1});
  tap(kBobCard);
  EXPECT_FALSE(question());
  kill_and_restart();
  EXPECT_FALSE(question());
}

TEST_F(RestartTest, AConfirmationOnTheScreenWithoutAReaderIsStoredToo) {
  start();
  display::DeviceStatus gone;
  gone.kind = display::DeviceStatus::Kind::card_reader;
  gone.name = "Card reader";
  gone.state = display::DeviceStatus::State::missing;
  event(DeviceHealth{gone});
  dice(1, 2);
  touch(display::ApplyInput{
      rules::Choose{rules::PlayerId{0}, {rules::Answer::buy}}, {}, rules::PlayerId{0}, {}});
  dice(1, 2);
  ASSERT_TRUE(question());
  auto r = answer("confirm");
  ASSERT_EQ(r.recorded.size(), 1u);
  kill_and_restart();
  EXPECT_FALSE(question());
}

TEST_F(RestartTest, AnUndoneThrowsPaymentsAreNotAskedAgain) {
  start();
  dice(1, 2);
  touch(display::ApplyInput{
      rules::Choose{rules::PlayerId{0}, {rules::Answer::buy}}, {}, rules::PlayerId{0}, {}});
  dice(1, 2);  // rent
  ASSERT_TRUE(question());
  touch(display::ApplyInput{rules::Undo{}, "wrong dice", std::nullopt, "pin"});
  EXPECT_FALSE(question());
  kill_and_restart();
  EXPECT_FALSE(question());
  EXPECT_EQ(table->view().awaiting.kind, Awaiting::Kind::throw_dice);
}

}  // namespace
}  // namespace bb::table::testing
