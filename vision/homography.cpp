#include "vision/homography.h"

#include <cmath>
#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>

namespace bb::vision {

Homography::Homography() : m_{1, 0, 0, 0, 1, 0, 0, 0, 1} {}
Homography::Homography(const std::array<double, 9>& row_major) : m_(row_major) {}

std::optional<Homography> Homography::fit(const std::vector<Point2>& from, const std::vector<Point2>& to) {
  if (from.size() != to.size() || from.size() < 4) return std::nullopt;
  std::vector<cv::Point2d> a, b;
  for (size_t i = 0; i < from.size(); ++i) {
    a.emplace_back(from[i].x, from[i].y);
    b.emplace_back(to[i].x, to[i].y);
  }
  cv::Mat h = cv::findHomography(a, b, 0);
  if (h.empty()) return std::nullopt;
  std::array<double, 9> m{};
  for (int i = 0; i < 9; ++i) m[static_cast<size_t>(i)] = h.at<double>(i / 3, i % 3);
  for (double v : m)
    if (!std::isfinite(v)) return std::nullopt;
  return Homography(m);
}

Point2 Homography::apply(Point2 p) const {
  const double w = m_[6] * p.x + m_[7] * p.y + m_[8];
  return {(m_[0] * p.x + m_[1] * p.y + m_[2]) / w, (m_[3] * p.x + m_[4] * p.y + m_[5]) / w};
}

std::optional<Homography> Homography::inverse() const {
  cv::Matx33d h(m_.data());
  if (std::abs(cv::determinant(h)) < 1e-15) return std::nullopt;
  cv::Matx33d inv = h.inv();
  std::array<double, 9> m{};
  for (int i = 0; i < 9; ++i) m[static_cast<size_t>(i)] = inv(i / 3, i % 3);
  return Homography(m);
}

Homography Homography::then(const Homography& next) const {
  cv::Matx33d a(m_.data()), b(next.m_.data());
  cv::Matx33d c = b * a;
  std::array<double, 9> m{};
  for (int i = 0; i < 9; ++i) m[static_cast<size_t>(i)] = c(i / 3, i % 3);
  return Homography(m);
}

}  // namespace bb::vision
