#include "vision/marker_patch.h"

#include <algorithm>
#include <cmath>
#include <opencv2/imgproc.hpp>

#include "vision/marker_detector.h"

namespace bb::vision {

namespace {

struct Look {
  double r, g, i;  // chromaticity and brightness 0..1
};

Look look_of(double b, double g, double r) {
  const double s = b + g + r + 3.0;
  return {r / s, g / s, (b + g + r) / (3 * 255.0)};
}

double chroma_distance(const Look& a, const Look& b) {
  const double dr = a.r - b.r, dg = a.g - b.g;
  return std::abs(dr) + std::abs(dg) + std::abs(dr + dg);
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  auto mid = v.begin() + static_cast<long>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

constexpr int drawn_side = 240;  // the marker drawn once at this size to read its cells from
constexpr int subsamples = 4;    // per top-view pixel and axis, for the share of white under it

}  // namespace

std::optional<MarkerPatch> rebuild_marker_patch(const cv::Mat& top, int marker_id, const MarkerLayout& layout,
                                                std::array<uint8_t, 3> paper) {
  const int s = top.cols;
  const auto corners = layout.corners(marker_id);
  const Point2 board_corner = MarkerLayout::board_corner(marker_id);
  const double pad = layout.inset;
  const double bx0 = std::min(board_corner.x, corners[0].x - pad),
               bx1 = std::max(board_corner.x, corners[2].x + pad);
  const double by0 = std::min(board_corner.y, corners[0].y - pad),
               by1 = std::max(board_corner.y, corners[2].y + pad);
  const int x0 = std::max(0, static_cast<int>(std::floor(bx0 * s))),
            x1 = std::min(s, static_cast<int>(std::ceil(bx1 * s)));
  const int y0 = std::max(0, static_cast<int>(std::floor(by0 * s))),
            y1 = std::min(s, static_cast<int>(std::ceil(by1 * s)));
  if (x1 - x0 < 4 || y1 - y0 < 4) return std::nullopt;

  cv::Mat drawn;
  MarkerDetector::draw(marker_id, drawn_side, drawn);
  // Share of white under each pixel: the margin is white, the square is the marker's cells.
  cv::Mat white_share(y1 - y0, x1 - x0, CV_32F);
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) {
      int white = 0;
      for (int sy = 0; sy < subsamples; ++sy)
        for (int sx = 0; sx < subsamples; ++sx) {
          const double bx = (x + (sx + 0.5) / subsamples) / s, by = (y + (sy + 0.5) / subsamples) / s;
          const double u = (bx - corners[0].x) / layout.size, v = (by - corners[0].y) / layout.size;
          if (u < 0 || v < 0 || u >= 1 || v >= 1) {
            ++white;
            continue;
          }
          white +=
              drawn.at<uint8_t>(static_cast<int>(v * drawn_side), static_cast<int>(u * drawn_side)) > 127;
        }
      white_share.at<float>(y - y0, x - x0) = static_cast<float>(white) / (subsamples * subsamples);
    }

  // The light's white: margin pixels of about the paper's colour (a coloured token on the margin is not),
  // the brighter half of them (a shadow or a grey token is darker). Black: the marker's own black cells.
  const Look paper_look = look_of(paper[0], paper[1], paper[2]);
  std::vector<std::array<double, 4>> whites, blacks;  // B, G, R, brightness
  for (int y = y0 + 1; y < y1 - 1; ++y)
    for (int x = x0 + 1; x < x1 - 1; ++x) {
      const float share = white_share.at<float>(y - y0, x - x0);
      const cv::Vec3b p = top.at<cv::Vec3b>(y, x);
      const Look l = look_of(p[0], p[1], p[2]);
      if (share >= 1.0f && chroma_distance(l, paper_look) < 0.15)
        whites.push_back({1. * p[0], 1. * p[1], 1. * p[2], l.i});
      if (share <= 0.0f) blacks.push_back({1. * p[0], 1. * p[1], 1. * p[2], l.i});
    }
  std::array<double, 3> white{paper[0] * 1.1, paper[1] * 1.1, paper[2] * 1.1};
  if (whites.size() >= 8) {
    std::sort(whites.begin(), whites.end(), [](const auto& a, const auto& b) { return a[3] > b[3]; });
    whites.resize(whites.size() / 2);
    for (size_t c = 0; c < 3; ++c) {
      std::vector<double> v;
      for (const auto& w : whites) v.push_back(w[c]);
      white[c] = median(v);
    }
  }
  const double white_i = (white[0] + white[1] + white[2]) / (3 * 255.0);
  std::array<double, 3> black{white[0] * 0.1, white[1] * 0.1, white[2] * 0.1};
  std::erase_if(blacks, [&](const auto& b) { return b[3] > 0.5 * white_i; });
  if (blacks.size() >= 8)
    for (size_t c = 0; c < 3; ++c) {
      std::vector<double> v;
      for (const auto& b : blacks) v.push_back(b[c]);
      black[c] = median(v);
    }

  // The view's softness: the blur of the sharp pattern that best explains what is seen (the parts under
  // tokens add about the same error to every candidate).
  cv::Mat grey;
  cv::cvtColor(top(cv::Rect(x0, y0, x1 - x0, y1 - y0)), grey, cv::COLOR_BGR2GRAY);
  const double black_grey = 0.114 * black[0] + 0.587 * black[1] + 0.299 * black[2];
  const double white_grey = 0.114 * white[0] + 0.587 * white[1] + 0.299 * white[2];
  cv::Mat best_share = white_share;
  double best_error = 1e18;
  for (double sigma : {0.0, 0.6, 0.9, 1.3, 1.8, 2.5}) {
    cv::Mat blurred = white_share;
    if (sigma > 0) cv::GaussianBlur(white_share, blurred, cv::Size(), sigma, sigma, cv::BORDER_REPLICATE);
    std::vector<double> errors;
    errors.reserve(static_cast<size_t>(blurred.total()));
    for (int y = 0; y < blurred.rows; ++y)
      for (int x = 0; x < blurred.cols; ++x)
        errors.push_back(std::abs(grey.at<uint8_t>(y, x) -
                                  (black_grey + (white_grey - black_grey) * blurred.at<float>(y, x))));
    const double error = median(errors);
    if (error < best_error) best_error = error, best_share = blurred;
  }

  MarkerPatch patch;
  patch.x = x0, patch.y = y0, patch.width = x1 - x0, patch.height = y1 - y0;
  patch.bgr.resize(3 * static_cast<size_t>(patch.width) * static_cast<size_t>(patch.height));
  size_t k = 0;
  for (int y = 0; y < patch.height; ++y)
    for (int x = 0; x < patch.width; ++x) {
      const double w = best_share.at<float>(y, x);
      for (size_t c = 0; c < 3; ++c)
        patch.bgr[k++] = cv::saturate_cast<uint8_t>(black[c] + (white[c] - black[c]) * w);
    }
  for (size_t c = 0; c < 3; ++c) patch.white[c] = cv::saturate_cast<uint8_t>(white[c]);
  return patch;
}

}  // namespace bb::vision
