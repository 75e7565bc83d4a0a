#pragma once
#include <array>
#include <vector>

#include "display/geometry.h"
#include "display/snapshot.h"
#include "display/view.h"

namespace bb::display {

// Set-up once per board: the camera's top view of the board with the space grid drawn over it, and four
// large corner handles a finger drags onto the corners of the printed board. Save emits the grid (four
// points in board units) for the caller to store; Reset puts the grid back on the board's outer square;
// Cancel leaves without saving. While a corner is held, an enlarged view of it shows where it sits.
class CalibrationScreen : public View {
 public:
  struct Segment {
    BoardPoint a, b;
  };

  void build(FrameBuilder& fb, UiContext& ui) override;
  bool on_press(int x, int y, UiContext& ui) override;
  void on_drag(int x, int y, UiContext& ui) override;
  void on_release(int x, int y, UiContext& ui) override;

  // The lines of the space grid (outer edge, inner edge of the ring, the borders between spaces) in board
  // units, for a grid with these corners (top-left, top-right, bottom-right, bottom-left).
  static std::vector<Segment> grid_lines(const std::array<BoardPoint, 4>& corners, int spaces_per_side,
                                         double corner_ratio);
  // Whether the four corners make a convex quadrilateral turning the way the board's corners do (a grid
  // that can be used).
  static bool convex(const std::array<BoardPoint, 4>& corners);

 private:
  struct Geometry {
    Rect view;  // where the top view is drawn
    double view_min = 0, view_max = 1;
    int handle_radius = 26;
    double px(double u) const;  // board units -> window pixels along one axis
    double unit_x(double x) const;
    double unit_y(double y) const;
    double px_x(double u) const { return view.x + px(u) * view.w; }
    double px_y(double v) const { return view.y + px(v) * view.h; }
  };
  void sync(const CalibrationView& cal);
  void move_corner(int x, int y);
  void magnifier(FrameBuilder& fb, const CalibrationView& cal, Rect box, int corner) const;

  std::array<BoardPoint, 4> corners_{};
  std::array<BoardPoint, 4> synced_grid_{};
  bool synced_ = false;
  Geometry geometry_;
  int dragging_ = -1;
  int last_corner_ = -1;  // the corner shown enlarged
  double grab_dx_ = 0, grab_dy_ = 0;
};

}  // namespace bb::display
