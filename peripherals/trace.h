#pragma once
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "peripherals/edge.h"

namespace bb::peripherals {

// A recorded or generated GPIO session, in the plain-text format of docs/hardware.md:
//   # boardbank-trace 1 device=wiegand d0=GPIO5 d1=GPIO6
//   level GPIO5 1                 (optional, before the first edge: a line's level at the start)
//   1000000 GPIO5 falling         (TIMESTAMP_NS LINE rising|falling; LINE is the line name or its role)
//   end 2000000000                (optional, last: when the recording stopped)
struct Trace {
  std::string device;                                      // wiegand, dice or button
  std::vector<std::pair<std::string, std::string>> lines;  // role -> line name, in the device's role order
  std::vector<std::pair<std::string, std::string>> extra;  // other header keys (e.g. chip=gpiochip0)
  std::vector<std::optional<bool>> initial_levels;         // by role index
  std::vector<Edge> edges;                                 // line = role index
  std::optional<Nanoseconds> end_ns;
};

// The roles of a device's lines, in line-index order; empty for an unknown device.
std::vector<std::string> device_roles(std::string_view device);
// A trace with the given device and line names (role order) and no edges.
std::expected<Trace, std::string> make_trace(std::string_view device, std::vector<std::string> line_names);

std::expected<Trace, std::string> parse_trace(std::string_view text);
std::expected<Trace, std::string> load_trace(const std::string& path);
std::string format_trace(const Trace& trace);

}  // namespace bb::peripherals
