#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "peripherals/edge_decoder.h"
#include "peripherals/tap_deduplicator.h"

namespace bb::peripherals {

struct WiegandTiming {
  // Readers pulse 20-100 us; anything shorter is noise on the cable.
  Nanoseconds min_pulse = 10 * kMicrosecond;
  // A line held low longer than this is not a Wiegand pulse (a short, or a reader fault).
  Nanoseconds max_pulse = 2 * kMillisecond;
  // Edges this soon after the start of an accepted bit are contact bounce of that bit (bits are >= 200 us
  // apart).
  Nanoseconds bounce_window = 150 * kMicrosecond;
  // Bits come at most 20 ms apart; a longer silence ends the frame.
  Nanoseconds frame_gap = 25 * kMillisecond;
  // The same card again within this of its last frame is the same tap (a reader repeating its frame while the
  // card lies there). 0: every frame is a tap of its own (a reader that sends one frame per presentation).
  Nanoseconds same_card_window = kSameCardWindow;
  // false: such a repeat is dropped here (counted in repeats_suppressed()). true: it is reported as a card
  // event with `repeat` set, so the one who knows what is waiting for the card (the table) can tell a quick
  // deliberate re-tap from a card lying on the reader, and say "already counted" when it drops one.
  bool report_repeats = false;
  // The one frame length the reader sends (26 or 34; `bits` in the configuration), or 0 for any of them.
  // With a length, a frame ends at its last bit when both parities check out, instead of frame_gap later;
  // a frame that does not check out there still waits for the gap (and is refused then). Bits that follow
  // such an early end within frame_gap (a reader that sends longer frames than configured) are refused
  // with what to set.
  int frame_bits = 0;
};

// Decodes Wiegand 26- and 34-bit frames from the edges of D0 (line 0) and D1 (line 1), both idle high:
// a low pulse on D0 is a 0 bit, on D1 a 1 bit. Checks the bit count and both parity bits. A frame ends
// after WiegandTiming::frame_gap of silence, or at its last bit when the reader's length is configured
// (WiegandTiming::frame_bits).
class WiegandDecoder final : public EdgeDecoder {
 public:
  static constexpr int kD0 = 0;
  static constexpr int kD1 = 1;
  explicit WiegandDecoder(std::string device = "wiegand", WiegandTiming timing = {});

  int line_count() const override { return 2; }
  void set_initial_level(int line, bool high) override;
  void feed(const Edge& edge, std::vector<PeripheralEvent>& out) override;
  void advance(Nanoseconds now, std::vector<PeripheralEvent>& out) override;
  void finish(Nanoseconds end, std::vector<PeripheralEvent>& out) override;
  std::optional<Nanoseconds> next_deadline() const override;
  std::vector<std::string> invariant_violations() const override;

  int glitches() const { return glitches_; }
  // The bits of the frame that ended last, as the decoder took them (for the fuzzer's parity oracle).
  const std::vector<std::uint8_t>& last_frame_bits() const { return last_frame_bits_; }
  int repeats_suppressed() const { return dedup_.suppressed(); }

 private:
  static constexpr std::size_t kMaxBits = 64;
  bool frame_open() const { return !bits_.empty() || !fault_.empty(); }
  void end_frame(std::vector<PeripheralEvent>& out);
  void reject(std::vector<PeripheralEvent>& out, Nanoseconds ts, std::string why);
  // The configured length is reached and the parities check out: the frame is whole.
  bool frame_complete() const;

  std::string device_;
  WiegandTiming timing_;
  TapDeduplicator dedup_;
  std::array<bool, 2> high_{true, true};
  std::array<Nanoseconds, 2> low_since_{0, 0};
  Nanoseconds now_ = 0;
  Nanoseconds frame_start_ = 0;
  Nanoseconds last_activity_ = 0;
  std::optional<Nanoseconds> last_bit_start_;
  std::vector<std::uint8_t> bits_;
  std::size_t bits_seen_ = 0;  // may exceed kMaxBits: a too-long frame is still counted
  std::string fault_;
  std::vector<std::uint8_t> last_frame_bits_;
  std::optional<Nanoseconds> ended_early_at_;  // the last bit of a frame ended at its configured length
  int glitches_ = 0;
};

// Pure helpers, also used by the trace generator and the tests.
struct WiegandCard {
  std::string uid;  // hex: 6 digits for 26 bits, 8 for 34
  int bits = 26;
};
// The frame's bits, parity included, first bit first; nullopt if uid does not fit the format.
std::optional<std::vector<std::uint8_t>> wiegand_frame_bits(const WiegandCard& card);
// Checks the bit count and parity; the error says what is wrong.
std::optional<WiegandCard> wiegand_decode_bits(const std::vector<std::uint8_t>& bits, std::string* error);

}  // namespace bb::peripherals
