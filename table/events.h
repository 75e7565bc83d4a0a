#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "display/intent.h"
#include "display/snapshot.h"
#include "rules/ids.h"

namespace bb::table {

// The events the table hears, already decoded by their devices. Each carries the id (never empty: the ledger
// refuses an input without one) that makes a repeat harmless: an input made from an event is stored under an
// id derived from it, so an event delivered again (a reader repeating a tap, a restart after a crash) is
// never posted twice.

// Dice from the electronic dice unit, the roll button (the daemon draws the numbers) or the dice dialog.
struct DiceThrown {
  int d1 = 0, d2 = 0;
  std::string id;      // peripherals' PeripheralEvent::id ("dice:<device>:<seq>"), or "touch:<n>"
  std::string device;  // "dice", "button", "screen"
};

// A card on a reader.
struct CardTapped {
  std::string uid;     // upper-case hex
  std::string reader;  // "wiegand", "rc522", or a configured name
  std::string id;      // PeripheralEvent::id ("wiegand:<device>:<frame_ts_ns>", "rc522:<device>:<ts_ns>")
  // When the reader saw it (PeripheralEvent::ts_ns / 1e6, any steady clock), -1 unknown: the same card from
  // the same reader again within Table::kRepeatWindowMs is the reader repeating its frame, counted once.
  std::int64_t at_ms = -1;
  // The reader saw this card within its own same-card window (PeripheralEvent::repeat: a Wiegand reader
  // cannot tell a card lying on it from a quick deliberate re-tap). The table counts it as a new tap only
  // when something new waits for that card (a payment of its player still to confirm, an input recorded since
  // the first tap was handled); otherwise it says "already counted", once per tap.
  bool reader_repeat = false;
};

// What the camera's tracker saw, mapped by the daemon from a token name to a player, its space numbers
// range-checked against the board where they came in (the daemon's camera thread hands them over typed).
struct TokenReport {
  enum class Kind {
    moved,             // the token now stands on `to`
    unsure,            // it may have moved; `candidates` are the spaces it touches
    hidden,            // not visible (a hand over it); its last space is `from`
    learned,           // learned at setup, standing on `to`
    learn_incomplete,  // the camera could not learn this token (detail says why)
    lost,              // the camera is gone or lost the board (detail says why)
    token_lost,        // the camera has not seen this token for a long while others moved (detail says more)
  };
  Kind kind = Kind::moved;
  std::optional<rules::PlayerId> player;  // nobody: the learning on the start space as a whole, or lost
  std::optional<rules::SpaceId> from;     // hidden: its last space, when known
  std::optional<rules::SpaceId> to;       // moved, learned: where it stands (unsure: its likeliest space)
  std::vector<rules::SpaceId> candidates;
  std::string detail;
  // learn_incomplete of the learning on the start space (no player): how many tokens the camera found there
  // and how many it expected (nothing: not said).
  std::optional<int> found;
  std::optional<int> expected;
  std::string id;  // "camera:<frame>:<player>"
};

// A touch on the screen, as the display turned it into an intent.
struct ScreenIntent {
  display::Intent intent;
  std::string id;  // "touch:<n>", unique for the service's life and beyond (the daemon prefixes a boot id)
};

// The timers the table asks the daemon to run.
enum class TimerId {
  deal,  // the edition's auction deal timer: when it fires the auction closes
};

struct TimerFired {
  TimerId which = TimerId::deal;
  std::uint64_t now_ms = 0;
  std::string id;  // "timer:<which>:<arm count>": a timer firing twice closes once
};

// A device's state changed (the camera went, a reader came back).
struct DeviceHealth {
  display::DeviceStatus status;
};

using Event = std::variant<DiceThrown, CardTapped, TokenReport, ScreenIntent, TimerFired, DeviceHealth>;

}  // namespace bb::table
