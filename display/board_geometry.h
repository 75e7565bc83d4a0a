#pragma once
#include "display/geometry.h"
#include "rules/ids.h"

namespace bb::display {

// Where each space of a square board sits on the screen: start in the bottom-right corner, play running
// left along the bottom, as on the printed board. Works for any number of spaces divisible by four.
// Plain data: any thread.
class BoardGeometry {
 public:
  // `spaces`: how many spaces the board has (at least 4).
  BoardGeometry(Rect square, int spaces);
  Rect cell(rules::SpaceId space) const;
  // Which edge the cell is on (0 bottom, 1 left, 2 top, 3 right), for the colour band on its inner side.
  int side(rules::SpaceId space) const;
  bool corner(rules::SpaceId space) const;
  Rect band(rules::SpaceId space, int thickness) const;
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
