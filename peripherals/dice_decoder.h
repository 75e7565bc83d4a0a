#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "peripherals/edge_decoder.h"

namespace bb::peripherals {

struct DiceTiming {
  Nanoseconds second_read_after = 1 * kMillisecond;  // the two reads of one strobe
  Nanoseconds min_strobe = 2 * kMillisecond;         // a real strobe stays low at least this long
  Nanoseconds strobe_glitch = 50 * kMicrosecond;     // shorter strobes are noise, ignored silently
  Nanoseconds missing_after = 3 * kSecond;           // heartbeats come every second
};

// The two-die unit's protocol (docs/hardware.md): die A on lines A0-A2, die B on B0-B2, odd parity PAR
// over the six data lines, active-low strobe STB. Data and parity are active high. Values 1-6 are faces,
// 0 is rolling, 7 is a fault. A result counts only after the unit reported rolling since the last one.
class DiceDecoder final : public EdgeDecoder {
 public:
  enum Line { kA0 = 0, kA1, kA2, kB0, kB1, kB2, kPar, kStb, kLineCount };
  explicit DiceDecoder(std::string device = "dice", DiceTiming timing = {});

  int line_count() const override { return kLineCount; }
  void set_initial_level(int line, bool high) override;
  void feed(const Edge& edge, std::vector<PeripheralEvent>& out) override;
  void advance(Nanoseconds now, std::vector<PeripheralEvent>& out) override;
  void finish(Nanoseconds end, std::vector<PeripheralEvent>& out) override;
  std::optional<Nanoseconds> next_deadline() const override;
  std::vector<std::string> invariant_violations() const override;

  bool unit_missing() const { return missing_; }

 private:
  using Levels = std::array<bool, kLineCount>;
  void run_until(Nanoseconds t, std::vector<PeripheralEvent>& out);
  void evaluate(std::vector<PeripheralEvent>& out);
  void emit(std::vector<PeripheralEvent>& out, EventKind kind, Nanoseconds ts, std::string why);

  std::string device_;
  DiceTiming timing_;
  Levels levels_{};
  Nanoseconds now_ = 0;
  bool started_ = false;
  Nanoseconds last_heard_ = 0;
  bool missing_ = false;
  // The strobe being read: its start, the first read, and the second once 1 ms has passed.
  std::optional<Nanoseconds> strobe_start_;
  Levels first_read_{};
  std::optional<Levels> second_read_;
  bool strobe_done_ = false;  // evaluated; waiting for STB to go high again
  bool rolled_since_result_ = true;
};

}  // namespace bb::peripherals
