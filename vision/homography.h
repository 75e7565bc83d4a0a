#pragma once

#include <array>
#include <optional>
#include <vector>

#include "vision/point2.h"

namespace bb::vision {

// A plane-to-plane projective map, row-major 3x3. Kept free of OpenCV so that callers outside the module
// can store and compare calibrations.
class Homography {
 public:
  Homography();  // identity
  explicit Homography(const std::array<double, 9>& row_major);

  // Least-squares fit from >= 4 correspondences; nullopt when the points are degenerate.
  static std::optional<Homography> fit(const std::vector<Point2>& from, const std::vector<Point2>& to);

  Point2 apply(Point2 p) const;
  std::optional<Homography> inverse() const;
  Homography then(const Homography& next) const;  // next(this(p))
  const std::array<double, 9>& matrix() const { return m_; }

 private:
  std::array<double, 9> m_;
};

}  // namespace bb::vision
