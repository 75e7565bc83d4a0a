// Learning the tokens one at a time: where the tokens on the start space are not all found (crowded on GO, a
// metal grey one), the family empties the board and puts each token down alone when the table asks for it,
// by name; a token the camera cannot see is said, looked for again or left to the dice, and play goes on.
#include <gtest/gtest.h>

#include "table_test_support.h"

namespace bb::table::testing {
namespace {

using QK = display::TableQuestion::Kind;

class LearningTest : public TableTest {
 protected:
  void SetUp() override {
    event(DeviceHealth{
        {display::DeviceStatus::Kind::camera, "Camera", display::DeviceStatus::State::ok, "", ""}});
    start({"Ann", "Bob", "Cleo"}, {kAnnCard, kBobCard, "C3C3C3C3"});
    ASSERT_TRUE(question());
    ASSERT_EQ(question()->kind, QK::learn_tokens);
  }
  bool offers(const std::string& option) const {
    if (!question()) return false;
    for (const auto& o : question()->options)
      if (o.key == option) return true;
    return false;
  }
  Reaction incomplete(int player, std::string detail) {
    TokenReport t;
    t.kind = TokenReport::Kind::learn_incomplete;
    t.player = rules::PlayerId{player};
    t.detail = std::move(detail);
    t.id = "camera:learning";
    return event(t);
  }
};

TEST_F(LearningTest, TheLearningScreenOffersOneAtATimeAndAsksForEachTokenInTurn) {
  EXPECT_TRUE(offers("one_by_one"));
  auto r = answer("one_by_one");
  ASSERT_TRUE(r.camera_learning);
  EXPECT_EQ(r.camera_learning->mode, CameraLearning::Mode::one_at_a_time);
  EXPECT_EQ(r.camera_learning->player, rules::PlayerId{0});
  ASSERT_TRUE(question());
  EXPECT_EQ(question()->kind, QK::learn_tokens);
  EXPECT_NE(question()->text.find("Take every token off the board. Then Ann: put the car on the board"),
            std::string::npos)
      << question()->text;
  EXPECT_FALSE(offers("retry"));  // offered once the camera says it cannot see the token
  EXPECT_TRUE(offers("skip_token"));
  EXPECT_EQ(table->view().awaiting.kind, Awaiting::Kind::learn_tokens);
  // A throw waits until the tokens are learned.
  const auto count = inputs();
  // Ann's car is learned where she put it: Bob is asked next, by name and token.
  r = seen(0, 12, TokenReport::Kind::learned);
  EXPECT_TRUE(contains(r.messages, "The car learned"));
  ASSERT_TRUE(r.camera_learning);
  EXPECT_EQ(r.camera_learning->player, rules::PlayerId{1});
  ASSERT_TRUE(question());
  EXPECT_NE(question()->text.find("The car learned. Bob: put the dog on the board"), std::string::npos)
      << question()->text;
  // A token put down while another is awaited is no question of "moved when nobody threw".
  r = seen(0, 14);
  EXPECT_FALSE(r.question);
  r = seen(1, 25, TokenReport::Kind::learned);
  ASSERT_TRUE(r.camera_learning);
  EXPECT_EQ(r.camera_learning->player, rules::PlayerId{2});
  r = seen(2, 31, TokenReport::Kind::learned);
  EXPECT_FALSE(r.camera_learning);
  EXPECT_FALSE(question());
  EXPECT_TRUE(
      contains(r.messages, "The camera knows every token: put every token on GO, then throw the dice"))
      << (r.messages.empty() ? "" : r.messages.back());
  EXPECT_EQ(inputs(), count);  // nothing posted on the camera's word
  // Play goes on from the dice, the camera cross-checking every token.
  dice(1, 2);
  r = seen(0, 4);
  ASSERT_TRUE(r.question);
  EXPECT_EQ(r.question->kind, QK::camera_mismatch);
}

TEST_F(LearningTest, TokensNotAllFoundOnTheStartSpaceAreSaidAndOneAtATimeIsOffered) {
  TokenReport t;
  t.kind = TokenReport::Kind::learn_incomplete;
  t.detail = "found 2 of 3 tokens on the start space: T1 (red), T2 (blue); 1 missing";
  t.id = "camera:9:learning";
  auto r = event(t);
  EXPECT_TRUE(contains(r.messages, "The camera did not find every token: found 2 of 3"));
  ASSERT_TRUE(question());
  EXPECT_NE(question()->text.find("learn them one at a time"), std::string::npos) << question()->text;
  EXPECT_TRUE(offers("one_by_one"));
  // The tokens it did find on Go are learned again alone (the board is emptied first).
  seen(0, 0, TokenReport::Kind::learned);
  r = answer("one_by_one");
  ASSERT_TRUE(r.camera_learning);
  EXPECT_EQ(r.camera_learning->player, rules::PlayerId{0});
  // A late report of the learning on Go changes nothing now.
  r = event(t);
  EXPECT_TRUE(r.messages.empty());
}

TEST_F(LearningTest, ATokenTheCameraCannotSeeIsSaidTriedAgainOrLeftToTheDice) {
  answer("one_by_one");
  seen(0, 5, TokenReport::Kind::learned);
  // Bob's dog, metal grey on a pale space: the camera sees nothing new and says so.
  auto r = incomplete(1, "nothing new is seen on the board");
  EXPECT_TRUE(contains(r.messages, "The camera could not learn the dog: nothing new is seen on the board"));
  ASSERT_TRUE(question());
  EXPECT_NE(question()->text.find("The camera could not see the dog"), std::string::npos) << question()->text;
  EXPECT_TRUE(offers("retry"));
  // Tried again: the same token is asked for, the tracker told again.
  r = answer("retry");
  ASSERT_TRUE(r.camera_learning);
  EXPECT_EQ(r.camera_learning->player, rules::PlayerId{1});
  EXPECT_TRUE(contains(r.messages, "looks for the dog again"));
  incomplete(1, "nothing new is seen on the board");
  // Left to the dice: Cleo is asked next, and the game goes on without the dog on camera.
  r = answer("skip_token");
  EXPECT_TRUE(contains(r.messages, "The camera will not watch the dog: the dice alone move it"));
  ASSERT_TRUE(r.camera_learning);
  EXPECT_EQ(r.camera_learning->player, rules::PlayerId{2});
  r = seen(2, 9, TokenReport::Kind::learned);
  EXPECT_FALSE(question());
  EXPECT_TRUE(contains(r.messages, "the dice alone move the dog"))
      << (r.messages.empty() ? "" : r.messages.back());
  // The game goes on from the dice: Ann throws, then Bob, whose dog the camera never reports.
  dice(1, 2);
  EXPECT_EQ(table->view().awaiting.kind, Awaiting::Kind::rules_question);  // buy Baltic Avenue?
  touch(display::ApplyInput{
      rules::Choose{rules::PlayerId{0}, {rules::Answer::buy}}, {}, rules::PlayerId{0}, {}});
  seen(0, 3);
  const auto before = inputs();
  dice(2, 2);
  EXPECT_GT(inputs(), before);
  EXPECT_EQ(game().state().players[1].position, rules::SpaceId{4});
}

TEST_F(LearningTest, ARestartMidLearningAsksForTheTokensAgainAndKeepsTheGame) {
  answer("one_by_one");
  seen(0, 5, TokenReport::Kind::learned);
  const auto count = inputs();
  restart();
  event(DeviceHealth{
      {display::DeviceStatus::Kind::camera, "Camera", display::DeviceStatus::State::ok, "", ""}});
  // The camera's set-up was not kept (not every token was learned): the service asks for learning again.
  const auto r = table->learn_tokens_again();
  ASSERT_TRUE(r.question);
  EXPECT_EQ(r.question->kind, QK::learn_tokens);
  EXPECT_TRUE(offers("one_by_one"));
  EXPECT_EQ(inputs(), count);
  auto again = answer("one_by_one");
  ASSERT_TRUE(again.camera_learning);
  EXPECT_EQ(again.camera_learning->player,
            rules::PlayerId{0});  // from the first token: nothing learned is kept in memory
  seen(0, 5, TokenReport::Kind::learned);
  seen(1, 6, TokenReport::Kind::learned);
  again = seen(2, 7, TokenReport::Kind::learned);
  EXPECT_TRUE(contains(again.messages, "put each token back on its space"));
  EXPECT_FALSE(question());
}

// The camera goes while the tokens are put down one at a time: the learning ends with its question, and once
// the camera is back the tokens it knows are cross-checked again (not taken for tokens being put down).
TEST_F(LearningTest, TheCameraGoneMidLearningEndsItAndTheCrossCheckComesBack) {
  answer("one_by_one");
  seen(0, 0, TokenReport::Kind::learned);
  event(DeviceHealth{{display::DeviceStatus::Kind::camera, "Camera", display::DeviceStatus::State::missing,
                      "unplugged", "check the cable"}});
  EXPECT_FALSE(question());
  EXPECT_FALSE(table->view().learning.asking);
  EXPECT_FALSE(table->view().learning.one_at_a_time);
  event(DeviceHealth{
      {display::DeviceStatus::Kind::camera, "Camera", display::DeviceStatus::State::ok, "back", ""}});
  // Ann's car seen off its space with nobody having thrown: asked, as in any game.
  const auto r = seen(0, 7);
  ASSERT_TRUE(r.question);
  EXPECT_EQ(r.question->kind, QK::token_moved);
}

// The camera sees the board but no token on GO (the family has not put them down, or every one is hard to
// see): said, with the same choices as when some are missing: look again, one at a time, without the camera.
TEST_F(LearningTest, NoTokenFoundOnTheStartSpaceIsSaidWithTheSameChoices) {
  TokenReport t;
  t.kind = TokenReport::Kind::learn_incomplete;
  t.found = 0;
  t.expected = 3;
  t.detail = "found no token on the start space where 3 were expected";
  t.id = "camera:4:learning";
  auto r = event(t);
  EXPECT_TRUE(contains(r.messages, "The camera sees no token on GO")) << ::testing::PrintToString(r.messages);
  ASSERT_TRUE(r.question);
  ASSERT_TRUE(question());
  EXPECT_NE(question()->text.find("no token on GO"), std::string::npos) << question()->text;
  EXPECT_TRUE(offers("retry"));
  EXPECT_TRUE(offers("one_by_one"));
  EXPECT_TRUE(offers("skip"));
  EXPECT_EQ(table->view().awaiting.kind, Awaiting::Kind::learn_tokens);
  // Looked at again: the camera starts its count afresh, the question stays until the tokens are learned.
  r = answer("retry");
  ASSERT_TRUE(r.camera_learning);
  EXPECT_EQ(r.camera_learning->mode, CameraLearning::Mode::all_on_start);
  EXPECT_TRUE(contains(r.messages, "looks at GO again"));
  ASSERT_TRUE(question());
  EXPECT_EQ(question()->kind, QK::learn_tokens);
  EXPECT_TRUE(table->view().camera);  // "look again" is not "play without the camera"
  seen(0, 0, TokenReport::Kind::learned);
  seen(1, 0, TokenReport::Kind::learned);
  r = seen(2, 0, TokenReport::Kind::learned);
  EXPECT_FALSE(question());
  EXPECT_TRUE(contains(r.messages, "The camera knows every token"));
}

TEST_F(LearningTest, SomeTokensFoundOnTheStartSpaceOfferToLookAgainToo) {
  TokenReport t;
  t.kind = TokenReport::Kind::learn_incomplete;
  t.found = 2;
  t.expected = 3;
  t.detail = "found 2 of 3 tokens on the start space";
  t.id = "camera:9:learning";
  event(t);
  EXPECT_TRUE(offers("retry"));
  EXPECT_TRUE(offers("one_by_one"));
  EXPECT_TRUE(offers("skip"));
  // The third token moved clear; the camera looks again.
  const auto r = answer("retry");
  ASSERT_TRUE(r.camera_learning);
  EXPECT_EQ(r.camera_learning->mode, CameraLearning::Mode::all_on_start);
}

// A restart in the middle of learning one at a time: the camera kept Ann's car (and the family had left
// Bob's dog to the dice); the table asks for Cleo's hat only, and the screen says what came back.
TEST_F(LearningTest, ARestartMidLearningAsksOnlyForTheTokensNotKept) {
  answer("one_by_one");
  seen(0, 12, TokenReport::Kind::learned);
  answer("skip_token");  // Bob's dog: the dice move it
  const TokenLearning before = table->view().learning;
  EXPECT_TRUE(before.asking);
  EXPECT_TRUE(before.one_at_a_time);
  EXPECT_EQ(before.learned, std::vector<rules::PlayerId>{rules::PlayerId{0}});
  EXPECT_EQ(before.unwatched, std::vector<rules::PlayerId>{rules::PlayerId{1}});
  const auto count = inputs();
  restart();
  event(DeviceHealth{
      {display::DeviceStatus::Kind::camera, "Camera", display::DeviceStatus::State::ok, "", ""}});
  EXPECT_FALSE(question());  // nothing is asked before the service says what the camera kept
  auto r = table->restore_learning(before);
  ASSERT_TRUE(r.camera_learning);
  EXPECT_EQ(r.camera_learning->mode, CameraLearning::Mode::one_at_a_time);
  EXPECT_EQ(r.camera_learning->player, rules::PlayerId{2});  // Cleo's hat: neither kept nor left to the dice
  ASSERT_TRUE(question());
  EXPECT_EQ(question()->kind, QK::learn_tokens);
  EXPECT_EQ(question()->title, "Cleo: put the hat on the board");
  EXPECT_NE(
      question()->text.find("The camera kept the car from before the restart: leave it where it stands"),
      std::string::npos)
      << question()->text;
  EXPECT_EQ(question()->text.find("Take every token off the board"), std::string::npos) << question()->text;
  EXPECT_NE(table->view().status.find("the camera kept the car"), std::string::npos) << table->view().status;
  EXPECT_EQ(table->view().learning.learned, std::vector<rules::PlayerId>{rules::PlayerId{0}});
  EXPECT_EQ(table->view().learning.unwatched, std::vector<rules::PlayerId>{rules::PlayerId{1}});
  r = seen(2, 31, TokenReport::Kind::learned);
  EXPECT_FALSE(r.camera_learning);
  EXPECT_FALSE(question());
  EXPECT_TRUE(contains(r.messages, "the dice alone move the dog")) << ::testing::PrintToString(r.messages);
  EXPECT_EQ(inputs(), count);  // nothing posted on the camera's word
  EXPECT_EQ(table->view().learning.learned,
            (std::vector<rules::PlayerId>{rules::PlayerId{0}, rules::PlayerId{2}}));
}

TEST_F(LearningTest, ARestartAfterEveryTokenWasKeptAsksNothingAndSaysWhatCameBack) {
  answer("one_by_one");
  seen(0, 12, TokenReport::Kind::learned);
  seen(1, 25, TokenReport::Kind::learned);
  seen(2, 31, TokenReport::Kind::learned);
  ASSERT_FALSE(question());
  TokenLearning kept = table->view().learning;
  EXPECT_FALSE(kept.asking);
  restart();
  event(DeviceHealth{
      {display::DeviceStatus::Kind::camera, "Camera", display::DeviceStatus::State::ok, "", ""}});
  kept.learned.push_back(rules::PlayerId{7});  // a player this game does not have: ignored
  const auto r = table->restore_learning(kept);
  EXPECT_FALSE(r.camera_learning);
  EXPECT_FALSE(question());
  EXPECT_TRUE(contains(r.messages, "The camera knows the car, the dog and the hat again"))
      << ::testing::PrintToString(r.messages);
  EXPECT_NE(table->view().status.find("the camera knows the car, the dog and the hat again"),
            std::string::npos)
      << table->view().status;
  EXPECT_EQ(table->view().awaiting.kind, Awaiting::Kind::throw_dice);
  EXPECT_TRUE(table->invariant_violations().empty());
}

}  // namespace
}  // namespace bb::table::testing
