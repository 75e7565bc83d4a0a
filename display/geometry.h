#pragma once
#include <cstdint>

namespace bb::display {

// A rectangle in window pixels, origin top left.
struct Rect {
  int x = 0, y = 0, w = 0, h = 0;
  bool contains(int px, int py) const { return px >= x && py >= y && px < x + w && py < y + h; }
  bool contains(const Rect& r) const {
    return r.x >= x && r.y >= y && r.x + r.w <= x + w && r.y + r.h <= y + h;
  }
  bool overlaps(const Rect& r) const { return x < r.x + r.w && r.x < x + w && y < r.y + r.h && r.y < y + h; }
  int cx() const { return x + w / 2; }
  int cy() const { return y + h / 2; }
  int right() const { return x + w; }
  int bottom() const { return y + h; }
  Rect inset(int d) const { return {x + d, y + d, w - 2 * d, h - 2 * d}; }
  bool operator==(const Rect&) const = default;
};

struct Colour {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;
  bool operator==(const Colour&) const = default;
};

}  // namespace bb::display
