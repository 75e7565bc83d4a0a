// Money at the table outside a plain throw: house-rule payments, auctions and their deal timer, drawn cards.
#include <gtest/gtest.h>

#include "table_test_support.h"

namespace bb::table::testing {
namespace {

using QK = display::TableQuestion::Kind;

TEST_F(TableTest, AHouseRulePaymentWaitsForThePayersTapAndKeepsItsReason) {
  start();
  auto r = touch(
      display::RequestHousePayment{rules::PlayerId{0}, rules::Account::bank(), 50, "Free Parking jackpot"});
  ASSERT_TRUE(r.question);
  EXPECT_EQ(r.question->kind, QK::house_payment);
  EXPECT_EQ(r.question->player, rules::PlayerId{0});
  const auto before = cash(0);
  r = tap(kBobCard);
  EXPECT_TRUE(contains(r.messages, "Ann must tap"));
  EXPECT_EQ(cash(0), before);
  r = tap(kAnnCard, "wiegand:reader:9001");
  ASSERT_EQ(r.recorded.size(), 1u);
  EXPECT_EQ(cash(0), before - 50);
  EXPECT_FALSE(question());
  const auto& last = game().state().postings.back();
  EXPECT_EQ(last.memo, rules::Memo::house_rule);
  EXPECT_EQ(game().memo_text(last), "house rule: Free Parking jackpot");
  const auto csv = ledger->export_csv(*store->current());
  ASSERT_TRUE(csv);
  EXPECT_NE(csv->find("Free Parking jackpot"), std::string::npos);
  // Stored as its own script line and replayed the same.
  const auto script = ledger->export_script(*store->current());
  ASSERT_TRUE(script);
  EXPECT_NE(script->find("\"t\":\"house\""), std::string::npos) << *script;
  const auto problems = ledger::Ledger::inspect(db, ledger->options(), true);
  ASSERT_TRUE(problems);
  EXPECT_TRUE(problems->empty()) << problems->front();
}

TEST_F(TableTest, APayoutFromTheBankNeedsTheBanker) {
  start();
  touch(
      display::RequestHousePayment{rules::Account::bank(), rules::PlayerId{1}, 120, "Free Parking jackpot"});
  ASSERT_TRUE(question());
  EXPECT_TRUE(question()->banker);
  const auto before = cash(1);
  auto r = tap(kBobCard);
  EXPECT_TRUE(contains(r.messages, "the banker must tap"));
  EXPECT_EQ(cash(1), before);
  r = answer("confirm", "0000");
  EXPECT_TRUE(contains(r.messages, "Wrong PIN"));
  r = tap(kBankerCard);
  ASSERT_EQ(r.recorded.size(), 1u);
  EXPECT_EQ(cash(1), before + 120);
  // The ledger itself refuses a payout nobody authorised.
  const auto refused =
      store->record(rules::HousePayment{rules::Account::bank(), rules::PlayerId{0}, 10, "sneaky"},
                    {"x:1", "touch", {}, {}});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ledger::LedgerError::Kind::unauthorised);
}

TEST_F(TableTest, WithoutAWorkingReaderTheScreenConfirms) {
  start();
  event(DeviceHealth{{display::DeviceStatus::Kind::card_reader, "Card reader",
                      display::DeviceStatus::State::missing, "no answer", "check the reader"}});
  touch(display::RequestHousePayment{rules::PlayerId{0}, rules::PlayerId{1}, 30, "lost a bet"});
  ASSERT_TRUE(question());
  ASSERT_FALSE(question()->options.empty());
  EXPECT_EQ(question()->options.front().key, "confirm");
  const auto before = cash(1);
  answer("confirm");
  EXPECT_EQ(cash(1), before + 30);
}

// The service names each reader it opened. One unplugged while another works: the payer still taps (on the
// other one); every reader gone: the screen confirms; one back: taps again.
TEST_F(TableTest, TheServicesNamedReadersDecideWhetherTheScreenConfirms) {
  using State = display::DeviceStatus::State;
  start();
  event(
      DeviceHealth{{display::DeviceStatus::Kind::card_reader, "Card reader (door)", State::ok, "ready", ""}});
  event(DeviceHealth{{display::DeviceStatus::Kind::card_reader, "Card reader (RC522)", State::missing,
                      "no answer", "check the reader"}});
  touch(display::RequestHousePayment{rules::PlayerId{0}, rules::PlayerId{1}, 30, "lost a bet"});
  ASSERT_TRUE(question());
  auto has_confirm = [&] {
    for (const auto& o : question()->options)
      if (o.key == "confirm") return true;
    return false;
  };
  EXPECT_FALSE(has_confirm());
  event(DeviceHealth{{display::DeviceStatus::Kind::card_reader, "Card reader (door)", State::error,
                      "no frames", "check the reader"}});
  ASSERT_TRUE(question());
  EXPECT_TRUE(has_confirm());
  event(DeviceHealth{
      {display::DeviceStatus::Kind::card_reader, "Card reader (RC522)", State::ok, "card reader back", ""}});
  ASSERT_TRUE(question());
  EXPECT_FALSE(has_confirm());
}

TEST_F(TableTest, ABidAboveTheBiddersCashIsRefused) {
  start();
  dice(1, 2);
  touch(display::ApplyInput{
      rules::Choose{rules::PlayerId{0}, {rules::Answer::auction}}, {}, rules::PlayerId{0}, {}});
  ASSERT_TRUE(game().state().auction);
  EXPECT_EQ(table->view().awaiting.kind, Awaiting::Kind::bids);
  auto r =
      touch(display::ApplyInput{rules::Bid{rules::PlayerId{1}, cash(1) + 1}, {}, rules::PlayerId{1}, {}});
  EXPECT_TRUE(contains(r.messages, "Bob holds only"));
  EXPECT_TRUE(r.recorded.empty());
  r = touch(display::ApplyInput{rules::Bid{rules::PlayerId{1}, 40}, {}, rules::PlayerId{1}, {}});
  ASSERT_EQ(r.recorded.size(), 1u);
  EXPECT_TRUE(r.timers.empty());  // the classic edition has no deal timer
}

TEST_F(TableTest, TheDealTimerClosesTheAuctionOnce) {
  write_timed_edition(20);
  start({"Ann", "Bob"}, {kAnnCard, kBobCard}, "timed");
  dice(1, 2);
  auto r = touch(display::ApplyInput{
      rules::Choose{rules::PlayerId{0}, {rules::Answer::auction}}, {}, rules::PlayerId{0}, {}});
  ASSERT_EQ(r.timers.size(), 1u);
  EXPECT_EQ(r.timers[0].action, TimerRequest::Action::arm);
  EXPECT_EQ(r.timers[0].after_ms, 20000u);
  const auto timer_id = r.timers[0].id;
  touch(display::ApplyInput{rules::Bid{rules::PlayerId{1}, 40}, {}, rules::PlayerId{1}, {}});
  r = event(TimerFired{TimerId::deal, 123456, "timer:deal:999"});  // a stale timer does nothing
  EXPECT_TRUE(r.recorded.empty());
  r = event(TimerFired{TimerId::deal, 123456, timer_id});
  ASSERT_EQ(r.recorded.size(), 1u);
  EXPECT_FALSE(game().state().auction);
  EXPECT_EQ(game().state().spaces[3].owner, rules::PlayerId{1});
  const auto count = inputs();
  r = event(TimerFired{TimerId::deal, 123457, timer_id});  // fired twice: closes once
  EXPECT_TRUE(r.recorded.empty());
  EXPECT_EQ(inputs(), count);
}

TEST_F(TableTest, VirtualDecksDrawTheCardThemselves) {
  start();                           // draw_mode defaults to virtual decks
  const auto r = dice(3, 4);         // Chance
  ASSERT_EQ(r.recorded.size(), 2u);  // the throw, and the card the table drew
  EXPECT_FALSE(question() && question()->kind == QK::pick_card);
}

TEST_F(TableTest, ACardPickedOnTheScreenIsTheCardDrawn) {
  settings.draw_mode = DrawMode::pick_on_screen;
  open(settings);
  start();
  dice(3, 4);
  ASSERT_TRUE(question());
  EXPECT_EQ(question()->kind, QK::pick_card);
  answer("card:advance_to_go");
  EXPECT_EQ(game().state().players[0].position, rules::SpaceId{0});
  EXPECT_EQ(table->view().expected_positions[rules::PlayerId{0}], rules::SpaceId{0});
}

TEST_F(TableTest, AnUnknownStickeredDeckCardIsRegisteredThenDrawsItself) {
  settings.draw_mode = DrawMode::stickers;
  open(settings);
  start();
  tap("5717C4E5");
  ASSERT_TRUE(question());
  EXPECT_EQ(question()->kind, QK::register_card);
  answer("deck:chance");
  ASSERT_TRUE(question());
  EXPECT_EQ(question()->title, "Which Chance card is it?");
  const auto r = answer("sticker:chance:bank_dividend");
  EXPECT_TRUE(r.cards_changed);
  ASSERT_TRUE(table->cards().find("5717C4E5"));
  EXPECT_EQ(table->cards().find("5717C4E5")->card, "bank_dividend");
  dice(3, 4);  // Chance
  const auto before = cash(0);
  const auto drawn = tap("5717C4E5");
  ASSERT_EQ(drawn.recorded.size(), 1u);
  EXPECT_EQ(cash(0), before + 50);
}

TEST_F(TableTest, AStickerFromTheOtherDeckIsRefused) {
  settings.draw_mode = DrawMode::stickers;
  settings.cards.push_back({"C0FFEE01", {CardRole::Kind::deck_card, std::nullopt, "chest", "bank_error"}});
  open(settings);
  start();
  dice(3, 4);  // Chance
  const auto r = tap("C0FFEE01");
  EXPECT_TRUE(contains(r.messages, "from the other deck"));
  EXPECT_TRUE(r.recorded.empty());
}

}  // namespace
}  // namespace bb::table::testing
