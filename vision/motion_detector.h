#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace cv {
class Mat;
}

namespace bb::vision {

// Is the scene moving? Compares each frame with the previous one at a small scale, where sensor noise and
// JPEG blocks average out but a hand or a token sliding still changes many pixels. Owns the previous small
// frame; one thread at a time (the tracker's) calls it.
class MotionDetector {
 public:
  struct Settings {
    int small_width = 160;             // frames are compared at this width
    int pixel_threshold = 14;          // grey levels a small pixel must change by to count
    double changed_fraction = 0.0004;  // of small pixels (at least 2) for the frame to count as moving
  };
  MotionDetector();
  explicit MotionDetector(Settings settings);
  ~MotionDetector();
  MotionDetector(const MotionDetector&) = delete;
  MotionDetector& operator=(const MotionDetector&) = delete;

  // True when this frame differs from the previous one (the first frame counts as moving).
  bool moving(const cv::Mat& frame);
  void reset();
  int changed_pixels() const { return changed_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  Settings settings_;
  int changed_ = 0;
};

namespace detail {
// cv::resize(frame, small, {width, height}, 0, 0, cv::INTER_AREA), the same to the bit, for an 8-bit frame
// that is a whole number of `small` pixels across and down (blocks of at most 257 rows); false, and nothing
// made, otherwise. `rows` is scratch. Declared here for its test.
bool shrink_by_blocks(const cv::Mat& frame, int width, int height, cv::Mat& small,
                      std::vector<uint16_t>& rows);
}  // namespace detail

}  // namespace bb::vision
