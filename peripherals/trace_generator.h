#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "peripherals/edge.h"

namespace bb::peripherals {

// Pure functions that produce the edges a device would: the tests and the simulated backends use them.

struct WiegandPulses {
  Nanoseconds pulse = 50 * kMicrosecond;    // readers: 20-100 us
  Nanoseconds interval = 2 * kMillisecond;  // start to start: 0.2-20 ms
};
// A low pulse on D0 (line 0) for each 0 bit, on D1 (line 1) for each 1 bit, the first starting at start.
std::vector<Edge> wiegand_edges(std::span<const std::uint8_t> bits, Nanoseconds start,
                                WiegandPulses timing = {});

// Contact bounce: after every edge, `count` extra pairs of toggles `width` apart (the level ends as it was).
std::vector<Edge> with_bounce(const std::vector<Edge>& edges, int count, Nanoseconds width);
// A short low pulse on a line that is otherwise high.
std::vector<Edge> glitch(int line, Nanoseconds at, Nanoseconds width);
// Lines 0 and 1 exchanged (D0 and D1 wired the wrong way round).
std::vector<Edge> swap_lines01(const std::vector<Edge>& edges);
// Both sequences in one, in timestamp order (stable: a's edges first at equal times).
std::vector<Edge> merge_edges(const std::vector<Edge>& a, const std::vector<Edge>& b);

// A press of the roll button (line 0, low while pressed), with bounce at both ends.
std::vector<Edge> button_press_edges(Nanoseconds start, Nanoseconds hold, int bounce_count = 3,
                                     Nanoseconds bounce_width = 300 * kMicrosecond);

}  // namespace bb::peripherals
