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

// One row's pixels [begin, end) of the view `p` blended into the mean `m` with `share` (in 1/4096), the view
// replaced by the mean so far.
void blend(uint8_t* p, uint16_t* m, int begin, int end, int share) {
  const int half = 1 << (kShareBits - 1);
  // Without a branch: a changed pixel's share is the whole of it, which makes the mean the view. (OpenCV's
  // SIMD intrinsics, with SSE2's three-channel deinterleave, were slower here: 0.80 ms against 0.53.)
  for (int e = begin * 3; e < end * 3; e += 3) {
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
}  // namespace

struct StillAverage::Buffers {
  cv::Mat mean;  // CV_16UC3, in 1/256 grey levels
};

StillAverage::StillAverage(int frames) : frames_(frames), buffers_(std::make_unique<Buffers>()) {
  assert(frames >= 1);
}

StillAverage::~StillAverage() = default;

void StillAverage::set_region(const cv::Mat& region) {
  spans_.clear();
  region_rows_ = region_cols_ = 0;
  if (region.empty()) return;
  assert(region.type() == CV_8U);
  region_rows_ = region.rows;
  region_cols_ = region.cols;
  for (int y = 0; y < region.rows; ++y) {
    const uint8_t* r = region.ptr<uint8_t>(y);
    for (int x = 0; x < region.cols;) {
      if (!r[x]) {
        ++x;
        continue;
      }
      const int begin = x;
      while (x < region.cols && r[x]) ++x;
      spans_.push_back({y, begin, x});
    }
  }
  count_ = 0;
}

void StillAverage::add(cv::Mat& top, const std::array<double, 9>& fit) {
  assert(top.type() == CV_8UC3);
  cv::Mat& mean = buffers_->mean;
  // A region of another size than the view (never in the tracker) is not used: every pixel is averaged.
  const bool whole = spans_.empty() || region_rows_ != top.rows || region_cols_ != top.cols;
  if (count_ == 0 || fit_ != fit || mean.size() != top.size()) {
    mean.create(top.size(), CV_16UC3);  // reuses the buffer when the size is the same
    if (whole) {
      top.convertTo(mean, CV_16UC3, kOne);
    } else {
      for (const Span& span : spans_) {
        const uint8_t* p = top.ptr<uint8_t>(span.row);
        uint16_t* m = mean.ptr<uint16_t>(span.row);
        for (int e = span.begin * 3; e < span.end * 3; ++e) m[e] = static_cast<uint16_t>(p[e] * kOne);
      }
    }
    count_ = 1;
    fit_ = fit;
    return;
  }
  count_ = std::min(count_ + 1, frames_);
  const int share = ((1 << kShareBits) + count_ / 2) / count_;
  if (whole) {
    for (int y = 0; y < top.rows; ++y) blend(top.ptr<uint8_t>(y), mean.ptr<uint16_t>(y), 0, top.cols, share);
  } else {
    for (const Span& span : spans_)
      blend(top.ptr<uint8_t>(span.row), mean.ptr<uint16_t>(span.row), span.begin, span.end, share);
  }
}

}  // namespace bb::vision
