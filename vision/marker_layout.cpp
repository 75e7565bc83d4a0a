#include "vision/marker_layout.h"

#include <cassert>
#include <cstddef>

namespace bb::vision {

Point2 MarkerLayout::board_corner(int id) {
  assert(id >= 0 && id < count);
  static constexpr std::array<Point2, 4> corners{Point2{1, 1}, Point2{0, 1}, Point2{0, 0}, Point2{1, 0}};
  return corners[static_cast<std::size_t>(id)];
}

std::array<Point2, 4> MarkerLayout::corners(int id) const {
  const Point2 c = board_corner(id);
  const double x0 = c.x > 0.5 ? 1 - inset - size : inset;
  const double y0 = c.y > 0.5 ? 1 - inset - size : inset;
  return {Point2{x0, y0}, Point2{x0 + size, y0}, Point2{x0 + size, y0 + size}, Point2{x0, y0 + size}};
}

}  // namespace bb::vision
