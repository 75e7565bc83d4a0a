#pragma once

#include <array>

#include "vision/point2.h"

namespace bb::vision {

// Where the four ArUco markers sit on the board, in board units: marker k in corner k (0 = the GO corner,
// bottom-right; then bottom-left, top-left, top-right, following play), upright as the GO side reads
// the board, `inset` from both outer edges. The printed sheet (MarkerSheet) uses the same numbers.
struct MarkerLayout {
  static constexpr int count = 4;
  double size = 0.07;    // side of the black square, in board sides (3.6 cm on a 51 cm board)
  double inset = 0.008;  // white margin between the board's edges and the black square

  // The marker's corners in ArUco order (top-left, top-right, bottom-right, bottom-left as printed).
  std::array<Point2, 4> corners(int id) const;
  static Point2 board_corner(int id);  // the board's own corner that marker `id` marks
};

}  // namespace bb::vision
