#include <gtest/gtest.h>

#include <cmath>
#include <opencv2/imgproc.hpp>

#include "vision/board_calibrator.h"
#include "vision/marker_detector.h"
#include "vision_test_support.h"

// Calibration again where the markers were: four small windows at full resolution instead of a search.
using namespace bb::vision;
using namespace bb::vision::testing;

namespace {

TEST(CalibrationNear, TheMarkersWhereTheyWereGiveTheSameCornersAtManyPoses) {
  const BoardCalibrator calibrator;
  cv::Mat image;
  for (Condition c : {Condition::clean, Condition::tilt, Condition::dim, Condition::noise, Condition::jpeg}) {
    std::mt19937_64 rng(700 + static_cast<int>(c));
    for (int i = 0; i < 3; ++i) {
      const TableScene s = scene_for(c, renderer(), rng);
      RenderTruth truth;
      renderer().render(s, image, &truth);
      auto first = calibrator.from_markers(image);
      ASSERT_TRUE(first.has_value()) << condition_name(c) << " pose " << i << ": " << first.error();
      EXPECT_LT(corner_error(*first, truth), 2.0) << condition_name(c) << " pose " << i;
      auto again = calibrator.from_markers_near(image, *first);
      ASSERT_TRUE(again.has_value()) << condition_name(c) << " pose " << i << ": " << again.error();
      EXPECT_EQ(again->markers_seen, 4);
      EXPECT_LT(corner_error(*again, truth), 2.0) << condition_name(c) << " pose " << i;
      EXPECT_LT(BoardCalibrator::corner_shift_px(*first, *again), 0.5);
    }
  }
}

TEST(CalibrationNear, ABoardMovedFarIsFoundByTheFullSearch) {
  const BoardCalibrator calibrator;
  std::mt19937_64 rng(41);
  TableScene s = scene_for(Condition::clean, renderer(), rng);
  cv::Mat before, after;
  renderer().render(s, before);
  auto first = calibrator.from_markers(before);
  ASSERT_TRUE(first.has_value());
  // The camera turned: the board now sits elsewhere in the picture.
  s.camera.yaw_deg += 25;
  RenderTruth truth;
  renderer().render(s, after, &truth);
  EXPECT_FALSE(calibrator.from_markers_near(after, *first).has_value());
  auto found = calibrator.calibrate(after, *first);
  ASSERT_TRUE(found.has_value()) << found.error();
  EXPECT_EQ(found->method, Calibration::Method::markers);
  EXPECT_LT(corner_error(*found, truth), 2.0);
  EXPECT_GT(BoardCalibrator::corner_shift_px(*first, *found), 20.0);
}

TEST(CalibrationNear, AHandOverOneMarkerFallsBackToTheSearch) {
  const BoardCalibrator calibrator;
  std::mt19937_64 rng(43);
  TableScene s = scene_for(Condition::clean, renderer(), rng);
  cv::Mat image;
  renderer().render(s, image);
  auto first = calibrator.from_markers(image);
  ASSERT_TRUE(first.has_value());
  // Marker 2's window painted over, as a hand would cover it.
  const Point2 hidden = first->board_to_image.apply(MarkerLayout::board_corner(2));
  cv::circle(image, cv::Point(static_cast<int>(hidden.x), static_cast<int>(hidden.y)), 70,
             cv::Scalar(90, 120, 170), cv::FILLED);
  EXPECT_FALSE(calibrator.from_markers_near(image, *first).has_value());
  auto found = calibrator.calibrate(image, *first);
  ASSERT_TRUE(found.has_value()) << found.error();
  EXPECT_EQ(found->markers_seen, 3);
}

}  // namespace
