#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bb::vision {

// What vision needs to know of an edition's board: how many spaces per side, their names and the colour
// band printed on each (0 = no band). The daemon builds it from the rules edition; vision never reads rules.
struct BoardLayout {
  int spaces_per_side = 10;            // 10 for the classic 40-space board
  std::vector<std::string> names;      // one per space, space 0 first (GO)
  std::vector<uint32_t> band_colours;  // 0xRRGGBB per space, 0 for none

  int space_count() const { return 4 * spaces_per_side; }
  // Empty string when the layout is usable, else what is wrong.
  std::string problem() const;
};

// The classic 40-space board, used by the command line and the tests when no edition file is given.
BoardLayout classic_layout();

}  // namespace bb::vision
