#pragma once
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "peripherals/edge.h"

namespace bb::peripherals {

// Where a device's edges come from: GPIO lines (real), a script or a terminal (simulated), or a trace
// (replay). Never blocks: fd() says when there is something to read.
class EdgeSource {
 public:
  virtual ~EdgeSource() = default;
  virtual int fd() const = 0;
  // The edges ready now, in timestamp order (line = the device's role index).
  virtual std::expected<std::vector<Edge>, std::string> read_edges() = 0;
  // The lines' levels when the source opened, by role index (unknown ones are nullopt).
  virtual std::vector<std::optional<bool>> initial_levels() const = 0;
  // Live sources are stamped with CLOCK_MONOTONIC; a replay runs on the trace's own time.
  virtual bool live() const = 0;
  // A replay that has delivered its last edge; its end time (the 'end' line, else the last edge).
  virtual bool exhausted() const { return false; }
  virtual Nanoseconds end_time() const { return 0; }
};

}  // namespace bb::peripherals
