#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "vision/motion_detector.h"
#include "vision_test_support.h"

using namespace bb::vision;
using namespace bb::vision::testing;

TEST(MotionDetector, NoiseAndJpegAloneAreNotMotion) {
  TableScene s = scene(Condition::noise, 3);
  s.degradation.jpeg_quality = 40;
  MotionDetector motion;
  cv::Mat image;
  renderer().render(s, image);
  EXPECT_TRUE(motion.moving(image));  // the first frame has nothing to compare with
  for (int i = 0; i < 6; ++i) {
    s.noise_seed = 100 + static_cast<uint64_t>(i);
    renderer().render(s, image);
    EXPECT_FALSE(motion.moving(image)) << "frame " << i << " changed " << motion.changed_pixels();
  }
}

TEST(MotionDetector, ATokenSlidingOneSpaceIsMotion) {
  TableScene s = scene(Condition::clean, 4);
  s.tokens.push_back({0, renderer().slot_position(5, 0), 0});
  MotionDetector motion;
  cv::Mat image;
  renderer().render(s, image);
  motion.moving(image);
  renderer().render(s, image);
  EXPECT_FALSE(motion.moving(image));
  s.tokens[0].position = renderer().slot_position(6, 0);
  renderer().render(s, image);
  EXPECT_TRUE(motion.moving(image));
}

TEST(MotionDetector, AHandEnteringIsMotion) {
  TableScene s = scene(Condition::dim, 5);
  MotionDetector motion;
  cv::Mat image;
  renderer().render(s, image);
  motion.moving(image);
  Hand hand;
  hand.palm = {0.5, 1.05};
  s.hands.push_back(hand);
  renderer().render(s, image);
  EXPECT_TRUE(motion.moving(image));
}

// The block shrink stands in for cv::INTER_AREA where the frame is a whole number of small pixels: it must
// be the same to the bit (the motion threshold counts grey levels), on noise, where every rounding shows.
TEST(MotionDetector, ShrinkByBlocksIsInterAreaToTheBit) {
  cv::RNG rng(12);
  std::vector<uint16_t> rows;
  struct Case {
    int cols, rows, type, width, height;
  };
  for (const Case& c : {Case{1280, 720, CV_8UC3, 160, 90}, Case{1920, 1080, CV_8UC3, 160, 90},
                        Case{640, 480, CV_8UC1, 160, 120}, Case{330, 200, CV_8UC3, 110, 40}}) {
    cv::Mat frame(c.rows, c.cols, c.type);
    rng.fill(frame, cv::RNG::UNIFORM, 0, 256);
    cv::Mat mine, theirs;
    ASSERT_TRUE(detail::shrink_by_blocks(frame, c.width, c.height, mine, rows)) << c.cols << "x" << c.rows;
    cv::resize(frame, theirs, cv::Size(c.width, c.height), 0, 0, cv::INTER_AREA);
    EXPECT_EQ(cv::norm(mine, theirs, cv::NORM_INF), 0) << c.cols << "x" << c.rows;
  }
  cv::Mat frame(600, 1000, CV_8UC3, cv::Scalar(1, 2, 3)), small;
  EXPECT_FALSE(detail::shrink_by_blocks(frame, 160, 96, small, rows));  // 1000 is not a whole number of 160
}
