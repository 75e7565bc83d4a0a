#include "peripherals/peripheral_event.h"

#include <nlohmann/json.hpp>

namespace bb::peripherals {

const char* kind_name(EventKind kind) {
  switch (kind) {
    case EventKind::card:
      return "card";
    case EventKind::unknown_card:
      return "unknown_card";
    case EventKind::dice:
      return "dice";
    case EventKind::rejected:
      return "rejected";
    case EventKind::status:
      return "status";
  }
  return "?";
}

std::string to_json_line(const PeripheralEvent& event) {
  nlohmann::ordered_json j;
  j["t"] = kind_name(event.kind);
  switch (event.kind) {
    case EventKind::card:
    case EventKind::unknown_card:
      j["uid"] = event.uid;
      j["bits"] = event.bits;
      if (event.repeat) j["repeat"] = true;
      break;
    case EventKind::dice:
      j["dice"] = {event.dice[0], event.dice[1]};
      break;
    case EventKind::rejected:
    case EventKind::status:
      j["why"] = event.why;
      break;
  }
  j["ts"] = event.ts_ns;
  j["device"] = event.device;
  if (!event.id.empty()) j["id"] = event.id;
  return j.dump();
}

}  // namespace bb::peripherals
