#include "display/board_geometry.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace bb::display {

BoardGeometry::BoardGeometry(Rect square, int spaces) : square_(square), spaces_(std::max(4, spaces)) {
  per_side_ = spaces_ / 4;
  const int s = std::min(square.w, square.h);
  // Printed boards make corners about 1.6 times as deep as a plain space is wide.
  const double units = (per_side_ - 1) + 2 * 1.6;
  edge_ = s / units;
  corner_ = static_cast<int>(std::lround(edge_ * 1.6));
  edge_ = static_cast<double>(s - 2 * corner_) / std::max(1, per_side_ - 1);
  square_.w = square_.h = s;
}

int BoardGeometry::side(rules::SpaceId space) const { return (space.number() / per_side_) % 4; }
bool BoardGeometry::corner(rules::SpaceId space) const { return space.number() % per_side_ == 0; }

Rect BoardGeometry::cell(rules::SpaceId space) const {
  assert(space.number() >= 0);
  const int S = square_.w, c = corner_;
  const int j = space.number() % per_side_;
  const int x0 = square_.x, y0 = square_.y;
  auto at = [this](int k) { return static_cast<int>(std::lround(k * edge_)); };
  const int e_from = at(j - 1), e_to = at(j);
  switch (side(space)) {
    case 0:
      if (j == 0) return {x0 + S - c, y0 + S - c, c, c};
      return {x0 + S - c - e_to, y0 + S - c, e_to - e_from, c};
    case 1:
      if (j == 0) return {x0, y0 + S - c, c, c};
      return {x0, y0 + S - c - e_to, c, e_to - e_from};
    case 2:
      if (j == 0) return {x0, y0, c, c};
      return {x0 + c + e_from, y0, e_to - e_from, c};
    default:
      if (j == 0) return {x0 + S - c, y0, c, c};
      return {x0 + S - c, y0 + c + e_from, c, e_to - e_from};
  }
}

Rect BoardGeometry::band(rules::SpaceId space, int t) const {
  const Rect r = cell(space);
  switch (side(space)) {
    case 0:
      return {r.x, r.y, r.w, t};
    case 1:
      return {r.right() - t, r.y, t, r.h};
    case 2:
      return {r.x, r.bottom() - t, r.w, t};
    default:
      return {r.x, r.y, t, r.h};
  }
}

Rect BoardGeometry::centre() const {
  return {square_.x + corner_, square_.y + corner_, square_.w - 2 * corner_, square_.h - 2 * corner_};
}

}  // namespace bb::display
