#include "peripherals/button_decoder.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>

namespace bb::peripherals {

ButtonDecoder::ButtonDecoder(std::string device, DiceRoller roller, Nanoseconds debounce)
    : device_(std::move(device)), roller_(std::move(roller)), debounce_(debounce) {}

void ButtonDecoder::set_initial_level(int line, bool high) {
  assert(line == 0);
  high_ = high;
  pressed_ = !high;  // held down at start: it must be released before it counts
  changed_at_ = now_;
}

std::optional<Nanoseconds> ButtonDecoder::next_deadline() const {
  if (high_ != pressed_) return std::nullopt;  // the debounced state already matches the line
  return changed_at_ + debounce_;
}

void ButtonDecoder::advance(Nanoseconds now, std::vector<PeripheralEvent>& out) {
  now_ = std::max(now_, now);
  const auto deadline = next_deadline();
  if (!deadline || *deadline > now_) return;
  pressed_ = !high_;
  if (!pressed_) return;
  PeripheralEvent event;
  event.kind = EventKind::dice;
  event.device = device_;
  event.ts_ns = changed_at_;
  event.id = fmt::format("button:{}:{}", device_, changed_at_);
  event.dice = roller_.roll();
  out.push_back(std::move(event));
}

void ButtonDecoder::feed(const Edge& edge, std::vector<PeripheralEvent>& out) {
  assert(edge.line == 0);
  const Nanoseconds ts = std::max(edge.ts_ns, now_);
  advance(ts, out);
  if (edge.rising == high_) return;
  high_ = edge.rising;
  changed_at_ = ts;
}

void ButtonDecoder::finish(Nanoseconds end, std::vector<PeripheralEvent>& out) { advance(end, out); }

std::vector<std::string> ButtonDecoder::invariant_violations() const {
  if (changed_at_ > now_) return {"the button changed in the future"};
  return {};
}

}  // namespace bb::peripherals
