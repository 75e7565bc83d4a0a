// Each generated condition as its own test: a short scripted game with hands on every move, scored
// against the renderer's truth. The long runs (>= 1,000 moves) are in bench/vision.
#include <gtest/gtest.h>

#include "vision_test_support.h"

using namespace bb::vision;
using namespace bb::vision::testing;

namespace {

class ConditionTest : public ::testing::TestWithParam<Condition> {};

TEST_P(ConditionTest, MovesAreReportedCorrectlyAndNothingElseMoves) {
  const Condition c = GetParam();
  const TableScene base = scene(c, 900 + static_cast<uint64_t>(c));
  const auto moves = random_moves(4, 40, 6, 31 + static_cast<uint64_t>(c));
  TableScript::Settings script;
  script.still_frames = 6;
  script.opening_frames = 7;
  const TrackingScore score = evaluate_game(renderer(), base, 4, moves, 5, TokenTracker::Settings{}, script);
  ASSERT_TRUE(score.learned) << condition_name(c);
  EXPECT_LT(score.calibration_error_px, c == Condition::blur ? 4.0 : 2.0);
  // Minimum accuracy per condition, the hardest (blur, mixed) included: every move right, every space's
  // occupancy right, no question needed and nothing else moved.
  EXPECT_EQ(score.moves_correct, score.moves) << condition_name(c) << ": " << score.summary();
  EXPECT_EQ(score.moves_wrong, 0) << score.summary();
  EXPECT_EQ(score.false_moves, 0) << score.summary();
  EXPECT_EQ(score.occupancy_accuracy(), 1.0) << score.summary();
}

INSTANTIATE_TEST_SUITE_P(Generated, ConditionTest, ::testing::ValuesIn(all_conditions()),
                         [](const ::testing::TestParamInfo<Condition>& p) {
                           return std::string(condition_name(p.param));
                         });

TEST(Conditions, TokensLearnedInOrderFromTheCorner) {
  TokenTracker tracker(renderer().space_map(), {});
  TableScript script(renderer(), scene(Condition::clean, 1), 4, 2);
  Feeder feed{renderer(), tracker};
  const auto events = feed.run(script.opening());
  ASSERT_EQ(count(events, TrackerEvent::Kind::learned), 4);
  const auto names = expected_names(renderer(), 4);
  // Each learned token is the one the renderer drew there: move each in turn and check the name.
  for (int t = 0; t < 4; ++t) {
    const auto moved = feed.run(script.play({t, 5 + 3 * t}, t));
    ASSERT_EQ(count(moved, TrackerEvent::Kind::moved), 1) << "token " << t;
    for (const auto& e : moved)
      if (e.kind == TrackerEvent::Kind::moved) {
        EXPECT_EQ(e.token, names[static_cast<size_t>(t)]);
        EXPECT_EQ(e.from, 0);
        EXPECT_EQ(e.to, 5 + 3 * t);
        EXPECT_GE(e.confidence, 0.75);
      }
  }
}

}  // namespace
