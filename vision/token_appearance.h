#pragma once

#include <array>
#include <expected>
#include <string>
#include <vector>

namespace bb::vision {

// A token's outline in the top view, as numbers that do not change when it is turned: how spread out its
// pixels are for their number (the first Hu moment), how elongated (smaller over larger axis) and how much
// of its enclosing circle it fills. A disc, a square, a triangle and a star differ clearly in the last.
struct ShapeFeatures {
  double spread = 0;
  double elongation = 0;
  double fill = 0;

  bool known() const { return fill > 0; }
};
// 0 for the same outline; about 1 is a clear difference.
double shape_distance(const ShapeFeatures& a, const ShapeFeatures& b);

// A small cap of another colour stuck on a token (optional): the share of the token's area it covers and
// its chromaticity (red, green), measured inside the token's outline.
struct CapFeatures {
  double share = 0;
  double r = 0, g = 0;

  bool present() const { return share >= 0.06; }
};
// 0 for the same cap (or none on either); about 1 is a clear difference, a cap against none is 3.
double cap_distance(const CapFeatures& a, const CapFeatures& b);

// A token as the camera learned it at setup: its colour (chromaticity and brightness relative to the light
// at setup, so it survives dimmer or warmer light), its size and its shape in the top view.
struct TokenAppearance {
  std::string name;              // T1, T2, ... or the family's own
  std::array<double, 3> mean{};  // red and green chromaticity, brightness 0..1
  std::array<double, 3> spread{};
  double area_px = 0;          // pixels in the top view when fully visible
  std::array<double, 7> hu{};  // log Hu moments of the outline found at setup
  ShapeFeatures shape;         // the outline as locate() sees it, to tell tokens of one colour apart
  CapFeatures cap;             // likewise for a cap, when the family stuck one on
  // The outline was cut out of tokens of one look touching at setup: a rough guide, weighed at half, until
  // the tracker replaces it with the first sure look at the token alone.
  bool outline_cut = false;
  // A faint token (a white one on pale paper): no pixel of it differs from the board beyond noise, but its
  // top is brighter and its rim and shadow darker over a token-sized place. It is found by that region's
  // centre-surround score (its middle's brightness change over the empty board, less its surroundings'),
  // which this holds as measured when it was learned; 0 for a token found by its pixels' colour.
  double faint_contrast = 0;

  bool faint() const { return faint_contrast > 0; }
  std::string problem() const;  // empty when usable
};

// A word for the token's colour as a person would say it (red, blue, grey, black, ...), for messages.
std::string colour_word(const TokenAppearance& token);

std::string tokens_to_json(const std::vector<TokenAppearance>& tokens);
std::expected<std::vector<TokenAppearance>, std::string> tokens_from_json(const std::string& text);

}  // namespace bb::vision
