#pragma once
#include <optional>
#include <string>
#include <vector>

#include "peripherals/edge.h"
#include "peripherals/peripheral_event.h"

namespace bb::peripherals {

// A pure decoder: a function of timestamped edges and of the passing of time, no I/O, no clock of its own.
// Edges must come in timestamp order; an edge that goes back in time is treated as happening at the
// latest time already seen (a decoder never crashes on bad input).
class EdgeDecoder {
 public:
  virtual ~EdgeDecoder() = default;
  virtual int line_count() const = 0;
  // The level of a line before the first edge (lines are pulled up, so high unless told otherwise).
  virtual void set_initial_level(int line, bool high) = 0;
  // Deadlines that fall before edge.ts_ns are processed first, then the edge.
  virtual void feed(const Edge& edge, std::vector<PeripheralEvent>& out) = 0;
  // Time has reached now without edges: ends frames after their gap, notices a silent unit.
  virtual void advance(Nanoseconds now, std::vector<PeripheralEvent>& out) = 0;
  // The input ended at `end` (a replayed trace): pending frames end as if their gap had passed.
  virtual void finish(Nanoseconds end, std::vector<PeripheralEvent>& out) = 0;
  // The earliest time at which advance() has work to do, if any.
  virtual std::optional<Nanoseconds> next_deadline() const = 0;
  // Always callable; empty when the decoder's state is consistent.
  virtual std::vector<std::string> invariant_violations() const = 0;
};

}  // namespace bb::peripherals
