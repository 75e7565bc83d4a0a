#include "vision/tracker_event.h"

namespace bb::vision {

const char* kind_name(TrackerEvent::Kind kind) {
  switch (kind) {
    case TrackerEvent::Kind::calibrated:
      return "calibrated";
    case TrackerEvent::Kind::recalibrated:
      return "recalibrated";
    case TrackerEvent::Kind::not_found:
      return "not_found";
    case TrackerEvent::Kind::learned:
      return "learned";
    case TrackerEvent::Kind::moved:
      return "moved";
    case TrackerEvent::Kind::unsure:
      return "unsure";
    case TrackerEvent::Kind::hidden:
      return "hidden";
    case TrackerEvent::Kind::learn_incomplete:
      return "learn_incomplete";
    case TrackerEvent::Kind::lost:
      return "lost";
    case TrackerEvent::Kind::ready_for_token:
      return "ready_for_token";
  }
  return "unknown";
}

}  // namespace bb::vision
