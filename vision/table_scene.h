#pragma once

#include <cstdint>
#include <vector>

#include "vision/point2.h"

namespace bb::vision {

enum class TokenShape { circle, square, triangle, star, hexagon, diamond, cross, pentagon };

// How a synthetic token looks: a flat top of one colour and shape with a dark rim, and optionally a small
// round cap of another colour stuck on it (what a family adds to tokens that look alike).
struct TokenLook {
  uint32_t colour = 0xFF0000;  // 0xRRGGBB
  TokenShape shape = TokenShape::circle;
  uint32_t cap = 0;  // 0xRRGGBB of a small round cap stuck on top, 0 for none
  // A classic cast-metal token: its grey top catches the light in a bright sheen on one side and falls
  // darker on the other, so its look changes as it is turned.
  bool metallic = false;
};
// Tokens a camera finds hard, for measuring: a metal-like grey one, a black one, a white one, and (to make
// up a game) two coloured ones.
std::vector<TokenLook> hard_token_looks();
// Up to eight looks chosen to differ from each other, from the board's bands and from skin.
std::vector<TokenLook> default_token_looks(int count);

struct CameraPose {
  double tilt_deg = 0;            // away from straight down, up to 30 in the generated conditions
  double tilt_direction_deg = 0;  // which side of the board the camera leans towards
  double yaw_deg = 0;             // rotation of the image about the optical axis
  double board_fraction = 0.62;   // board side as a fraction of the frame height (sets the distance)
  double focal_factor = 0.9;      // focal length over frame width
  Point2 aim{0.5, 0.5};           // board point the camera looks at
};

struct Lighting {
  double level = 1.0;           // 0.35 (dim evening) .. 1.3 (bright)
  double temperature_k = 5500;  // 2700 (tungsten) .. 7500 (overcast daylight)
  double shadow_strength = 0;   // 0 .. 0.6: a soft shadow (a person, a lamp) over part of the board
  double shadow_angle_deg = 0;  // direction of the shadow's edge
  double shadow_offset = 0.0;   // where the edge crosses the board, -0.5 .. 0.5 board units from the centre
};

struct Degradation {
  double noise_sigma = 0;  // sensor noise, grey levels
  double blur_sigma = 0;   // defocus or motion, pixels
  int jpeg_quality = 0;    // 0 = none, else 1..100
};

// A hand and forearm reaching over the table: palm centred at `palm`, the arm leaving towards `from_deg`.
struct Hand {
  Point2 palm{0.5, 0.5};  // board units
  double from_deg = 90;   // direction from the palm to the elbow
  double size = 1.0;      // 1.0 = an adult hand on a 51 cm board
  uint32_t skin = 0xE0AC8C;
  uint32_t sleeve = 0x4A5560;
};

struct TokenPlacement {
  int token = 0;    // index into the looks
  Point2 position;  // centre, board units
  double rotation_deg = 0;
};

// Everything a synthetic frame depends on. Board placement on the table is in board units, so a bump of
// 2 cm on a 51 cm board is a shift of 0.04.
struct TableScene {
  std::vector<TokenPlacement> tokens;
  std::vector<Hand> hands;
  Point2 board_shift{0, 0};
  double board_rotation_deg = 0;
  CameraPose camera;
  Lighting light;
  Degradation degradation;
  bool markers = true;
  uint64_t noise_seed = 1;
};

}  // namespace bb::vision
