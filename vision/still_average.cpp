#include "vision/still_average.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstdlib>
#include <opencv2/core.hpp>

namespace bb::vision {

namespace {
// The mean is kept in 1/256 grey levels: 255 * 256 fits a 16-bit channel, and a step of a 256th of a level
// is far below the sensor noise being averaged. One pass over the pixels, in integers, into a buffer kept
// from frame to frame: the float version (seven passes, three new images a frame) cost 0.83 ms of a
// deciding frame at 720p, this one 0.52 ms (bench_vision_speed).
constexpr int kOne = 256;
constexpr int kShareBits = 12;  // a view's share of the mean, in 1/4096
// A pixel whose channels differ from the mean by more than 60 grey levels together (20 a channel on
// average: a hand's shadow just gone, a light switched on) is taken as it is now; only noise is averaged.
constexpr int kChanged = 60 * kOne;
}  // namespace

struct StillAverage::Buffers {
  cv::Mat mean;  // CV_16UC3, in 1/256 grey levels
};

StillAverage::StillAverage(int frames) : frames_(frames), buffers_(std::make_unique<Buffers>()) {
  assert(frames >= 1);
}

StillAverage::~StillAverage() = default;

void StillAverage::add(cv::Mat& top, const std::array<double, 9>& fit) {
  assert(top.type() == CV_8UC3);
  cv::Mat& mean = buffers_->mean;
  if (count_ == 0 || fit_ != fit || mean.size() != top.size()) {
    top.convertTo(mean, CV_16UC3, kOne);  // reuses the buffer when the size is the same
    count_ = 1;
    fit_ = fit;
    return;
  }
  count_ = std::min(count_ + 1, frames_);
  const int share = ((1 << kShareBits) + count_ / 2) / count_;
  const int half = 1 << (kShareBits - 1);
  const int width = top.cols * 3;
  for (int y = 0; y < top.rows; ++y) {
    uint8_t* p = top.ptr<uint8_t>(y);
    uint16_t* m = mean.ptr<uint16_t>(y);
    // Without a branch: a changed pixel's share is the whole of it, which makes the mean the view. (OpenCV's
    // SIMD intrinsics, with SSE2's three-channel deinterleave, were slower here: 0.80 ms against 0.53.)
    for (int e = 0; e < width; e += 3) {
      const int d0 = p[e] * kOne - m[e];
      const int d1 = p[e + 1] * kOne - m[e + 1];
      const int d2 = p[e + 2] * kOne - m[e + 2];
      const int s = std::abs(d0) + std::abs(d1) + std::abs(d2) > kChanged ? 1 << kShareBits : share;
      const int m0 = m[e] + ((d0 * s + half) >> kShareBits);
      const int m1 = m[e + 1] + ((d1 * s + half) >> kShareBits);
      const int m2 = m[e + 2] + ((d2 * s + half) >> kShareBits);
      m[e] = static_cast<uint16_t>(m0);
      m[e + 1] = static_cast<uint16_t>(m1);
      m[e + 2] = static_cast<uint16_t>(m2);
      p[e] = static_cast<uint8_t>((m0 + kOne / 2) >> 8);
      p[e + 1] = static_cast<uint8_t>((m1 + kOne / 2) >> 8);
      p[e + 2] = static_cast<uint8_t>((m2 + kOne / 2) >> 8);
    }
  }
}

}  // namespace bb::vision
