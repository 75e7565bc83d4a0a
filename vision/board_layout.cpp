#include "vision/board_layout.h"

#include <fmt/format.h>

namespace bb::vision {

std::string BoardLayout::problem() const {
  if (spaces_per_side < 3 || spaces_per_side > 20)
    return fmt::format("spaces_per_side is {}; a board needs 3 to 20 spaces per side", spaces_per_side);
  const auto n = static_cast<size_t>(space_count());
  if (names.size() != n) return fmt::format("{} names for {} spaces", names.size(), n);
  if (band_colours.size() != n) return fmt::format("{} band colours for {} spaces", band_colours.size(), n);
  return {};
}

BoardLayout classic_layout() {
  constexpr uint32_t brown = 0x8B4513, light_blue = 0xAAD8F0, pink = 0xD93A96, orange = 0xF7941D,
                     red = 0xED1B24, yellow = 0xFEF200, green = 0x1FB25A, dark_blue = 0x0072BB;
  BoardLayout layout;
  layout.spaces_per_side = 10;
  layout.names = {"GO",           "Old Kent Rd",  "Chest",       "Whitechapel", "Income Tax",
                  "Kings Cross",  "Angel",        "Chance",      "Euston Rd",   "Pentonville",
                  "Jail",         "Pall Mall",    "Electric",    "Whitehall",   "Northumberland",
                  "Marylebone",   "Bow St",       "Chest",       "Marlborough", "Vine St",
                  "Free Parking", "Strand",       "Chance",      "Fleet St",    "Trafalgar",
                  "Fenchurch",    "Leicester Sq", "Coventry St", "Water Works", "Piccadilly",
                  "Go To Jail",   "Regent St",    "Oxford St",   "Chest",       "Bond St",
                  "Liverpool St", "Chance",       "Park Lane",   "Super Tax",   "Mayfair"};
  layout.band_colours = {0, brown, 0,     brown, 0,     0, light_blue, 0,         light_blue, light_blue,
                         0, pink,  0,     pink,  pink,  0, orange,     0,         orange,     orange,
                         0, red,   0,     red,   red,   0, yellow,     yellow,    0,          yellow,
                         0, green, green, 0,     green, 0, 0,          dark_blue, 0,          dark_blue};
  return layout;
}

}  // namespace bb::vision
