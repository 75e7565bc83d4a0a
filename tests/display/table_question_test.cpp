#include <gtest/gtest.h>

#include "display/font_set.h"
#include "display/ui.h"
#include "display_test_support.h"

// The table's own questions on the real screen: shown from the snapshot, answered by touch as AnswerQuestion.
namespace bb::display {
namespace {

// Two players at the start of a classic game.
SampleTable question_table() { return testing::started_table("question", {"Ann", "Bob"}); }

using testing::Harness;

TableQuestion camera_question() {
  TableQuestion q;
  q.id = "q7";
  q.kind = TableQuestion::Kind::camera_mismatch;
  q.title = "Where is the car?";
  q.text = "The car is on Illinois Avenue, the dice say Kentucky Avenue";
  q.options = {{"move_token", "Move it to Kentucky Avenue", false, false},
               {"enter_dice", "The dice were wrong: enter them", true, true},
               {"camera_wrong", "The camera is wrong", false, false}};
  return q;
}

std::vector<AnswerQuestion> answers(const Harness& h) {
  std::vector<AnswerQuestion> out;
  for (const auto& i : h.intents)
    if (const auto* a = std::get_if<AnswerQuestion>(&i)) out.push_back(*a);
  return out;
}

void expect_sound(Harness& h) {
  const auto bad = testing::structural_problems(h.frame(), Layout::for_window(800, 480));
  EXPECT_TRUE(bad.empty()) << bad.front();
}

TEST(TableQuestion, TheCamerasQuestionShowsAndIsAnsweredByTouch) {
  Harness h(question_table());
  h.ask(camera_question());
  EXPECT_TRUE(h.frame().shows("The car is on Illinois Avenue, the dice say Kentucky Avenue"));
  expect_sound(h);
  h.tap("question.camera_wrong");
  const auto a = answers(h);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].question, "q7");
  EXPECT_EQ(a[0].option, "camera_wrong");
  EXPECT_EQ(h.applied, 0);  // the screen changed nothing: the table decides
}

TEST(TableQuestion, TheDiceWereWrongAsksForTheDiceThenTheBankersPin) {
  Harness h(question_table());
  h.ask(camera_question());
  h.tap("question.enter_dice");
  h.tap("dice.1.1");
  h.tap("dice.2.3");
  h.tap("dice.ok");
  EXPECT_TRUE(answers(h).empty());
  EXPECT_EQ(h.applied, 0) << "the dice go to the table's question, not to the rules";
  for (const char* k : {"2", "4", "6", "8"}) h.tap(std::string("keypad.") + k);
  h.tap("keypad.ok");
  const auto a = answers(h);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].option, "enter_dice");
  EXPECT_EQ(a[0].value, "1,3;2468");
}

TEST(TableQuestion, ALongListOfAnswersIsChosenFromAList) {
  Harness h(question_table());
  TableQuestion q;
  q.id = "q9";
  q.kind = TableQuestion::Kind::pick_card;
  q.title = "Ann draws a Chance card";
  q.text = "Which Chance card did Ann draw?";
  for (const char* c : {"advance_to_go", "bank_dividend", "go_back_3", "poor_tax", "get_out_of_jail"})
    q.options.push_back({std::string("card:") + c, c, false, false});
  h.ask(q);
  expect_sound(h);
  h.tap("question.list");
  h.tap("choice.1");
  const auto a = answers(h);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].option, "card:bank_dividend");
}

TEST(TableQuestion, APaymentWaitingForACardSaysWhoTaps) {
  Harness h(question_table());
  TableQuestion q;
  q.id = "q3";
  q.kind = TableQuestion::Kind::confirm_payment;
  q.title = "Bob, tap your card";
  q.text = "Bob pays Ann $4 (rent Baltic Avenue)";
  q.player = rules::PlayerId{1};
  h.ask(q);
  EXPECT_TRUE(h.frame().shows("Bob pays Ann $4 (rent Baltic Avenue)"));
  EXPECT_TRUE(h.frame().shows("Bob, tap your card"));
  expect_sound(h);
  // When the table has its answer the question leaves the snapshot and the dialog closes.
  h.ask(std::nullopt);
  EXPECT_FALSE(h.frame().shows("Bob pays Ann $4 (rent Baltic Avenue)"));
}

}  // namespace
}  // namespace bb::display

namespace bb::display {
namespace {

TEST(HousePayment, AskedOnThePropertyScreenGoesToTheTableAsARequest) {
  Harness h(question_table());
  h.tap("nav.properties");
  h.tap("props.player.1");
  h.tap("props.house_rule");
  h.tap("choice.1");  // the bank pays Bob
  h.tap("keypad.1");
  h.tap("keypad.2");
  h.tap("keypad.0");
  h.tap("keypad.ok");
  h.tap("choice.0");  // Free Parking jackpot
  std::vector<RequestHousePayment> asked;
  for (const auto& i : h.intents)
    if (const auto* r = std::get_if<RequestHousePayment>(&i)) asked.push_back(*r);
  ASSERT_EQ(asked.size(), 1u);
  EXPECT_EQ(asked[0].from, rules::Account::bank());
  EXPECT_EQ(asked[0].to, rules::PlayerId{1});
  EXPECT_EQ(asked[0].amount, 120);
  EXPECT_EQ(asked[0].reason, "Free Parking jackpot");
  EXPECT_EQ(h.applied, 0) << "nothing is paid before the banker's card";
}

}  // namespace
}  // namespace bb::display

namespace bb::display {
namespace {

TEST(TableStatus, TheTablesStatusIsSaidOnceInTheStatusLine) {
  auto t = SampleTable::start("status", EDITIONS_DIR, {"Ann", "Bob"}, 5);
  ASSERT_TRUE(t) << t.error();
  Ui ui;
  auto fonts = FontSet::open();
  ASSERT_TRUE(fonts) << fonts.error();
  Snapshot s = t->snapshot();
  s.table_status = "Resumed game 3 from input 57";
  ui.build(s, Layout::for_window(800, 480), **fonts, 0);
  EXPECT_EQ(ui.message(), "Resumed game 3 from input 57");
  ui.say("");
  ui.build(s, Layout::for_window(800, 480), **fonts, 1);
  EXPECT_EQ(ui.message(), "") << "said once, not again at every frame";
}

}  // namespace
}  // namespace bb::display

namespace bb::display {
namespace {

TEST(TableStatus, TheBoardSaysWhereATokenMustBeMoved) {
  auto t = SampleTable::start("expected", EDITIONS_DIR, {"Ann", "Bob"}, 5);
  ASSERT_TRUE(t) << t.error();
  ASSERT_TRUE(t->apply(rules::Roll{1, 2}));
  Ui ui;
  auto fonts = FontSet::open();
  ASSERT_TRUE(fonts) << fonts.error();
  Snapshot s = t->snapshot();
  s.expected_positions = {rules::SpaceId{3}, std::nullopt};
  ui.go(ScreenId::board);
  const auto& frame = ui.build(s, Layout::for_window(800, 480), **fonts, 0);
  EXPECT_TRUE(frame.shows("move to Baltic Avenue"));
}

}  // namespace
}  // namespace bb::display
