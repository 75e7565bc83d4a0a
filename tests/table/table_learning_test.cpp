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
    t.player = player;
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
  EXPECT_EQ(r.camera_learning->player, 0);
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
  EXPECT_EQ(r.camera_learning->player, 1);
  ASSERT_TRUE(question());
  EXPECT_NE(question()->text.find("The car learned. Bob: put the dog on the board"), std::string::npos)
      << question()->text;
  // A token put down while another is awaited is no question of "moved when nobody threw".
  r = seen(0, 14);
  EXPECT_FALSE(r.question);
  r = seen(1, 25, TokenReport::Kind::learned);
  ASSERT_TRUE(r.camera_learning);
  EXPECT_EQ(r.camera_learning->player, 2);
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
  EXPECT_EQ(r.camera_learning->player, 0);
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
  EXPECT_EQ(r.camera_learning->player, 1);
  EXPECT_TRUE(contains(r.messages, "looks for the dog again"));
  incomplete(1, "nothing new is seen on the board");
  // Left to the dice: Cleo is asked next, and the game goes on without the dog on camera.
  r = answer("skip_token");
  EXPECT_TRUE(contains(r.messages, "The camera will not watch the dog: the dice alone move it"));
  ASSERT_TRUE(r.camera_learning);
  EXPECT_EQ(r.camera_learning->player, 2);
  r = seen(2, 9, TokenReport::Kind::learned);
  EXPECT_FALSE(question());
  EXPECT_TRUE(contains(r.messages, "the dice alone move the dog"))
      << (r.messages.empty() ? "" : r.messages.back());
  // The game goes on from the dice: Ann throws, then Bob, whose dog the camera never reports.
  dice(1, 2);
  EXPECT_EQ(table->view().awaiting.kind, Awaiting::Kind::rules_question);  // buy Baltic Avenue?
  touch(display::ApplyInput{rules::Choose{0, "buy"}, {}, 0, {}});
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
  EXPECT_EQ(again.camera_learning->player, 0);  // from the first token: nothing learned is kept in memory
  seen(0, 5, TokenReport::Kind::learned);
  seen(1, 6, TokenReport::Kind::learned);
  again = seen(2, 7, TokenReport::Kind::learned);
  EXPECT_TRUE(contains(again.messages, "put each token back on its space"));
  EXPECT_FALSE(question());
}

}  // namespace
}  // namespace bb::table::testing
