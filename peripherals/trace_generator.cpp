#include "peripherals/trace_generator.h"

#include <algorithm>

namespace bb::peripherals {

std::vector<Edge> wiegand_edges(std::span<const std::uint8_t> bits, Nanoseconds start, WiegandPulses timing) {
  std::vector<Edge> edges;
  edges.reserve(bits.size() * 2);
  Nanoseconds t = start;
  for (const std::uint8_t bit : bits) {
    const int line = bit ? 1 : 0;
    edges.push_back({t, line, false});
    edges.push_back({t + timing.pulse, line, true});
    t += timing.interval;
  }
  return edges;
}

std::vector<Edge> with_bounce(const std::vector<Edge>& edges, int count, Nanoseconds width) {
  std::vector<Edge> bounced;
  bounced.reserve(edges.size() * static_cast<std::size_t>(1 + 2 * count));
  for (const Edge& edge : edges) {
    bounced.push_back(edge);
    for (int i = 0; i < count; ++i) {
      const Nanoseconds t = edge.ts_ns + (2 * i + 1) * width;
      bounced.push_back({t, edge.line, !edge.rising});
      bounced.push_back({t + width, edge.line, edge.rising});
    }
  }
  std::stable_sort(bounced.begin(), bounced.end(),
                   [](const Edge& a, const Edge& b) { return a.ts_ns < b.ts_ns; });
  return bounced;
}

std::vector<Edge> glitch(int line, Nanoseconds at, Nanoseconds width) {
  return {{at, line, false}, {at + width, line, true}};
}

std::vector<Edge> swap_lines01(const std::vector<Edge>& edges) {
  std::vector<Edge> swapped = edges;
  for (Edge& edge : swapped) {
    if (edge.line == 0 || edge.line == 1) edge.line = 1 - edge.line;
  }
  return swapped;
}

std::vector<Edge> merge_edges(const std::vector<Edge>& a, const std::vector<Edge>& b) {
  std::vector<Edge> merged;
  merged.reserve(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(merged),
             [](const Edge& x, const Edge& y) { return x.ts_ns < y.ts_ns; });
  return merged;
}

std::vector<Edge> button_press_edges(Nanoseconds start, Nanoseconds hold, int bounce_count,
                                     Nanoseconds bounce_width) {
  return with_bounce({{start, 0, false}, {start + hold, 0, true}}, bounce_count, bounce_width);
}

}  // namespace bb::peripherals
