#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "vision/board_calibrator.h"
#include "vision/image_files.h"
#include "vision/marker_detector.h"
#include "vision/marker_sheet.h"
#include "vision_test_support.h"

using namespace bb::vision;
using namespace bb::vision::testing;

TEST(Calibration, MarkersGiveTheBoardCornersWithinTwoPixelsAtManyPoses) {
  const BoardCalibrator calibrator;
  cv::Mat image;
  int poses = 0;
  for (Condition c : {Condition::clean, Condition::tilt, Condition::dim, Condition::warm, Condition::noise,
                      Condition::jpeg, Condition::shadow}) {
    std::mt19937_64 rng(300 + static_cast<int>(c));
    for (int i = 0; i < 4; ++i) {
      const TableScene s = scene_for(c, renderer(), rng);
      RenderTruth truth;
      renderer().render(s, image, &truth);
      auto calibration = calibrator.from_markers(image);
      ASSERT_TRUE(calibration.has_value())
          << condition_name(c) << " pose " << i << ": " << calibration.error();
      EXPECT_LT(corner_error(*calibration, truth), 2.0)
          << condition_name(c) << " pose " << i << " tilt " << s.camera.tilt_deg;
      EXPECT_EQ(calibration->method, Calibration::Method::markers);
      ++poses;
    }
  }
  EXPECT_EQ(poses, 28);
}

TEST(Calibration, ThreeMarkersAreEnoughWhenAHandCoversOne) {
  TableScene s = scene(Condition::clean, 11);
  Hand hand;
  hand.palm = {0.95, 0.95};  // over the GO corner's marker
  hand.from_deg = 45;
  s.hands.push_back(hand);
  cv::Mat image;
  RenderTruth truth;
  renderer().render(s, image, &truth);
  auto calibration = BoardCalibrator().from_markers(image);
  ASSERT_TRUE(calibration.has_value()) << calibration.error();
  EXPECT_EQ(calibration->markers_seen, 3);
  EXPECT_LT(corner_error(*calibration, truth), 3.0);  // the hidden corner is extrapolated
}

TEST(Calibration, WithoutMarkersTheBoardsOuterSquareIsFound) {
  std::mt19937_64 rng(42);
  for (int i = 0; i < 4; ++i) {
    TableScene s = scene_for(Condition::clean, renderer(), rng);
    s.markers = false;
    s.camera.yaw_deg = std::uniform_real_distribution<double>(-25, 25)(rng);  // GO stays lowest-right
    cv::Mat image;
    RenderTruth truth;
    renderer().render(s, image, &truth);
    const BoardCalibrator calibrator;
    EXPECT_FALSE(calibrator.from_markers(image).has_value());
    auto calibration = calibrator.calibrate(image, std::nullopt);
    ASSERT_TRUE(calibration.has_value()) << calibration.error();
    EXPECT_EQ(calibration->method, Calibration::Method::contour);
    EXPECT_LT(corner_error(*calibration, truth), 3.0) << "pose " << i;
  }
}

TEST(Calibration, ContourKeepsTheKnownOrientationWhenGivenThePreviousCalibration) {
  TableScene s = scene(Condition::clean, 5);
  s.camera.yaw_deg = 160;  // GO is now top-left in the image
  cv::Mat image;
  RenderTruth truth;
  renderer().render(s, image, &truth);
  const BoardCalibrator calibrator;
  auto with_markers = calibrator.from_markers(image);
  ASSERT_TRUE(with_markers.has_value());
  s.markers = false;
  renderer().render(s, image, &truth);
  auto contour = calibrator.from_contour(image, *with_markers);
  ASSERT_TRUE(contour.has_value()) << contour.error();
  EXPECT_LT(corner_error(*contour, truth), 3.0);
}

TEST(Calibration, NoBoardInViewIsAnErrorThatSaysWhatToCheck) {
  cv::Mat empty(test_height, test_width, CV_8UC3, cv::Scalar(40, 60, 90));
  auto c = BoardCalibrator().calibrate(empty, std::nullopt);
  ASSERT_FALSE(c.has_value());
  EXPECT_NE(c.error().find("marker"), std::string::npos);
}

TEST(MarkerSheet, PrintedSheetHoldsAllFourMarkersAtTheStatedSize) {
  const auto dir = std::filesystem::temp_directory_path() / "bb_vision_sheet_test";
  std::filesystem::create_directories(dir);
  MarkerSheet sheet;
  sheet.dpi = 150;
  ASSERT_TRUE(sheet.write((dir / "markers.png").string()).has_value());
  cv::Mat page;
  ASSERT_TRUE(read_image((dir / "markers.png").string(), ImageColour::grey, page));
  ASSERT_FALSE(page.empty());
  EXPECT_NEAR(page.cols, 210 / 25.4 * 150, 2);  // A4 at 150 DPI
  const auto found = MarkerDetector().detect(page);
  ASSERT_EQ(found.size(), 4u);
  for (const auto& m : found) {
    const double side = std::hypot(m.corners[1].x - m.corners[0].x, m.corners[1].y - m.corners[0].y);
    EXPECT_NEAR(side, sheet.marker_mm() / 25.4 * 150, 2.0) << "marker " << m.id;
  }
  ASSERT_TRUE(sheet.write((dir / "markers.pdf").string()).has_value());
  std::ifstream pdf(dir / "markers.pdf");
  std::string head;
  std::getline(pdf, head);
  EXPECT_EQ(head, "%PDF-1.4");
  EXPECT_FALSE(sheet.write((dir / "markers.txt").string()).has_value());
  std::filesystem::remove_all(dir);
}
