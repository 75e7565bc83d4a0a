#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "peripherals/edge.h"

namespace bb::peripherals::fuzzing {

// Turns fuzz bytes into a timeline of edges, 3 bytes an edge: line and direction, then a delay that spans
// glitches (0 ns) to pulses, bit intervals and, with a flag, frame gaps and silent seconds.
inline std::vector<Edge> edges_from_bytes(const std::uint8_t* data, std::size_t size, int lines) {
  std::vector<Edge> edges;
  Nanoseconds t = 1'000'000'000;
  for (std::size_t i = 0; i + 3 <= size; i += 3) {
    const std::uint8_t control = data[i];
    const Nanoseconds delay = (data[i + 1] | (data[i + 2] << 8)) * Nanoseconds{100};
    t += delay;
    if (control & 0x80) t += 30 * kMillisecond;
    if ((control & 0xC0) == 0xC0) t += 2 * kSecond;
    edges.push_back({t, (control & 0x0F) % lines, (control & 0x10) != 0});
  }
  return edges;
}

}  // namespace bb::peripherals::fuzzing
