// Game life, the turn flow and the cards at the table, from scripted events through a real ledger.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "ledger_test_support.h"
#include "table_test_support.h"

namespace bb::table::testing {
namespace {

using QK = display::TableQuestion::Kind;

TEST_F(TableTest, WithoutAGameTheTableWaitsForTheSetupAndHandsCardsToIt) {
  EXPECT_EQ(table->view().awaiting.kind, Awaiting::Kind::setup);
  EXPECT_FALSE(table->view().unfinished_game);
  auto r = tap("04aabbcc");
  ASSERT_EQ(r.cards.size(), 1u);  // the setup screen registers it
  EXPECT_EQ(r.cards[0].uid, "04AABBCC");
  EXPECT_EQ(r.cards[0].player, std::nullopt);
  r = dice(3, 4);
  EXPECT_TRUE(contains(r.messages, "start one on the setup screen"));
}

TEST_F(TableTest, TwoPlayersWithOneCardAreRefused) {
  auto r = start({"Ann", "Bob"}, {kAnnCard, "a1:a1:a1:a1"});
  EXPECT_TRUE(contains(r.messages, "already Ann's card")) << r.messages.front();
  EXPECT_EQ(store->game(), nullptr);
  r = start({"Ann", "Bob"}, {kAnnCard, kBankerCard});
  EXPECT_TRUE(contains(r.messages, "the banker's card"));
  EXPECT_EQ(store->game(), nullptr);
}

TEST_F(TableTest, ANewGameSeatsThePlayersCardsAndWaitsForTheFirstThrow) {
  const auto r = start();
  ASSERT_NE(store->game(), nullptr);
  EXPECT_TRUE(r.cards_changed);
  ASSERT_TRUE(table->cards().find(kAnnCard));
  EXPECT_EQ(table->cards().find(kBobCard)->player, rules::PlayerId{1});
  EXPECT_EQ(table->cards().find(kBankerCard)->kind, CardRole::Kind::banker);
  EXPECT_EQ(table->view().awaiting.kind, Awaiting::Kind::throw_dice);
  EXPECT_EQ(table->view().awaiting.player, rules::PlayerId{0});
}

TEST_F(TableTest, AThrowIsStoredUnderTheDiceEventsIdAndShowsWhereTheTokenMustGo) {
  start();
  const auto r = dice(1, 2, "dice:unit:41");
  ASSERT_EQ(r.recorded.size(), 1u);
  EXPECT_TRUE(ledger->has_input(*store->current(), "dice:unit:41"));
  EXPECT_EQ(table->view().expected_positions.at(0), rules::SpaceId{3});    // Baltic Avenue
  EXPECT_EQ(table->view().awaiting.kind, Awaiting::Kind::rules_question);  // buy it?
  // The same event again (a reader's repeat, a re-delivery) changes nothing.
  const auto before = inputs();
  const auto again = dice(1, 2, "dice:unit:41");
  EXPECT_TRUE(again.recorded.empty());
  EXPECT_EQ(inputs(), before);
}

TEST_F(TableTest, ATapDeliveredAgainAfterACrashIsNeverPostedTwice) {
  settings.draw_mode = DrawMode::stickers;
  settings.cards.push_back(
      {"DEC0DE01", {CardRole::Kind::deck_card, std::nullopt, "chance", "bank_dividend"}});
  open(settings);
  start();
  dice(3, 4);  // Chance
  ASSERT_TRUE(question());
  EXPECT_EQ(question()->kind, QK::pick_card);
  const auto cash_before = cash(0);
  const auto r = tap("DEC0DE01", "rc522:reader:777");
  ASSERT_EQ(r.recorded.size(), 1u);
  EXPECT_EQ(cash(0), cash_before + 50);
  const auto count = inputs();
  // The service dies before it acknowledged the tap; at restart the reader delivers it again.
  restart();
  EXPECT_NE(table->view().status.find("Resumed game"), std::string::npos);
  EXPECT_NE(table->view().status.find(fmt::format("from input {}", count)), std::string::npos)
      << table->view().status;
  const auto again = tap("DEC0DE01", "rc522:reader:777");
  EXPECT_TRUE(again.recorded.empty());
  EXPECT_EQ(inputs(), count);
  EXPECT_EQ(cash(0), cash_before + 50);
  const auto ids = ledger::testing::stored_id_counts(db);
  EXPECT_EQ(ids.at("1:rc522:reader:777"), 1);
}

TEST_F(TableTest, RentWaitsForThePayersTapAndTheWrongCardIsRefusedWithTheReason) {
  start();
  dice(1, 2);  // Ann on Baltic Avenue
  touch(display::ApplyInput{
      rules::Choose{rules::PlayerId{0}, {rules::Answer::buy}}, {}, rules::PlayerId{0}, {}});
  ASSERT_EQ(game().state().spaces[3].owner, rules::PlayerId{0});
  EXPECT_FALSE(question());  // a purchase was confirmed on the screen by Ann's card already
  dice(1, 2);                // Bob on Baltic Avenue: rent to Ann
  ASSERT_TRUE(question());
  EXPECT_EQ(question()->kind, QK::confirm_payment);
  EXPECT_EQ(question()->player, rules::PlayerId{1});
  EXPECT_NE(question()->text.find("Bob pays Ann"), std::string::npos) << question()->text;
  EXPECT_EQ(table->view().awaiting.kind, Awaiting::Kind::tap_card);
  // Nothing goes on until Bob taps.
  auto r = dice(2, 3);
  EXPECT_TRUE(contains(r.messages, "Not now"));
  EXPECT_TRUE(r.recorded.empty());
  r = tap(kAnnCard);
  EXPECT_TRUE(contains(r.messages, "That is Ann's card: Bob must tap")) << r.messages.front();
  EXPECT_TRUE(question());
  r = tap(kBobCard, {}, 10'000);
  EXPECT_TRUE(contains(r.messages, "Confirmed"));
  EXPECT_FALSE(question());
  // The reader repeats its frame: the same tap, counted once (no refusal, nothing handed on), and said so.
  r = tap(kBobCard, {}, 10'300);
  EXPECT_TRUE(contains(r.messages, "Bob's card: already counted")) << r.messages.size();
  EXPECT_TRUE(r.cards.empty());
  // Lifted and tapped again a moment later (the reader itself told it from a card lying there): a new tap,
  // heard, for the screen (Bob's properties, a dialog waiting for him).
  r = tap(kBobCard, {}, 11'000);
  ASSERT_EQ(r.cards.size(), 1u);
  EXPECT_EQ(r.cards[0].player, rules::PlayerId{1});
}

TEST_F(TableTest, SalaryIsAutomaticUnlessTheSettingAsksForATap) {
  settings.automatic_bank_payments = false;
  settings.draw_mode = DrawMode::pick_on_screen;
  open(settings);
  start();
  dice(3, 4);  // Chance
  ASSERT_TRUE(question());
  answer("card:bank_dividend");
  ASSERT_TRUE(question());
  EXPECT_EQ(question()->kind, QK::confirm_payment);
  EXPECT_EQ(question()->player, rules::PlayerId{0});  // the bank pays Ann: she acknowledges it
  tap(kAnnCard);
  EXPECT_FALSE(question());
}

TEST_F(TableTest, AnUnknownCardIsOfferedForRegistration) {
  start();
  auto r = tap("0DDC0FFE");
  ASSERT_TRUE(r.question);
  EXPECT_EQ(r.question->kind, QK::register_card);
  EXPECT_TRUE(r.cards.empty());
  r = answer("player:1");
  EXPECT_TRUE(r.cards_changed);
  ASSERT_TRUE(table->cards().find("0DDC0FFE"));
  EXPECT_EQ(table->cards().find("0DDC0FFE")->player, rules::PlayerId{1});  // Bob's second card
  // The service keeps it: after a restart Bob's second card still works.
  restart();
  ASSERT_TRUE(table->cards().find("0DDC0FFE"));
  EXPECT_EQ(table->cards().find("0DDC0FFE")->player, rules::PlayerId{1});
  // And in the next game it is Bob's wherever he sits, never the card of whoever takes his old seat.
  touch(display::ApplyInput{rules::End{}, {}, std::nullopt, {}});
  start({"Bob", "Cy"}, {kBobCard, kCyCard});
  ASSERT_TRUE(table->cards().find("0DDC0FFE"));
  EXPECT_EQ(table->cards().find("0DDC0FFE")->player, rules::PlayerId{0});
  start({"Ann", "Cy"}, {kAnnCard, kCyCard});
  EXPECT_FALSE(table->cards().find("0DDC0FFE"));
}

TEST_F(TableTest, TheBankersCardRegistersOnlyWithThePin) {
  start();
  tap("0DDC0FFE");
  auto r = answer("banker", "1111");
  EXPECT_TRUE(contains(r.messages, "Wrong PIN"));
  EXPECT_FALSE(table->cards().find("0DDC0FFE"));
  r = answer("banker", kPin);
  ASSERT_TRUE(table->cards().find("0DDC0FFE"));
  EXPECT_EQ(table->cards().find("0DDC0FFE")->kind, CardRole::Kind::banker);
}

TEST_F(TableTest, ACardWithNothingToConfirmIsRefused) {
  settings.cards.push_back(
      {"DEC0DE01", {CardRole::Kind::deck_card, std::nullopt, "chance", "bank_dividend"}});
  open(settings);
  start();
  auto r = tap("DEC0DE01");  // a Chance card while nobody draws
  EXPECT_TRUE(contains(r.messages, "No card is to be drawn now"));
  EXPECT_TRUE(r.recorded.empty());
  // A player's card with nothing of the table's waiting goes to the screen (their properties, a dialog).
  r = tap(kAnnCard);
  ASSERT_EQ(r.cards.size(), 1u);
  EXPECT_EQ(r.cards[0].player, rules::PlayerId{0});
}

TEST_F(TableTest, GamesEndWithStandingsAndStayBrowsable) {
  start();
  dice(1, 2);
  touch(display::ApplyInput{
      rules::Choose{rules::PlayerId{0}, {rules::Answer::buy}}, {}, rules::PlayerId{0}, {}});
  auto r = touch(display::ApplyInput{rules::End{}, {}, std::nullopt, {}});
  ASSERT_EQ(r.recorded.size(), 1u);
  EXPECT_TRUE(game().state().ended);
  EXPECT_EQ(table->view().awaiting.kind, Awaiting::Kind::game_over);
  const auto& standings = table->view().standings;
  ASSERT_EQ(standings.size(), 2u);
  EXPECT_GE(standings[0].worth, standings[1].worth);
  EXPECT_TRUE(standings[0].winner);
  r = tap(kAnnCard);
  EXPECT_TRUE(contains(r.messages, "The game is over"));
  // A second game in the same database; the first stays as history.
  start({"Cy", "Dee", "Eve"}, {kCyCard, "D4D4D4D4", "E5E5E5E5"});
  EXPECT_EQ(game().state().players.size(), 3u);
  EXPECT_FALSE(table->cards().find(kAnnCard));  // last game's players' cards are not this game's
  const auto games = table->games();
  ASSERT_EQ(games.size(), 2u);
  int finished = 0;
  for (const auto& g : games) finished += g.finished_at.has_value();
  EXPECT_EQ(finished, 1);
  // The finished game opens to look at, and refuses play.
  const auto second = *store->current();
  table->open_game(games.front().id == second ? games.back().id : games.front().id);
  EXPECT_TRUE(game().state().ended);
  EXPECT_NE(table->view().status.find("finished"), std::string::npos) << table->view().status;
  EXPECT_EQ(table->view().standings.size(), 2u);
  r = dice(2, 3);
  EXPECT_TRUE(r.recorded.empty());
  EXPECT_FALSE(r.messages.empty());
  touch(display::ResumeGame{});
  EXPECT_EQ(*store->current(), second);
  // At start the service resumes the unfinished one.
  restart();
  EXPECT_EQ(game().state().players.size(), 3u);
  EXPECT_EQ(table->cards().find(kCyCard)->player, rules::PlayerId{0});
}

TEST_F(TableTest, UndoNeedsTheBankerAndAReason) {
  start();
  dice(1, 2);
  const auto count = inputs();
  auto r = touch(display::ApplyInput{rules::Undo{}, "Wrong dice entered", std::nullopt, {}});
  EXPECT_TRUE(contains(r.messages, "banker's card or PIN"));
  EXPECT_EQ(inputs(), count);
  r = touch(display::ApplyInput{rules::Undo{}, {}, std::nullopt, "pin"});
  EXPECT_TRUE(contains(r.messages, "Say why"));
  r = touch(display::ApplyInput{rules::Undo{}, "Wrong dice entered", std::nullopt, kBankerCard});
  ASSERT_EQ(r.recorded.size(), 1u);
  EXPECT_EQ(game().state().players[0].position, rules::SpaceId{0});
  EXPECT_TRUE(contains(stored_authorisations(db), "BA0BA0BA|Wrong dice entered"));
}

}  // namespace
}  // namespace bb::table::testing

namespace bb::table::testing {
namespace {

// The colours chosen on the setup screen are stored with the players: after a restart the table shows them
// again (before, a resumed game fell back to seat order).
TEST_F(TableTest, ThePlayersColoursComeBackAfterARestart) {
  display::StartGame sg;
  sg.setup.edition = "classic";
  sg.setup.seed = 7;
  sg.setup.players = {{"Ann", "car", "", {}}, {"Bob", "dog", "", {}}};
  sg.colours = {4, 1};
  touch(sg);
  ASSERT_EQ(table->view().colours, (std::vector<int>{4, 1}));
  restart();
  EXPECT_NE(table->view().status.find("Resumed game"), std::string::npos);
  EXPECT_EQ(table->view().colours, (std::vector<int>{4, 1}));
}

}  // namespace
}  // namespace bb::table::testing
