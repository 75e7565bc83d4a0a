#include "display/calibration_screen.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "display/frame_builder.h"
#include "display/palette.h"
#include "display/ui_context.h"
#include "display/widgets.h"

namespace bb::display {

namespace {

constexpr Colour grid_colour{86, 180, 233};  // sky blue: reads on a white board and on a wooden table
constexpr Colour handle_fill{240, 228, 66, 110};
constexpr Colour handle_mark{16, 20, 24};

// The projective map of the unit square onto a quadrilateral (top-left, top-right, bottom-right,
// bottom-left), as a printed board looks when its grid is dragged: lines stay lines.
class SquareToQuad {
 public:
  explicit SquareToQuad(const std::array<BoardPoint, 4>& q) {
    const double x0 = q[0].x, y0 = q[0].y, x1 = q[1].x, y1 = q[1].y, x2 = q[2].x, y2 = q[2].y, x3 = q[3].x,
                 y3 = q[3].y;
    const double sx = x0 - x1 + x2 - x3, sy = y0 - y1 + y2 - y3;
    const double dx1 = x1 - x2, dx2 = x3 - x2, dy1 = y1 - y2, dy2 = y3 - y2;
    const double den = dx1 * dy2 - dx2 * dy1;
    if (std::abs(den) > 1e-12) {
      g_ = (sx * dy2 - dx2 * sy) / den;
      h_ = (dx1 * sy - sx * dy1) / den;
    }
    a_ = x1 - x0 + g_ * x1;
    b_ = x3 - x0 + h_ * x3;
    c_ = x0;
    d_ = y1 - y0 + g_ * y1;
    e_ = y3 - y0 + h_ * y3;
    f_ = y0;
  }
  BoardPoint operator()(double u, double v) const {
    double w = g_ * u + h_ * v + 1;
    if (std::abs(w) < 1e-9) w = 1e-9;
    return {(a_ * u + b_ * v + c_) / w, (d_ * u + e_ * v + f_) / w};
  }

 private:
  double a_ = 0, b_ = 0, c_ = 0, d_ = 0, e_ = 0, f_ = 0, g_ = 0, h_ = 0;
};

// Liang-Barsky: clips the segment to the rectangle; false when nothing of it is inside.
bool clip(double& x1, double& y1, double& x2, double& y2, const Rect& r) {
  double t0 = 0, t1 = 1;
  const double dx = x2 - x1, dy = y2 - y1;
  const double p[4] = {-dx, dx, -dy, dy};
  const double q[4] = {x1 - r.x, r.right() - 1 - x1, y1 - r.y, r.bottom() - 1 - y1};
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0) {
      if (q[i] < 0) return false;
      continue;
    }
    const double t = q[i] / p[i];
    if (p[i] < 0)
      t0 = std::max(t0, t);
    else
      t1 = std::min(t1, t);
    if (t0 > t1) return false;
  }
  const double ax = x1 + t0 * dx, ay = y1 + t0 * dy;
  x2 = x1 + t1 * dx;
  y2 = y1 + t1 * dy;
  x1 = ax;
  y1 = ay;
  return true;
}

std::string corner_id(int corner) { return "calibration.corner." + std::to_string(corner); }

int round_px(double v) { return static_cast<int>(std::lround(v)); }

bool usable(const CalibrationView* cal) {
  return cal && cal->width > 0 && cal->height > 0 && cal->view_max > cal->view_min &&
         cal->rgb.size() >= static_cast<std::size_t>(cal->width) * static_cast<std::size_t>(cal->height) * 3;
}

}  // namespace

double CalibrationScreen::Geometry::px(double u) const { return (u - view_min) / (view_max - view_min); }
double CalibrationScreen::Geometry::unit_x(double x) const {
  return view_min + (x - view.x) / view.w * (view_max - view_min);
}
double CalibrationScreen::Geometry::unit_y(double y) const {
  return view_min + (y - view.y) / view.h * (view_max - view_min);
}

std::vector<CalibrationScreen::Segment> CalibrationScreen::grid_lines(
    const std::array<BoardPoint, 4>& corners, int spaces_per_side, double corner_ratio) {
  const SquareToQuad map(corners);
  const double width = 1.0 / (2.0 * corner_ratio + (spaces_per_side - 1));
  const double c = corner_ratio * width;
  std::vector<Segment> out;
  auto add = [&](double u0, double v0, double u1, double v1) { out.push_back({map(u0, v0), map(u1, v1)}); };
  // The outer edge and the inner edge of the ring.
  add(0, 0, 1, 0);
  add(1, 0, 1, 1);
  add(1, 1, 0, 1);
  add(0, 1, 0, 0);
  add(c, c, 1 - c, c);
  add(1 - c, c, 1 - c, 1 - c);
  add(1 - c, 1 - c, c, 1 - c);
  add(c, 1 - c, c, c);
  // The borders between spaces, across the ring on each side (the first and last border each side meet
  // the corner squares).
  for (int j = 0; j < spaces_per_side; ++j) {
    const double t = c + j * width;
    add(t, 0, t, c);      // top side
    add(t, 1 - c, t, 1);  // bottom side
    add(0, t, c, t);      // left side
    add(1 - c, t, 1, t);  // right side
  }
  return out;
}

bool CalibrationScreen::convex(const std::array<BoardPoint, 4>& q) {
  // Every turn clockwise on the screen (y down), as the board's own corners go: a folded or mirrored grid
  // would send the spaces the wrong way round.
  for (std::size_t i = 0; i < 4; ++i) {
    const BoardPoint a = q[i], b = q[(i + 1) % 4], c = q[(i + 2) % 4];
    const double cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x);
    if (cross < 1e-4) return false;
  }
  return true;
}

void CalibrationScreen::sync(const CalibrationView& cal) {
  // A new stored grid (the first view, or one saved since) replaces whatever was being dragged.
  if (synced_ && cal.grid == synced_grid_) return;
  corners_ = cal.grid;
  synced_grid_ = cal.grid;
  synced_ = true;
  dragging_ = -1;
}

void CalibrationScreen::build(FrameBuilder& fb, UiContext& ui) {
  const auto& l = fb.layout();
  fb.fill({0, 0, l.width, l.height}, Palette::background);
  const Rect body = Widgets::top_bar(fb, ui, "Camera: adjust the space grid");
  const CalibrationView* cal = ui.snapshot().calibration;
  const int button_h = l.button_h;

  if (!usable(cal)) {
    const Rect box{l.pad * 2, body.y + l.pad * 2, l.width - l.pad * 4, body.h - button_h - l.pad * 6};
    fb.paragraph(box,
                 "There is no top view of the board yet. Point the camera at the board so that the four "
                 "corner markers show, then open this screen again.",
                 FontFace::regular, l.font_body, Palette::muted, Align::centre);
    const int w = std::max(l.s(160), l.target);
    fb.button("calibration.cancel", {(l.width - w) / 2, l.height - l.pad - button_h, w, button_h}, "Cancel",
              Palette::panel_light, [&ui] {
                ui.emit(CancelCalibration{});
                ui.go(ScreenId::home);
              });
    return;
  }
  sync(*cal);

  // The top view: a square as large as the height allows, leaving room on the right for words and buttons.
  const int side = std::min(body.h - 2 * l.pad, l.width * 3 / 5);
  geometry_.view = {l.pad, body.y + l.pad, side, side};
  geometry_.view_min = cal->view_min;
  geometry_.view_max = cal->view_max;
  geometry_.handle_radius = std::max(l.s(26), l.target / 2 + 2);
  const Geometry& g = geometry_;
  fb.image(g.view, Image{cal->width, cal->height, &cal->rgb});

  for (const auto& s : grid_lines(corners_, cal->spaces_per_side, cal->corner_ratio)) {
    double x1 = g.px_x(s.a.x), y1 = g.px_y(s.a.y), x2 = g.px_x(s.b.x), y2 = g.px_y(s.b.y);
    if (clip(x1, y1, x2, y2, g.view))
      fb.line(round_px(x1), round_px(y1), round_px(x2), round_px(y2), grid_colour, 2);
  }

  // Four handles a finger can hold: a translucent disc with cross hairs, so the board's corner stays
  // visible under it. They are touch targets too (a tap shows the corner enlarged), so that tests and the
  // layout checks see them.
  const int r = g.handle_radius;
  for (int k = 0; k < 4; ++k) {
    const int cx = round_px(g.px_x(corners_[static_cast<std::size_t>(k)].x));
    const int cy = round_px(g.px_y(corners_[static_cast<std::size_t>(k)].y));
    const bool held = k == dragging_;
    fb.circle({cx - r, cy - r, 2 * r, 2 * r}, held ? Colour{240, 228, 66, 160} : handle_fill);
    fb.line(cx - r, cy, cx + r, cy, handle_mark, 2);
    fb.line(cx, cy - r, cx, cy + r, handle_mark, 2);
    fb.circle({cx - 3, cy - 3, 6, 6}, Palette::danger);
    fb.area(corner_id(k), {cx - r, cy - r, 2 * r, 2 * r}, [this, k] { last_corner_ = k; });
  }

  // The words, the enlarged corner and the buttons, in the column on the right.
  const int col_x = g.view.right() + 2 * l.pad;
  const Rect col{col_x, body.y + l.pad, l.width - col_x - l.pad, body.h - 2 * l.pad};
  int y = col.y;
  y +=
      fb.paragraph({col.x, y, col.w, l.s(84)}, "Drag the four corners onto the corners of the printed board.",
                   FontFace::bold, l.font_body, Palette::text);
  y += l.pad;
  y += fb.paragraph({col.x, y, col.w, l.s(66)},
                    "The blue lines should then lie on the lines between the spaces. Save keeps it for "
                    "every game.",
                    FontFace::regular, l.font_small, Palette::muted);
  y += l.pad;

  const int buttons_top = col.bottom() - 2 * button_h - l.pad;
  const int mag_side = std::min(col.w, buttons_top - l.pad - y);
  const int shown = dragging_ >= 0 ? dragging_ : last_corner_;
  if (mag_side >= l.s(96)) {
    const Rect box{col.x + (col.w - mag_side) / 2, y, mag_side, mag_side};
    if (shown >= 0) {
      magnifier(fb, *cal, box, shown);
    } else {
      fb.fill(box, Palette::panel);
      fb.paragraph(box.inset(l.s(10)), "Hold a corner to see it enlarged here.", FontFace::regular,
                   l.font_small, Palette::muted, Align::centre);
    }
  }

  const int half = (col.w - l.pad) / 2;
  fb.button("calibration.reset", {col.x, buttons_top, half, button_h}, "Reset", Palette::panel_light,
            [this, &ui] {
              const CalibrationView* c = ui.snapshot().calibration;
              if (c) corners_ = c->default_grid;
              dragging_ = -1;
              ui.say("The grid is back on the board's edge");
            });
  fb.button("calibration.cancel", {col.x + half + l.pad, buttons_top, col.w - half - l.pad, button_h},
            "Cancel", Palette::panel_light, [this, &ui] {
              synced_ = false;  // next time, start again from what is stored
              ui.emit(CancelCalibration{});
              ui.go(ScreenId::home);
            });
  const bool can_save = convex(corners_);
  fb.button(
      "calibration.save", {col.x, buttons_top + button_h + l.pad, col.w, button_h}, "Save", Palette::accept,
      [this, &ui] {
        ui.emit(SaveSpaceGrid{corners_});
        ui.say("Saved: the camera uses this grid from now on");
      },
      can_save, "The corners are crossed: drag each onto its own corner of the board");
}

void CalibrationScreen::magnifier(FrameBuilder& fb, const CalibrationView& cal, Rect box, int corner) const {
  const Geometry& g = geometry_;
  constexpr double zoom = 3.0;  // relative to the top view as drawn
  const BoardPoint p = corners_[static_cast<std::size_t>(corner)];
  // The crop of the top view, in image pixels, centred on the corner where the image allows.
  const double image_per_px = cal.width / static_cast<double>(g.view.w);
  const int crop = std::max(8, round_px(box.w / zoom * image_per_px));
  const double ix = g.px(p.x) * cal.width, iy = g.px(p.y) * cal.height;
  const int sx = std::clamp(round_px(ix - crop / 2.0), 0, std::max(0, cal.width - crop));
  const int sy = std::clamp(round_px(iy - crop / 2.0), 0, std::max(0, cal.height - crop));
  const int cw = std::min(crop, cal.width), ch = std::min(crop, cal.height);
  fb.fill(box, Palette::panel);
  fb.image(box, Image{cal.width, cal.height, &cal.rgb}, {sx, sy, cw, ch});
  // Board units -> magnifier pixels.
  auto mx = [&](double u) { return box.x + (g.px(u) * cal.width - sx) / cw * box.w; };
  auto my = [&](double v) { return box.y + (g.px(v) * cal.height - sy) / ch * box.h; };
  for (const auto& s : grid_lines(corners_, cal.spaces_per_side, cal.corner_ratio)) {
    double x1 = mx(s.a.x), y1 = my(s.a.y), x2 = mx(s.b.x), y2 = my(s.b.y);
    if (clip(x1, y1, x2, y2, box))
      fb.line(round_px(x1), round_px(y1), round_px(x2), round_px(y2), grid_colour, 2);
  }
  const int cx = round_px(mx(p.x)), cy = round_px(my(p.y));
  const int arm = box.w / 8;
  fb.line(std::max(box.x, cx - arm), cy, std::min(box.right() - 1, cx + arm), cy, Palette::danger, 2);
  fb.line(cx, std::max(box.y, cy - arm), cx, std::min(box.bottom() - 1, cy + arm), Palette::danger, 2);
  fb.outline(box, Palette::highlight, 2);
}

bool CalibrationScreen::on_press(int x, int y, UiContext& ui) {
  if (!usable(ui.snapshot().calibration) || !synced_) return false;
  const Geometry& g = geometry_;
  // The nearest handle within reach of a fingertip (a little more than the drawn disc).
  const double reach = g.handle_radius * 1.4;
  int best = -1;
  double best_d = reach;
  for (int k = 0; k < 4; ++k) {
    const double dx = g.px_x(corners_[static_cast<std::size_t>(k)].x) - x;
    const double dy = g.px_y(corners_[static_cast<std::size_t>(k)].y) - y;
    const double d = std::hypot(dx, dy);
    if (d <= best_d) best_d = d, best = k;
  }
  if (best < 0) return false;
  dragging_ = best;
  last_corner_ = best;
  // Keep the finger where it took hold, so the corner does not jump under it.
  grab_dx_ = g.px_x(corners_[static_cast<std::size_t>(best)].x) - x;
  grab_dy_ = g.px_y(corners_[static_cast<std::size_t>(best)].y) - y;
  return true;
}

void CalibrationScreen::move_corner(int x, int y) {
  if (dragging_ < 0) return;
  const Geometry& g = geometry_;
  // The handle stays wholly on the picture (and off the buttons beside it).
  const double r = g.handle_radius;
  const double px = std::clamp(x + grab_dx_, g.view.x + r, g.view.right() - r);
  const double py = std::clamp(y + grab_dy_, g.view.y + r, g.view.bottom() - r);
  // Two handles on top of each other could not be told apart by a finger: a handle stops short of another.
  for (int k = 0; k < 4; ++k) {
    if (k == dragging_) continue;
    const double ox = g.px_x(corners_[static_cast<std::size_t>(k)].x);
    const double oy = g.px_y(corners_[static_cast<std::size_t>(k)].y);
    if (std::abs(ox - px) < 2 * r + 1 && std::abs(oy - py) < 2 * r + 1) return;
  }
  corners_[static_cast<std::size_t>(dragging_)] = {g.unit_x(px), g.unit_y(py)};
}

void CalibrationScreen::on_drag(int x, int y, UiContext& /*ui*/) { move_corner(x, y); }

void CalibrationScreen::on_release(int x, int y, UiContext& /*ui*/) {
  move_corner(x, y);
  dragging_ = -1;
}

}  // namespace bb::display
