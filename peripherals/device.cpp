#include "peripherals/device.h"

namespace bb::peripherals {

void classify_cards(std::vector<PeripheralEvent>& events, const CardRegistryCheck& is_registered) {
  if (!is_registered) return;
  for (auto& event : events) {
    if (event.kind == EventKind::card && !is_registered(event.uid)) event.kind = EventKind::unknown_card;
  }
}

}  // namespace bb::peripherals
