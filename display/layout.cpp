#include "display/layout.h"

#include <cmath>

namespace bb::display {

Layout Layout::for_window(int width, int height) {
  Layout l;
  l.width = width;
  l.height = height;
  if (width >= 1280 && height >= 720) {
    l.size = Size::large;
    l.scale = 1.5;
  } else if (width >= 1024 && height >= 600) {
    l.size = Size::medium;
    l.scale = 1.25;
  }
  l.pad = l.s(8);
  l.target = l.s(48);
  l.button_h = l.s(52);
  l.bar_h = l.s(56);
  l.nav_h = l.s(56);
  l.row_h = l.s(48);
  l.font_small = l.s(16);
  l.font_body = l.s(20);
  l.font_large = l.s(26);
  l.font_huge = l.s(34);
  return l;
}

std::string Layout::name() const {
  switch (size) {
    case Size::compact:
      return "compact";
    case Size::medium:
      return "medium";
    case Size::large:
      return "large";
  }
  return "compact";
}

int Layout::s(int px) const { return static_cast<int>(std::lround(px * scale)); }

}  // namespace bb::display
