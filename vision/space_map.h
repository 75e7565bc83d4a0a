#pragma once

#include <array>
#include <expected>
#include <string>

#include "vision/homography.h"
#include "vision/point2.h"

namespace bb::vision {

// Where each space lies on the board, in board units (the board's outer square is [0,1]^2 seen from above,
// x to the right, y down, GO in the bottom-right corner as the classic board is drawn). Spaces run along the
// four sides in the direction of play, the corner squares larger than the others. The grid can be adjusted
// once at setup so that it matches the printed board, and is stored with the configuration.
class SpaceMap {
 public:
  explicit SpaceMap(int spaces_per_side = 10, double corner_ratio = 1.6, double band_fraction = 0.22);

  int spaces_per_side() const { return spaces_per_side_; }
  int space_count() const { return 4 * spaces_per_side_; }
  double space_width() const { return width_; }          // of an ordinary space, along its side
  double corner_depth() const { return corner_; }        // depth of the ring, and side of a corner square
  double corner_ratio() const { return corner_ratio_; }  // a corner square's side over a space's width

  // The grid's corners (top-left, top-right, bottom-right, bottom-left) on the board: by default the
  // board's outer square; dragged at setup when the printed ring sits inside a margin.
  void set_grid(const std::array<Point2, 4>& corners);
  const std::array<Point2, 4>& grid() const { return grid_; }

  // -1 when p is not on any space (the centre of the board, or outside it).
  int space_at(Point2 board) const;
  // A point of space `space` from local coordinates: along = 0..1 in the direction of play, depth = 0 at the
  // board's outer edge to 1 at the inner edge of the ring.
  Point2 point_in_space(int space, double along, double depth) const;
  Point2 centre(int space) const { return point_in_space(space, 0.5, 0.5); }
  std::array<Point2, 4> outline(int space) const;
  // The colour band is printed along the inner edge of a space.
  std::array<Point2, 4> band_outline(int space) const;
  int side_of(int space) const { return space / spaces_per_side_; }

  std::string to_json() const;
  static std::expected<SpaceMap, std::string> from_json(const std::string& text);

  // Empty when consistent, else what is wrong (a bug: assert on it).
  std::string invariant_problem() const;

 private:
  struct Rect {
    double x0, y0, x1, y1;
  };
  Rect nominal_rect(int space) const;
  Point2 nominal_point(int space, double along, double depth) const;
  int nominal_space_at(Point2 p) const;

  int spaces_per_side_;
  double corner_ratio_;
  double band_fraction_;
  double width_;
  double corner_;
  std::array<Point2, 4> grid_;
  Homography to_grid_;    // nominal unit square -> board
  Homography from_grid_;  // board -> nominal unit square
};

}  // namespace bb::vision
