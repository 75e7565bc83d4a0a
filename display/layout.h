#pragma once
#include <string>

namespace bb::display {

// Sizes of type and touch targets for one window size. Three layouts are tuned for the displays a family is
// likely to have (the official 7-inch 800x480, 1024x600 panels, 1280x720 HDMI screens); the window size
// picks one, and screens spread into any extra room.
struct Layout {
  enum class Size { compact, medium, large };
  Size size = Size::compact;
  int width = 800;
  int height = 480;
  double scale = 1.0;

  int pad = 8;
  int target = 48;  // smallest touch target: 9 mm on the 7-inch display
  int button_h = 52;
  int bar_h = 56;  // the top bar with the way back
  int nav_h = 56;  // the home screen's row of screen buttons
  int row_h = 48;
  int font_small = 16;
  int font_body = 20;
  int font_large = 26;
  int font_huge = 34;

  static Layout for_window(int width, int height);
  std::string name() const;
  int s(int px) const;  // a compact-layout length scaled to this layout
};

}  // namespace bb::display
