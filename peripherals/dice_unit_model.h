#pragma once
#include <array>
#include <vector>

#include "peripherals/dice_decoder.h"
#include "peripherals/edge.h"

namespace bb::peripherals {

struct DiceUnitTiming {
  Nanoseconds setup = 100 * kMicrosecond;  // data settles before the strobe
  Nanoseconds strobe = 3 * kMillisecond;   // strobe low time (the decoder wants >= 2 ms)
};

// What the dice unit does on its eight lines, as edges: the tests' and the simulator's stand-in for the
// real unit. It remembers the levels so it only emits edges for lines that change.
class DiceUnitModel {
 public:
  using Timing = DiceUnitTiming;
  DiceUnitModel() { levels_.fill(true); }  // idle = unplugged-looking until the unit drives the lines

  // Puts a and b (0-7) on the data lines with correct (or deliberately wrong) parity, then strobes.
  std::vector<Edge> report(Nanoseconds at, int a, int b, Timing timing, bool correct_parity = true);
  std::vector<Edge> report(Nanoseconds at, int a, int b) { return report(at, a, b, Timing{}); }
  // A strobe while the data lines change in the middle of it (the two reads disagree).
  std::vector<Edge> report_changing(Nanoseconds at, int a, int b, int a_later, Timing timing = {});
  // A strobe with whatever is on the lines now.
  std::vector<Edge> strobe(Nanoseconds at, Nanoseconds low_for);
  // The cable pulled: every line floats up to its pull-up.
  std::vector<Edge> unplug(Nanoseconds at);
  // The levels the unit drives at the moment: what a trace's level lines would state.
  const std::array<bool, DiceDecoder::kLineCount>& levels() const { return levels_; }

 private:
  void set_data(Nanoseconds at, int a, int b, bool correct_parity, std::vector<Edge>& out);
  void set_line(Nanoseconds at, int line, bool high, std::vector<Edge>& out);
  std::array<bool, DiceDecoder::kLineCount> levels_{};
};

}  // namespace bb::peripherals
