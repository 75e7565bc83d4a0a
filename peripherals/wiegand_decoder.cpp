#include "peripherals/wiegand_decoder.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <charconv>

namespace bb::peripherals {

namespace {
bool valid_format(std::size_t bits) { return bits == 26 || bits == 34; }

int ones(const std::vector<std::uint8_t>& bits, std::size_t from, std::size_t to) {
  int count = 0;
  for (std::size_t i = from; i < to; ++i) count += bits[i];
  return count;
}
}  // namespace

std::optional<std::vector<std::uint8_t>> wiegand_frame_bits(const WiegandCard& card) {
  if (!valid_format(static_cast<std::size_t>(card.bits))) return std::nullopt;
  const std::size_t data_bits = static_cast<std::size_t>(card.bits) - 2;
  if (card.uid.size() != data_bits / 4) return std::nullopt;
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(card.uid.data(), card.uid.data() + card.uid.size(), value, 16);
  if (ec != std::errc{} || end != card.uid.data() + card.uid.size()) return std::nullopt;
  std::vector<std::uint8_t> bits(static_cast<std::size_t>(card.bits), 0);
  for (std::size_t i = 0; i < data_bits; ++i) bits[1 + i] = (value >> (data_bits - 1 - i)) & 1U;
  const std::size_t half = bits.size() / 2;
  bits.front() = ones(bits, 1, half) % 2;                     // even parity over the first half
  bits.back() = (ones(bits, half, bits.size() - 1) + 1) % 2;  // odd parity over the second half
  return bits;
}

std::optional<WiegandCard> wiegand_decode_bits(const std::vector<std::uint8_t>& bits, std::string* error) {
  auto fail = [&](std::string why) -> std::optional<WiegandCard> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  if (!valid_format(bits.size())) {
    return fail(fmt::format("partial or unknown frame: {} bits (26 or 34 expected)", bits.size()));
  }
  const std::size_t half = bits.size() / 2;
  const bool leading_ok = ones(bits, 0, half) % 2 == 0;
  const bool trailing_ok = ones(bits, half, bits.size()) % 2 == 1;
  if (!leading_ok && !trailing_ok) {
    return fail(
        fmt::format("bad parity in both halves of a {}-bit frame: are D0 and D1 swapped?", bits.size()));
  }
  if (!leading_ok) return fail(fmt::format("bad leading (even) parity in a {}-bit frame", bits.size()));
  if (!trailing_ok) return fail(fmt::format("bad trailing (odd) parity in a {}-bit frame", bits.size()));
  std::uint64_t value = 0;
  for (std::size_t i = 1; i + 1 < bits.size(); ++i) value = (value << 1) | bits[i];
  const int digits = static_cast<int>(bits.size() - 2) / 4;
  return WiegandCard{fmt::format("{:0{}X}", value, digits), static_cast<int>(bits.size())};
}

WiegandDecoder::WiegandDecoder(std::string device, WiegandTiming timing)
    : device_(std::move(device)), timing_(timing), dedup_(timing.same_card_window) {}

void WiegandDecoder::set_initial_level(int line, bool high) {
  assert(line == kD0 || line == kD1);
  high_[static_cast<std::size_t>(line)] = high;
  low_since_[static_cast<std::size_t>(line)] = now_;
}

void WiegandDecoder::reject(std::vector<PeripheralEvent>& out, Nanoseconds ts, std::string why) {
  PeripheralEvent event;
  event.kind = EventKind::rejected;
  event.device = device_;
  event.ts_ns = ts;
  event.why = std::move(why);
  out.push_back(std::move(event));
}

void WiegandDecoder::feed(const Edge& edge, std::vector<PeripheralEvent>& out) {
  assert(edge.line == kD0 || edge.line == kD1);
  const Nanoseconds ts = std::max(edge.ts_ns, now_);
  advance(ts, out);
  const auto line = static_cast<std::size_t>(edge.line);
  const auto other = 1 - line;
  if (edge.rising == high_[line]) return;  // a repeated level: an edge was lost, the next one resyncs
  high_[line] = edge.rising;
  if (!edge.rising) {
    low_since_[line] = ts;
    return;
  }
  const Nanoseconds start = low_since_[line];
  const Nanoseconds width = ts - start;
  if (width < timing_.min_pulse) {
    ++glitches_;
    return;
  }
  if (last_bit_start_ && start - *last_bit_start_ < timing_.bounce_window) return;  // bounce of the last bit
  if (!frame_open()) {
    frame_start_ = start;
    // A bit soon after a frame that ended at its configured length: the reader sends longer frames.
    if (ended_early_at_ && start - *ended_early_at_ < timing_.frame_gap)
      fault_ = fmt::format(
          "more than {} bits in one frame: this reader sends longer frames; set bits = 34 or \"any\" in its "
          "[[wiegand]] table",
          timing_.frame_bits);
    ended_early_at_.reset();
  }
  last_activity_ = ts;
  if (width > timing_.max_pulse) {
    if (fault_.empty())
      fault_ = fmt::format("D{} held low for {} us: check the reader's wiring", line, width / 1000);
    return;
  }
  if (!high_[other] && ts - low_since_[other] >= timing_.min_pulse && fault_.empty()) {
    fault_ = "D0 and D1 low at the same time: check the reader's wiring and ground";
  }
  last_bit_start_ = start;
  ++bits_seen_;
  if (bits_.size() < kMaxBits) bits_.push_back(line == kD1 ? 1 : 0);
  if (frame_complete()) {
    const Nanoseconds bit_start = start;
    end_frame(out);
    last_bit_start_ = bit_start;  // a bounce of this last bit is still a bounce, not a new frame
    ended_early_at_ = ts;
  }
}

bool WiegandDecoder::frame_complete() const {
  if (timing_.frame_bits <= 0 || !fault_.empty()) return false;
  if (bits_seen_ != static_cast<std::size_t>(timing_.frame_bits) || bits_.size() != bits_seen_) return false;
  return wiegand_decode_bits(bits_, nullptr).has_value();
}

std::optional<Nanoseconds> WiegandDecoder::next_deadline() const {
  if (!frame_open()) return std::nullopt;
  Nanoseconds deadline = last_activity_ + timing_.frame_gap;
  // A pulse still in progress keeps the frame open until it is over or has lasted too long.
  for (std::size_t line = 0; line < 2; ++line) {
    if (!high_[line]) deadline = std::max(deadline, low_since_[line] + timing_.max_pulse + timing_.frame_gap);
  }
  return deadline;
}

void WiegandDecoder::advance(Nanoseconds now, std::vector<PeripheralEvent>& out) {
  now_ = std::max(now_, now);
  if (const auto deadline = next_deadline(); deadline && *deadline <= now_) end_frame(out);
}

void WiegandDecoder::finish(Nanoseconds end, std::vector<PeripheralEvent>& out) {
  now_ = std::max(now_, end);
  if (frame_open()) end_frame(out);
}

void WiegandDecoder::end_frame(std::vector<PeripheralEvent>& out) {
  std::vector<std::uint8_t> bits;
  bits.swap(bits_);
  const std::size_t seen = bits_seen_;
  std::string fault;
  fault.swap(fault_);
  bits_seen_ = 0;
  last_bit_start_.reset();
  const Nanoseconds frame_ts = frame_start_;
  last_frame_bits_ = bits;
  if (!fault.empty()) return reject(out, frame_ts, std::move(fault));
  if (seen != bits.size()) {
    return reject(out, frame_ts, fmt::format("partial or unknown frame: {} bits (26 or 34 expected)", seen));
  }
  std::string error;
  const auto card = wiegand_decode_bits(bits, &error);
  if (!card) return reject(out, frame_ts, std::move(error));
  const bool repeat = !dedup_.is_new_tap(fmt::format("{}/{}", card->uid, card->bits), frame_ts);
  if (repeat && !timing_.report_repeats) return;
  PeripheralEvent event;
  event.kind = EventKind::card;
  event.device = device_;
  event.ts_ns = frame_ts;
  event.id = fmt::format("wiegand:{}:{}", device_, frame_ts);
  event.uid = card->uid;
  event.bits = card->bits;
  event.repeat = repeat;
  out.push_back(std::move(event));
}

std::vector<std::string> WiegandDecoder::invariant_violations() const {
  std::vector<std::string> problems;
  if (bits_.size() > kMaxBits) problems.push_back("more bits buffered than the limit");
  if (bits_seen_ < bits_.size()) problems.push_back("fewer bits counted than buffered");
  if (frame_open() && last_activity_ < frame_start_)
    problems.push_back("frame's last activity before its start");
  for (std::size_t line = 0; line < 2; ++line) {
    if (!high_[line] && low_since_[line] > now_) problems.push_back("a line went low in the future");
  }
  return problems;
}

}  // namespace bb::peripherals
