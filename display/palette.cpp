#include "display/palette.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace bb::display {
namespace {
// Okabe & Ito (2008), "Color Universal Design"; black is replaced by a light grey to stand out on the dark
// background.
constexpr std::array<Colour, Palette::kPlayerColours> kPlayers{{
    {230, 159, 0},    // orange
    {86, 180, 233},   // sky blue
    {0, 158, 115},    // bluish green
    {240, 228, 66},   // yellow
    {0, 114, 178},    // blue
    {213, 94, 0},     // vermillion
    {204, 121, 167},  // reddish purple
    {220, 220, 220},  // light grey
}};
constexpr std::array<const char*, Palette::kPlayerColours> kNames{"orange", "sky blue",   "green",  "yellow",
                                                                  "blue",   "vermillion", "purple", "grey"};

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

Colour Palette::player(int index) {
  return kPlayers[static_cast<std::size_t>(((index % kPlayerColours) + kPlayerColours) % kPlayerColours)];
}

std::string Palette::player_colour_name(int index) {
  return kNames[static_cast<std::size_t>(((index % kPlayerColours) + kPlayerColours) % kPlayerColours)];
}

Colour Palette::parse_hex(const std::string& hex) {
  if (hex.size() != 7 || hex[0] != '#') return {128, 128, 128};
  int v[6];
  for (int i = 0; i < 6; ++i) {
    v[i] = hex_digit(hex[static_cast<std::size_t>(i) + 1]);
    if (v[i] < 0) return {128, 128, 128};
  }
  return {static_cast<std::uint8_t>(v[0] * 16 + v[1]), static_cast<std::uint8_t>(v[2] * 16 + v[3]),
          static_cast<std::uint8_t>(v[4] * 16 + v[5])};
}

Colour Palette::heat(double t) {
  // Stops taken from the viridis scale, which stays ordered in lightness for every common deficiency.
  static constexpr std::array<Colour, 5> stops{
      {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}}};
  t = std::clamp(t, 0.0, 1.0) * (stops.size() - 1);
  const auto i = std::min(static_cast<std::size_t>(t), stops.size() - 2);
  const double f = t - static_cast<double>(i);
  auto mix = [f](std::uint8_t a, std::uint8_t b) {
    return static_cast<std::uint8_t>(std::lround(a + (b - a) * f));
  };
  return {mix(stops[i].r, stops[i + 1].r), mix(stops[i].g, stops[i + 1].g), mix(stops[i].b, stops[i + 1].b)};
}

Colour Palette::text_on(Colour bg) {
  const int luma = (bg.r * 299 + bg.g * 587 + bg.b * 114) / 1000;
  return luma > 140 ? Colour{0, 0, 0} : Colour{255, 255, 255};
}

}  // namespace bb::display
