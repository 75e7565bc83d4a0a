// The camera as a cross-check: it never posts; where it disagrees with the dice the table asks.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "table_test_support.h"

namespace bb::table::testing {
namespace {

using QK = display::TableQuestion::Kind;

class CameraTest : public TableTest {
 protected:
  void SetUp() override {
    event(DeviceHealth{
        {display::DeviceStatus::Kind::camera, "Camera", display::DeviceStatus::State::ok, "", ""}});
    start();
    ASSERT_TRUE(question());
    EXPECT_EQ(question()->kind, QK::learn_tokens);
    EXPECT_EQ(table->view().awaiting.kind, Awaiting::Kind::learn_tokens);
    seen(0, 0, TokenReport::Kind::learned);
    seen(1, 0, TokenReport::Kind::learned);
    ASSERT_FALSE(question());
  }
};

TEST_F(CameraTest, ATokenWhereTheDiceSayAsksNothing) {
  dice(1, 2);
  EXPECT_EQ(table->view().awaiting.kind, Awaiting::Kind::rules_question);  // buy Baltic Avenue?
  const auto r = seen(0, 3);
  EXPECT_FALSE(r.question);
  EXPECT_FALSE(question());
  EXPECT_EQ(table->view().expected_positions[rules::PlayerId{0}], std::nullopt);
  EXPECT_EQ(table->view().seen_positions[rules::PlayerId{0}], rules::SpaceId{3});
}

TEST_F(CameraTest, ATokenElsewhereIsAQuestionAndNothingIsPostedOnTheCamerasWord) {
  dice(1, 2);  // the dice say Baltic Avenue
  const auto count = inputs();
  const auto r = seen(0, 4);  // the camera sees the car on Income Tax
  ASSERT_TRUE(r.question);
  EXPECT_EQ(r.question->kind, QK::camera_mismatch);
  EXPECT_EQ(r.question->text, "The car is on Income Tax, the dice say Baltic Avenue");
  EXPECT_EQ(inputs(), count);
  EXPECT_EQ(game().state().players[0].position, rules::SpaceId{3});
  // "Move it": the question closes; the token's arrival where the dice say is checked again.
  answer("move_token");
  EXPECT_FALSE(question());
  seen(0, 3);
  EXPECT_FALSE(question());
  EXPECT_EQ(inputs(), count);
}

TEST_F(CameraTest, TheCameraIsWrong) {
  dice(1, 2);
  seen(0, 4);
  answer("camera_wrong");
  EXPECT_FALSE(question());
  EXPECT_EQ(table->view().expected_positions[rules::PlayerId{0}], std::nullopt);
  EXPECT_EQ(game().state().players[0].position, rules::SpaceId{3});
}

TEST_F(CameraTest, TheDiceWereWrongTheBankerEntersThem) {
  dice(1, 2);
  seen(0, 4);
  auto r = answer("enter_dice", "2,2;0000");
  EXPECT_TRUE(contains(r.messages, "Wrong PIN"));
  r = answer("enter_dice", std::string("1,3;") + kPin);
  ASSERT_EQ(r.recorded.size(), 2u);  // the wrong throw taken back, the right one stored
  EXPECT_EQ(game().state().players[0].position, rules::SpaceId{4});
  EXPECT_TRUE(contains(stored_authorisations(db), "pin|the dice were wrong: 1 and 3 entered"));
}

TEST_F(CameraTest, ATokenMovedWhenNobodyThrewIsAQuestion) {
  const auto count = inputs();
  const auto r = seen(1, 6);
  ASSERT_TRUE(r.question);
  EXPECT_EQ(r.question->kind, QK::token_moved);
  EXPECT_NE(r.question->text.find("nobody threw"), std::string::npos);
  EXPECT_EQ(inputs(), count);
  // Put back: the question goes away when the camera sees it back.
  seen(1, 0);
  EXPECT_FALSE(question());
}

TEST_F(CameraTest, AnUnsureSightingThatIncludesTheRightSpaceAsksNothing) {
  dice(1, 2);
  TokenReport t;
  t.kind = TokenReport::Kind::unsure;
  t.player = rules::PlayerId{0};
  t.to = rules::SpaceId{4};
  t.candidates = {rules::SpaceId{3}, rules::SpaceId{4}};
  t.id = "camera:900:0";
  const auto r = event(t);
  EXPECT_FALSE(r.question);
  EXPECT_EQ(table->view().expected_positions[rules::PlayerId{0}], std::nullopt);
  // The dice settle the camera's doubt: the tracker is told the car stands where they say.
  EXPECT_EQ(r.camera_settled,
            (std::optional<CameraSettled>{CameraSettled{rules::PlayerId{0}, rules::SpaceId{3}}}));
  // A doubt about a token nobody threw for that includes where the game has it asks nothing either, but
  // settles nothing: that it did not move is the table's guess, not the dice's word.
  TokenReport dog = t;
  dog.player = rules::PlayerId{1};
  dog.to = rules::SpaceId{0};
  dog.candidates = {rules::SpaceId{0}, rules::SpaceId{4}};
  dog.id = "camera:901:1";
  const auto d = event(dog);
  EXPECT_FALSE(d.question);
  EXPECT_EQ(d.camera_settled, std::nullopt);
}

TEST_F(CameraTest, TheFamilysAnswerToACameraQuestionSettlesTheTokenForTheCamera) {
  // The camera asked where the car is (unsure between Income Tax and Oriental Avenue; the dice say Baltic
  // Avenue): whichever way the family answers where it stands, the reaction hands that to the camera.
  using Settled = std::optional<CameraSettled>;
  const auto unsure_car = [&] {
    TokenReport t;
    t.kind = TokenReport::Kind::unsure;
    t.player = rules::PlayerId{0};
    t.to = rules::SpaceId{4};
    t.candidates = {rules::SpaceId{4}, rules::SpaceId{6}};
    t.id = fmt::format("camera:{}:0", next_id++);
    return event(t);
  };
  dice(1, 2);
  auto r = unsure_car();
  ASSERT_TRUE(r.question);
  EXPECT_EQ(r.question->kind, QK::camera_mismatch);
  EXPECT_EQ(r.camera_settled, Settled{}) << "a question is no answer";
  // "Move it": the family moves it; the camera sees it arrive (a doubt then is settled by the dice).
  r = answer("move_token");
  EXPECT_EQ(r.camera_settled, Settled{});
  // "The dice were wrong": the throw is taken back and entered again; where the token stands is not said.
  unsure_car();
  ASSERT_TRUE(question());
  r = answer("enter_dice", std::string("1,3;") + kPin);
  ASSERT_EQ(r.recorded.size(), 2u);
  EXPECT_EQ(r.camera_settled, Settled{});
  // The dice now say Income Tax and the camera sees the car, sure, on Oriental Avenue. "The camera is
  // wrong": the car stands where the dice say.
  r = seen(0, 6);
  ASSERT_TRUE(r.question);
  EXPECT_EQ(r.camera_settled, Settled{});
  r = answer("camera_wrong");
  EXPECT_EQ(r.camera_settled, (Settled{CameraSettled{rules::PlayerId{0}, rules::SpaceId{4}}}));
}

TEST_F(CameraTest, AnAnswerAboutATokenMovedWhenNobodyThrewSettlesItWhereTheGameHasIt) {
  using Settled = std::optional<CameraSettled>;
  for (const std::string option : {"move_token", "camera_wrong"}) {
    TokenReport t;
    t.kind = TokenReport::Kind::unsure;
    t.player = rules::PlayerId{1};
    t.to = rules::SpaceId{6};
    t.candidates = {rules::SpaceId{6}, rules::SpaceId{8}};
    t.id = fmt::format("camera:{}:1", next_id++);
    auto r = event(t);
    ASSERT_TRUE(r.question);
    EXPECT_EQ(r.question->kind, QK::token_moved);
    EXPECT_EQ(r.camera_settled, Settled{});
    r = answer(option);
    // "The camera is wrong": it never left. "Put it back": the camera sees it go back.
    const Settled want =
        option == "camera_wrong" ? Settled{CameraSettled{rules::PlayerId{1}, rules::SpaceId{0}}} : Settled{};
    EXPECT_EQ(r.camera_settled, want) << option;
  }
}

TEST_F(CameraTest, OtherAnswersSettleNoToken) {
  // The learning question's answers, a purchase, a payment: nothing for the camera to settle.
  using Settled = std::optional<CameraSettled>;
  dice(1, 2);
  EXPECT_EQ(seen(0, 3).camera_settled, Settled{});
  EXPECT_EQ(touch(display::ApplyInput{
                      rules::Choose{rules::PlayerId{0}, {rules::Answer::buy}}, {}, rules::PlayerId{0}, {}})
                .camera_settled,
            Settled{});
  EXPECT_EQ(
      touch(display::RequestHousePayment{rules::PlayerId{1}, rules::Account::bank(), 50, "a house rule"})
          .camera_settled,
      Settled{});
  ASSERT_TRUE(question());
  EXPECT_EQ(question()->kind, QK::house_payment);
  EXPECT_EQ(tap(kBobCard).camera_settled, Settled{});
  EXPECT_FALSE(question());
  EXPECT_EQ(table->learn_tokens_again().camera_settled, Settled{});
  ASSERT_TRUE(question());
  EXPECT_EQ(question()->kind, QK::learn_tokens);
  EXPECT_EQ(answer("one_by_one").camera_settled, Settled{});
}

TEST_F(CameraTest, ACameraLostMidGameDropsItsQuestionsAndTheDiceGoOn) {
  dice(1, 2);
  seen(0, 4);
  ASSERT_TRUE(question());
  TokenReport lost;
  lost.kind = TokenReport::Kind::lost;
  lost.detail = "no frames for 2 s";
  lost.id = "camera:901";
  const auto r = event(lost);
  EXPECT_TRUE(contains(r.messages, "the dice alone decide"));
  EXPECT_FALSE(question());
  EXPECT_FALSE(table->view().camera);
  touch(display::ApplyInput{
      rules::Choose{rules::PlayerId{0}, {rules::Answer::buy}}, {}, rules::PlayerId{0}, {}});
  EXPECT_EQ(game().state().spaces[3].owner, rules::PlayerId{0});
  dice(2, 3);
  EXPECT_EQ(game().state().players[1].position, rules::SpaceId{5});
}

TEST_F(CameraTest, WithoutTheCameraTheDiceAloneDecide) {
  auto r = event(DeviceHealth{{display::DeviceStatus::Kind::camera, "Camera",
                               display::DeviceStatus::State::missing, "no frames", "check the cable"}});
  EXPECT_TRUE(contains(r.messages, "the dice alone decide"));
  dice(1, 2);
  EXPECT_EQ(table->view().awaiting.kind, Awaiting::Kind::rules_question);
  EXPECT_FALSE(table->view().camera);
}

// A resumed game whose learned tokens were not kept: the service asks the table to learn them again. The
// tokens go on the start space, are learned, and go back to their spaces without a question (the camera
// sees each where the game has it); nothing is stored by any of it.
TEST_F(CameraTest, AResumedGameTheCameraDoesNotKnowLearnsTheTokensAgain) {
  dice(1, 2);
  seen(0, 3);
  restart();
  event(DeviceHealth{
      {display::DeviceStatus::Kind::camera, "Camera", display::DeviceStatus::State::ok, "", ""}});
  const auto count = inputs();
  const auto r = table->learn_tokens_again();
  ASSERT_TRUE(r.question);
  EXPECT_EQ(r.question->kind, QK::learn_tokens);
  EXPECT_NE(r.question->text.find("put each back on its space"), std::string::npos);
  EXPECT_EQ(table->view().awaiting.kind, Awaiting::Kind::learn_tokens);
  EXPECT_FALSE(table->learn_tokens_again().question) << "asked once";
  seen(0, 0, TokenReport::Kind::learned);
  seen(1, 0, TokenReport::Kind::learned);
  EXPECT_FALSE(question());
  const auto back = seen(0, 3);  // the car back on Baltic Avenue, where the game has it
  EXPECT_FALSE(back.question);
  EXPECT_FALSE(question());
  EXPECT_EQ(inputs(), count);
}

TEST_F(TableTest, NoLearningIsAskedWithoutACameraOrAGame) {
  EXPECT_FALSE(table->learn_tokens_again().question);  // no game
  start();
  EXPECT_FALSE(table->learn_tokens_again().question);  // no camera
  EXPECT_NE(table->view().awaiting.kind, Awaiting::Kind::learn_tokens);
}

TEST_F(TableTest, WithoutACameraThereIsNoLearningAndTheThrowAloneMovesTheGame) {
  start();
  EXPECT_FALSE(question());
  dice(1, 2);
  EXPECT_FALSE(question());
  EXPECT_EQ(table->view().awaiting.kind, Awaiting::Kind::rules_question);
}

}  // namespace
}  // namespace bb::table::testing
