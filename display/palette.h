#pragma once
#include <string>

#include "display/geometry.h"

namespace bb::display {

// The look of every screen: high contrast on a dark background, and player colours from the Okabe-Ito
// palette so that players with the common colour-vision deficiencies can still tell them apart.
class Palette {
 public:
  static constexpr int kPlayerColours = 8;
  static Colour player(int index);
  static std::string player_colour_name(int index);
  // "#RRGGBB" as editions write group colours; grey when unreadable.
  static Colour parse_hex(const std::string& hex);
  // A colour of a sequential scale (0..1) readable by colour-blind players (dark blue to yellow).
  static Colour heat(double t);
  // Black or white, whichever reads better on `background`.
  static Colour text_on(Colour background);

  static constexpr Colour background{16, 20, 24};
  static constexpr Colour panel{34, 41, 48};
  static constexpr Colour panel_light{52, 61, 70};
  static constexpr Colour text{245, 245, 245};
  static constexpr Colour muted{176, 186, 196};
  static constexpr Colour primary{0, 114, 178};
  static constexpr Colour accept{0, 140, 100};
  static constexpr Colour danger{200, 80, 0};
  static constexpr Colour disabled{58, 65, 72};
  static constexpr Colour disabled_text{150, 158, 166};
  static constexpr Colour highlight{240, 228, 66};
  static constexpr Colour shade{0, 0, 0, 170};
};

}  // namespace bb::display
