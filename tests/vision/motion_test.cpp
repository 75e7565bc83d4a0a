#include <gtest/gtest.h>

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
