#include "vision/motion_detector.h"

#include <algorithm>
#include <opencv2/imgproc.hpp>

namespace bb::vision {

struct MotionDetector::Impl {
  cv::Mat previous, current, gray, diff;
};

MotionDetector::MotionDetector() : MotionDetector(Settings{}) {}
MotionDetector::MotionDetector(Settings settings) : impl_(std::make_unique<Impl>()), settings_(settings) {}
MotionDetector::~MotionDetector() = default;

void MotionDetector::reset() { impl_->previous.release(); }

bool MotionDetector::moving(const cv::Mat& frame) {
  Impl& im = *impl_;
  const int w = std::min(settings_.small_width, frame.cols);
  const cv::Size small(w, std::max(1, frame.rows * w / frame.cols));
  // Shrink first, then convert: the area average is what removes the noise, and it is cheaper this way.
  cv::resize(frame, im.current, small, 0, 0, cv::INTER_AREA);
  if (im.current.channels() == 3) {
    cv::cvtColor(im.current, im.gray, cv::COLOR_BGR2GRAY);
    std::swap(im.gray, im.current);
  }
  bool moved = true;
  if (!im.previous.empty() && im.previous.size() == im.current.size()) {
    cv::absdiff(im.current, im.previous, im.diff);
    changed_ = cv::countNonZero(im.diff > settings_.pixel_threshold);
    const int limit = std::max(2, static_cast<int>(settings_.changed_fraction * small.area()));
    moved = changed_ >= limit;
  }
  std::swap(im.previous, im.current);
  return moved;
}

}  // namespace bb::vision
