#pragma once
#include <optional>

namespace bb::display {

// How far the picture is turned on the panel, clockwise, for a screen mounted another way up: `[screen]
// rotation` in the configuration. The screens are laid out in the layout's own upright coordinates; only the
// canvas (turning the drawn picture onto the panel) and the touch screen (turning touches back) know about
// it. A quarter turn swaps the sides: a 800x480 panel mounted portrait is laid out as 480x800. Plain values:
// any thread.
enum class Rotation { upright = 0, clockwise_90 = 90, upside_down = 180, clockwise_270 = 270 };

// 0, 90, 180 or 270; nothing for any other angle (the panel's pixels only turn by quarter turns).
constexpr std::optional<Rotation> rotation_from_degrees(int degrees) {
  switch (degrees) {
    case 0:
      return Rotation::upright;
    case 90:
      return Rotation::clockwise_90;
    case 180:
      return Rotation::upside_down;
    case 270:
      return Rotation::clockwise_270;
    default:
      return std::nullopt;
  }
}

constexpr int degrees(Rotation r) { return static_cast<int>(r); }

// Whether the layout's width runs along the panel's height.
constexpr bool swaps_sides(Rotation r) { return r == Rotation::clockwise_90 || r == Rotation::clockwise_270; }

// A pixel position, origin top left.
struct PixelPoint {
  int x = 0, y = 0;
  bool operator==(const PixelPoint&) const = default;
};

// A position as a fraction of the width and height, 0 to 1 (how SDL reports a finger on a touchscreen).
struct UnitPoint {
  float x = 0, y = 0;
};

// Which panel pixel shows the layout's pixel `p`, on a panel of panel_width x panel_height pixels.
constexpr PixelPoint layout_to_panel(Rotation r, int panel_width, int panel_height, PixelPoint p) {
  switch (r) {
    case Rotation::upright:
      return p;
    case Rotation::clockwise_90:  // the layout's top edge runs down the panel's right edge
      return {panel_width - 1 - p.y, p.x};
    case Rotation::upside_down:
      return {panel_width - 1 - p.x, panel_height - 1 - p.y};
    case Rotation::clockwise_270:  // the layout's top edge runs up the panel's left edge
      return {p.y, panel_height - 1 - p.x};
  }
  return p;
}

// The layout's pixel that the panel's pixel `p` shows (a mouse click on the panel): the inverse of
// layout_to_panel.
constexpr PixelPoint panel_to_layout(Rotation r, int panel_width, int panel_height, PixelPoint p) {
  switch (r) {
    case Rotation::upright:
      return p;
    case Rotation::clockwise_90:
      return {p.y, panel_width - 1 - p.x};
    case Rotation::upside_down:
      return {panel_width - 1 - p.x, panel_height - 1 - p.y};
    case Rotation::clockwise_270:
      return {panel_height - 1 - p.y, p.x};
  }
  return p;
}

// The same for fractions of the panel (a finger) and of the layout.
constexpr UnitPoint panel_to_layout(Rotation r, UnitPoint p) {
  switch (r) {
    case Rotation::upright:
      return p;
    case Rotation::clockwise_90:
      return {p.y, 1.0f - p.x};
    case Rotation::upside_down:
      return {1.0f - p.x, 1.0f - p.y};
    case Rotation::clockwise_270:
      return {1.0f - p.y, p.x};
  }
  return p;
}

constexpr UnitPoint layout_to_panel(Rotation r, UnitPoint p) {
  switch (r) {
    case Rotation::upright:
      return p;
    case Rotation::clockwise_90:
      return {1.0f - p.y, p.x};
    case Rotation::upside_down:
      return {1.0f - p.x, 1.0f - p.y};
    case Rotation::clockwise_270:
      return {p.y, 1.0f - p.x};
  }
  return p;
}

}  // namespace bb::display
