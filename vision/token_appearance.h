#pragma once

#include <array>
#include <expected>
#include <string>
#include <vector>

namespace bb::vision {

// A token as the camera learned it at setup: its colour (chromaticity and brightness relative to the light
// at setup, so it survives dimmer or warmer light), its size and its shape in the top view.
struct TokenAppearance {
  std::string name;              // T1, T2, ... or the family's own
  std::array<double, 3> mean{};  // red and green chromaticity, brightness 0..1
  std::array<double, 3> spread{};
  double area_px = 0;          // pixels in the top view when fully visible
  std::array<double, 7> hu{};  // shape (log Hu moments), to tell tokens of one colour apart

  std::string problem() const;  // empty when usable
};

std::string tokens_to_json(const std::vector<TokenAppearance>& tokens);
std::expected<std::vector<TokenAppearance>, std::string> tokens_from_json(const std::string& text);

}  // namespace bb::vision
