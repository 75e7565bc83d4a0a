#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <opencv2/imgproc.hpp>

#include "vision/token_locator.h"

// The maps of a perspective warp, made once for a fit that does not change (the tracker's deciding frames:
// the top view through the same calibration frame after frame). cv::warpPerspective makes them again on
// every call, block by block, before it remaps: 2.6 of the top view's 7.7 million instructions a deciding
// frame at 720p (bench_vision_speed).

namespace bb::vision::detail {

void perspective_maps(const std::array<double, 9>& m, int cols, int rows, cv::Mat& xy, cv::Mat& weights) {
  xy.create(rows, cols, CV_16SC2);
  weights.create(rows, cols, CV_16U);
  // OpenCV 4.6's warpPerspective (WarpPerspectiveInvoker, INTER_LINEAR) takes each pixel's source from its
  // row's value at the start of its block of columns plus the step times its place in the block: the
  // blocks' widths are part of the arithmetic, so they are the same here. Its vector code for a row (SSE4.1)
  // makes the same double operations in the same order as its plain code written out below.
  // (Its blocks of rows do not change the arithmetic: a row's number enters it whole.)
  constexpr int block = 32;
  const int block_cols = std::min(block * block / std::min(block / 2, rows), cols);
  constexpr int bits = cv::INTER_BITS, table = cv::INTER_TAB_SIZE;
  for (int y = 0; y < rows; ++y) {
    cv::Vec2s* to = xy.ptr<cv::Vec2s>(y);
    uint16_t* weight = weights.ptr<uint16_t>(y);
    for (int x = 0; x < cols; x += block_cols) {
      const int width = std::min(block_cols, cols - x);
      const double x0 = m[0] * x + m[1] * y + m[2];
      const double y0 = m[3] * x + m[4] * y + m[5];
      const double w0 = m[6] * x + m[7] * y + m[8];
      for (int k = 0; k < width; ++k) {
        double w = w0 + m[6] * k;
        w = w != 0 ? table / w : 0;
        const double fx = std::max(static_cast<double>(INT_MIN),
                                   std::min(static_cast<double>(INT_MAX), (x0 + m[0] * k) * w));
        const double fy = std::max(static_cast<double>(INT_MIN),
                                   std::min(static_cast<double>(INT_MAX), (y0 + m[3] * k) * w));
        const int sx = cv::saturate_cast<int>(fx), sy = cv::saturate_cast<int>(fy);
        to[x + k] = cv::Vec2s(cv::saturate_cast<short>(sx >> bits), cv::saturate_cast<short>(sy >> bits));
        weight[x + k] = static_cast<uint16_t>((sy & (table - 1)) * table + (sx & (table - 1)));
      }
    }
  }
}

}  // namespace bb::vision::detail
