#pragma once
#include <functional>
#include <string>
#include <vector>

#include "peripherals/peripheral_event.h"

namespace bb::peripherals {

// A dice unit, a card reader or a roll button, as the daemon's event loop sees it: poll fd() for
// POLLIN, then read_events() (never blocks). Decoding happens inside; what comes out is what was read.
class Device {
 public:
  virtual ~Device() = default;
  virtual const std::string& name() const = 0;
  virtual int fd() const = 0;
  virtual std::vector<PeripheralEvent> read_events() = 0;
  // A replay that has delivered everything; live devices never finish.
  virtual bool finished() const { return false; }
  virtual std::vector<std::string> invariant_violations() const = 0;
};

// The daemon's card registry, asked per tap: true when the UID belongs to a player. Without one, every
// card is reported as a plain card.
using CardRegistryCheck = std::function<bool(const std::string& uid)>;

// Marks taps of cards the registry does not know as unknown_card, so the table can offer to register them.
void classify_cards(std::vector<PeripheralEvent>& events, const CardRegistryCheck& is_registered);

}  // namespace bb::peripherals
