#pragma once
#include "display/geometry.h"

namespace bb::display {

// Where each space of a square board sits on the screen: start in the bottom-right corner, play running
// left along the bottom, as on the printed board. Works for any number of spaces divisible by four.
class BoardGeometry {
 public:
  BoardGeometry(Rect square, int spaces);
  Rect cell(int space) const;
  // Which edge the cell is on (0 bottom, 1 left, 2 top, 3 right), for the colour band on its inner side.
  int side(int space) const;
  bool corner(int space) const;
  Rect band(int space, int thickness) const;
  Rect centre() const;  // the middle of the board inside the ring
  int spaces() const { return spaces_; }

 private:
  Rect square_;
  int spaces_;
  int per_side_;
  int corner_;
  double edge_;
};

}  // namespace bb::display
