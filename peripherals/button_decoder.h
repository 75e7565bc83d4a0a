#pragma once
#include <optional>
#include <string>
#include <vector>

#include "peripherals/dice_roller.h"
#include "peripherals/edge_decoder.h"

namespace bb::peripherals {

// One push button (line 0, pulled up, pressed = low), debounced in software: a press counts once the line
// has stayed low for the debounce period, and the next press only after it stayed high as long. Each
// press rolls two dice.
class ButtonDecoder final : public EdgeDecoder {
 public:
  ButtonDecoder(std::string device, DiceRoller roller, Nanoseconds debounce = 20 * kMillisecond);

  int line_count() const override { return 1; }
  void set_initial_level(int line, bool high) override;
  void feed(const Edge& edge, std::vector<PeripheralEvent>& out) override;
  void advance(Nanoseconds now, std::vector<PeripheralEvent>& out) override;
  void finish(Nanoseconds end, std::vector<PeripheralEvent>& out) override;
  std::optional<Nanoseconds> next_deadline() const override;
  std::vector<std::string> invariant_violations() const override;

 private:
  std::string device_;
  DiceRoller roller_;
  Nanoseconds debounce_;
  Nanoseconds now_ = 0;
  bool high_ = true;
  Nanoseconds changed_at_ = 0;
  bool pressed_ = false;  // the debounced state
};

}  // namespace bb::peripherals
