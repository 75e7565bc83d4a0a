#pragma once
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "peripherals/edge_decoder.h"

namespace bb::peripherals::testing {

// A whole text file (a recorded trace); empty when it cannot be read, which the trace reader then refuses.
inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Feeds every edge, checking the decoder's invariant after each, then ends the input `tail` later.
inline std::vector<PeripheralEvent> decode_all(EdgeDecoder& decoder, const std::vector<Edge>& edges,
                                               Nanoseconds tail = kSecond) {
  std::vector<PeripheralEvent> events;
  for (const Edge& edge : edges) {
    decoder.feed(edge, events);
    EXPECT_TRUE(decoder.invariant_violations().empty()) << decoder.invariant_violations().front();
  }
  decoder.finish((edges.empty() ? 0 : edges.back().ts_ns) + tail, events);
  EXPECT_TRUE(decoder.invariant_violations().empty());
  return events;
}

inline std::vector<PeripheralEvent> of_kind(const std::vector<PeripheralEvent>& events, EventKind kind) {
  std::vector<PeripheralEvent> selected;
  for (const auto& event : events) {
    if (event.kind == kind) selected.push_back(event);
  }
  return selected;
}

}  // namespace bb::peripherals::testing
