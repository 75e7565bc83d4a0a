// Learning where families put their tokens: crowded on GO, on top of the GO marker and touching each other;
// a token standing on a corner marker later in the game.
#include <gtest/gtest.h>

#include "vision_test_support.h"

using namespace bb::vision;
using namespace bb::vision::testing;

namespace {

TableScript::Settings crowded(int tokens) {
  TableScript::Settings s;
  s.start_positions = crowded_go_positions(tokens);
  return s;
}

TEST(Learning, TheCrowdedStartPutsTwoTokensOnTheMarkerAndTwoTouching) {
  // The positions the other tests rely on: what they claim about the marker and about touching.
  const MarkerLayout markers;
  const auto square = markers.corners(0);
  const auto p = crowded_go_positions(6);
  const double radius = 0.22 * renderer().space_map().space_width();
  auto on_marker = [&](Point2 c) {
    return c.x + radius > square[0].x && c.x - radius < square[2].x && c.y + radius > square[0].y &&
           c.y - radius < square[2].y;
  };
  EXPECT_TRUE(on_marker(p[0]));
  EXPECT_TRUE(on_marker(p[1]));
  EXPECT_NEAR(std::hypot(p[2].x - p[3].x, p[2].y - p[3].y), 2 * radius, 0.001);
  for (const auto& c : p) EXPECT_EQ(renderer().space_map().space_at(c), 0);
}

class CrowdedGo : public ::testing::TestWithParam<Condition> {};

TEST_P(CrowdedGo, FourTokensOnGoWithTwoOnTheMarkerAreAllLearnedAndTracked) {
  const Condition c = GetParam();
  const auto moves = random_moves(4, renderer().space_map().space_count(), 6, 31);
  const auto score = evaluate_game(renderer(), scene(c, 43), 4, moves, 31, {}, crowded(4));
  EXPECT_TRUE(score.learned) << condition_name(c);
  EXPECT_EQ(score.moves_correct, 6) << condition_name(c) << ": " << score.summary();
  EXPECT_EQ(score.false_moves, 0);
  EXPECT_EQ(score.moves_wrong, 0);
}

INSTANTIATE_TEST_SUITE_P(Conditions, CrowdedGo,
                         ::testing::Values(Condition::clean, Condition::tilt, Condition::dim, Condition::warm,
                                           Condition::blur, Condition::jpeg),
                         [](const ::testing::TestParamInfo<Condition>& param) {
                           return std::string(condition_name(param.param));
                         });

TEST(Learning, ATokenOnTheJailMarkerIsTrackedAndTheBoardIsFoundFromTheOtherThree) {
  TableScript script(renderer(), scene(Condition::clean, 23), 4, 23);
  TokenTracker tracker(renderer().space_map(), {});
  Feeder feed(renderer(), tracker);
  ASSERT_EQ(count(feed.run(script.opening()), TrackerEvent::Kind::learned), 4);
  // Token 1 stops on Jail, right on its marker.
  const MarkerLayout markers;
  const auto square = markers.corners(1);
  const Point2 on_marker{(square[0].x + square[2].x) / 2, (square[0].y + square[2].y) / 2};
  ASSERT_EQ(renderer().space_map().space_at(on_marker), 10);
  auto events = feed.run(script.place(1, on_marker, 0));
  ASSERT_EQ(count(events, TrackerEvent::Kind::moved), 1);
  EXPECT_EQ(tracker.positions()[static_cast<size_t>(tracker_index(tracker, renderer(), 1))], 10);
  // The board is nudged while the marker is covered: it is found again from the other three.
  script.base().board_shift = {0.012, -0.008};
  events = feed.run(script.still(8, 1));
  ASSERT_EQ(count(events, TrackerEvent::Kind::recalibrated), 1);
  for (const auto& e : events) {
    if (e.kind == TrackerEvent::Kind::recalibrated) {
      EXPECT_EQ(e.markers, 3);
    }
  }
  EXPECT_EQ(count(events, TrackerEvent::Kind::moved), 0);
  RenderTruth truth;
  cv::Mat image;
  renderer().render(script.still(1, 1).front().scene, image, &truth);
  EXPECT_LT(corner_error(*tracker.calibration(), truth), 4.0);
  // Play goes on: the others still move right, the token on the marker stays.
  events = feed.run(script.play({2, 9}, 2));
  ASSERT_EQ(count(events, TrackerEvent::Kind::moved), 1);
  EXPECT_EQ(tracker.positions()[static_cast<size_t>(tracker_index(tracker, renderer(), 2))], 9);
  EXPECT_EQ(tracker.positions()[static_cast<size_t>(tracker_index(tracker, renderer(), 1))], 10);
}

}  // namespace
