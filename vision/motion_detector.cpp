#include "vision/motion_detector.h"

#include <algorithm>
#include <cstdint>
#include <opencv2/core/hal/intrin.hpp>
#include <opencv2/imgproc.hpp>
#include <vector>

namespace bb::vision {

struct MotionDetector::Impl {
  cv::Mat previous, current, gray, diff;
  std::vector<uint16_t> rows;  // shrink_by_blocks' scratch
};

MotionDetector::MotionDetector() : MotionDetector(Settings{}) {}
MotionDetector::MotionDetector(Settings settings) : impl_(std::make_unique<Impl>()), settings_(settings) {}
MotionDetector::~MotionDetector() = default;

void MotionDetector::reset() { impl_->previous.release(); }

namespace detail {

bool shrink_by_blocks(const cv::Mat& frame, int width, int height, cv::Mat& small,
                      std::vector<uint16_t>& rows) {
  if (frame.depth() != CV_8U || width <= 0 || height <= 0 || frame.cols % width != 0 ||
      frame.rows % height != 0)
    return false;
  const int kx = frame.cols / width, ky = frame.rows / height, cn = frame.channels();
  if (ky > 257) return false;  // a block's column of rows must fit 16 bits: 257 * 255 = 65535
  small.create(height, width, frame.type());
  const int n = frame.cols * cn;
  rows.resize(static_cast<size_t>(n));
  // OpenCV's own rounding of the mean: int sum times the float reciprocal of the block's area, by cvRound.
  const float scale = 1.f / static_cast<float>(kx * ky);
  const size_t step = frame.step;
  for (int y = 0; y < height; ++y) {
    // Down each column of the block's rows, the sum held in registers and stored once.
    uint16_t* acc = rows.data();
    const uint8_t* top = frame.ptr<uint8_t>(y * ky);
    int j = 0;
#if CV_SIMD128
    for (; j + 16 <= n; j += 16) {
      cv::v_uint16x8 lo = cv::v_setzero_u16(), hi = cv::v_setzero_u16();
      for (int r = 0; r < ky; ++r) {
        cv::v_uint16x8 l, h;
        cv::v_expand(cv::v_load(top + r * step + j), l, h);
        lo += l;
        hi += h;
      }
      cv::v_store(acc + j, lo);
      cv::v_store(acc + j + 8, hi);
    }
#endif
    for (; j < n; ++j) {
      int sum = 0;
      for (int r = 0; r < ky; ++r) sum += top[r * step + static_cast<size_t>(j)];
      acc[j] = static_cast<uint16_t>(sum);
    }
    uint8_t* out = small.ptr<uint8_t>(y);
    if (cn == 3) {  // the camera's frames: the channels apart, in registers
      for (int x = 0; x < width; ++x) {
        const uint16_t* p = acc + x * kx * 3;
        int b = 0, g = 0, r = 0;
        for (int k = 0; k < kx; ++k, p += 3) b += p[0], g += p[1], r += p[2];
        out[3 * x] = cv::saturate_cast<uint8_t>(static_cast<float>(b) * scale);
        out[3 * x + 1] = cv::saturate_cast<uint8_t>(static_cast<float>(g) * scale);
        out[3 * x + 2] = cv::saturate_cast<uint8_t>(static_cast<float>(r) * scale);
      }
      continue;
    }
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < cn; ++c) {
        int sum = 0;
        const uint16_t* block = acc + x * kx * cn + c;
        for (int k = 0; k < kx; ++k) sum += block[k * cn];
        out[x * cn + c] = cv::saturate_cast<uint8_t>(static_cast<float>(sum) * scale);
      }
  }
  return true;
}

}  // namespace detail

bool MotionDetector::moving(const cv::Mat& frame) {
  Impl& im = *impl_;
  const int w = std::min(settings_.small_width, frame.cols);
  const cv::Size small(w, std::max(1, frame.rows * w / frame.cols));
  // Shrink first, then convert: the area average is what removes the noise, and it is cheaper this way.
  // By whole blocks where the frame is a whole number of small pixels across and down (720p and 1080p to
  // 160 wide: blocks of 8 and 12), the same to the bit as cv::INTER_AREA, whose vector code is for blocks
  // of 2 only: its plain loop took 12.3 million instructions a frame at 720p, a quarter of a deciding
  // frame's.
  if (!detail::shrink_by_blocks(frame, small.width, small.height, im.current, im.rows))
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
