#include "peripherals/dice_decoder.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>

namespace bb::peripherals {

DiceDecoder::DiceDecoder(std::string device, DiceTiming timing)
    : device_(std::move(device)), timing_(timing) {
  levels_.fill(true);  // pull-ups: an unplugged unit reads all ones
}

void DiceDecoder::set_initial_level(int line, bool high) {
  assert(line >= 0 && line < kLineCount);
  levels_[static_cast<std::size_t>(line)] = high;
}

void DiceDecoder::emit(std::vector<PeripheralEvent>& out, EventKind kind, Nanoseconds ts, std::string why) {
  PeripheralEvent event;
  event.kind = kind;
  event.device = device_;
  event.ts_ns = ts;
  event.why = std::move(why);
  out.push_back(std::move(event));
}

std::optional<Nanoseconds> DiceDecoder::next_deadline() const {
  if (strobe_start_ && !strobe_done_) {
    return second_read_ ? *strobe_start_ + timing_.min_strobe : *strobe_start_ + timing_.second_read_after;
  }
  if (started_ && !missing_) return last_heard_ + timing_.missing_after;
  return std::nullopt;
}

// Does every scheduled step due at or before time t.
void DiceDecoder::run_until(Nanoseconds t, std::vector<PeripheralEvent>& out) {
  if (!started_) {
    started_ = true;
    last_heard_ = t;
  }
  for (;;) {
    const auto deadline = next_deadline();
    if (!deadline || *deadline > t) break;
    if (strobe_start_ && !strobe_done_ && !second_read_) {
      second_read_ = levels_;
    } else if (strobe_start_ && !strobe_done_) {
      evaluate(out);
      strobe_done_ = true;
    } else {
      missing_ = true;
      emit(out, EventKind::status, *deadline,
           fmt::format("dice unit missing: no strobe for {} s (check the unit's cable and power)",
                       timing_.missing_after / kSecond));
    }
  }
}

void DiceDecoder::feed(const Edge& edge, std::vector<PeripheralEvent>& out) {
  assert(edge.line >= 0 && edge.line < kLineCount);
  const Nanoseconds ts = std::max(edge.ts_ns, now_);
  // Steps due at exactly ts happen before the edge: the second read at start + 1 ms sees the levels
  // before an edge at that instant, and a strobe rising at exactly start + 2 ms has stayed low long enough.
  run_until(ts, out);
  now_ = ts;
  levels_[static_cast<std::size_t>(edge.line)] = edge.rising;
  if (edge.line != kStb) return;
  if (!edge.rising) {  // strobe asserted: the first read is now
    strobe_start_ = ts;
    first_read_ = levels_;
    second_read_.reset();
    strobe_done_ = false;
    return;
  }
  if (!strobe_start_) return;
  const Nanoseconds held = ts - *strobe_start_;
  const bool evaluated = strobe_done_;
  strobe_start_.reset();
  second_read_.reset();
  strobe_done_ = false;
  if (evaluated || held < timing_.strobe_glitch) return;
  emit(out, EventKind::rejected, ts - held,
       fmt::format("strobe too short: {} us (at least {} us)", held / kMicrosecond,
                   timing_.min_strobe / kMicrosecond));
}

void DiceDecoder::advance(Nanoseconds now, std::vector<PeripheralEvent>& out) {
  now_ = std::max(now_, now);
  run_until(now_, out);
}

void DiceDecoder::finish(Nanoseconds end, std::vector<PeripheralEvent>& out) { advance(end, out); }

void DiceDecoder::evaluate(std::vector<PeripheralEvent>& out) {
  assert(strobe_start_ && second_read_);
  const Nanoseconds ts = *strobe_start_;
  if (missing_) {
    missing_ = false;
    emit(out, EventKind::status, ts, "dice unit back");
  }
  last_heard_ = ts;
  if (*second_read_ != first_read_)
    return emit(out, EventKind::rejected, ts, "data changed between the two reads");
  const auto& bits = first_read_;
  const int ones = static_cast<int>(std::count(bits.begin(), bits.begin() + kStb, true));
  if (ones % 2 != 1) return emit(out, EventKind::rejected, ts, "bad parity");
  const int a = bits[kA0] + 2 * bits[kA1] + 4 * bits[kA2];
  const int b = bits[kB0] + 2 * bits[kB1] + 4 * bits[kB2];
  if (a == 7 || b == 7) {
    return emit(
        out, EventKind::rejected, ts,
        fmt::format("the unit reports a fault ({}/{}): a crooked die, or the unit is unplugged", a, b));
  }
  if (a == 0 || b == 0) {
    rolled_since_result_ = true;  // rolling, or the idle heartbeat
    return;
  }
  if (!rolled_since_result_) {
    return emit(out, EventKind::rejected, ts, fmt::format("{}/{} again without rolling in between", a, b));
  }
  rolled_since_result_ = false;
  PeripheralEvent event;
  event.kind = EventKind::dice;
  event.device = device_;
  event.ts_ns = ts;
  event.id = fmt::format("dice:{}:{}", device_, ts);
  event.dice = {a, b};
  out.push_back(std::move(event));
}

std::vector<std::string> DiceDecoder::invariant_violations() const {
  std::vector<std::string> problems;
  if (strobe_start_ && *strobe_start_ > now_) problems.push_back("strobe starts in the future");
  if (second_read_ && !strobe_start_) problems.push_back("a second read without a strobe");
  if (strobe_done_ && !second_read_) problems.push_back("strobe evaluated without its second read");
  if (started_ && last_heard_ > now_) problems.push_back("unit heard in the future");
  return problems;
}

}  // namespace bb::peripherals
