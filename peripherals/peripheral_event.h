#pragma once
#include <array>
#include <string>

#include "peripherals/edge.h"

namespace bb::peripherals {

// What a device read. The inputs these become are the daemon's business; peripherals only report.
enum class EventKind {
  card,          // a tap of a card the registry knows, or of any card when no registry was given
  unknown_card,  // a tap of a card the registry does not know: the table can offer to register it
  dice,          // a roll (from the dice unit or the roll button)
  rejected,      // something was read but not accepted; why says what
  status,        // the device's health changed (e.g. "dice unit missing"); why says what
};

struct PeripheralEvent {
  EventKind kind = EventKind::rejected;
  std::string device;  // "wiegand", "rc522", "dice", "button", or a configured name
  Nanoseconds ts_ns = 0;
  // Stable across replays of the same trace, so the ledger can refuse a duplicate:
  // "wiegand:<device>:<frame_ts_ns>", "rc522:<device>:<ts_ns>", "dice:<device>:<seq>".
  std::string id;
  std::string uid;  // card UID in upper-case hex
  int bits = 0;     // Wiegand frame length, or 8 * UID bytes for RC522
  std::array<int, 2> dice{0, 0};
  std::string why;  // reason for rejected, text for status
  // card: the same card from the same reader again within its same-card window (peripherals'
  // TapDeduplicator). A Wiegand reader cannot say whether the card lay there (the reader repeating its frame)
  // or was lifted and tapped again; only a decoder asked to report repeats (WiegandTiming::report_repeats)
  // sends these.
  bool repeat = false;

  friend bool operator==(const PeripheralEvent&, const PeripheralEvent&) = default;
};

// One JSON object without a newline, as `boardbank probe` prints: {"t": "card", "uid": ..., "ts": ...}.
std::string to_json_line(const PeripheralEvent& event);
const char* kind_name(EventKind kind);

}  // namespace bb::peripherals
