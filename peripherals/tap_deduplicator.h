#pragma once
#include <map>
#include <string>

#include "peripherals/edge.h"

namespace bb::peripherals {

// How long a reader remembers a card: the same card within this of its last sighting is the same tap.
inline constexpr Nanoseconds kSameCardWindow = 1'500 * kMillisecond;
// How long a reader that sees its field (the RC522) must find it empty before a card counts as gone.
inline constexpr Nanoseconds kFieldEmptyForGone = 500 * kMillisecond;

// A card held on a reader is read again and again; the same card seen again within the window of its
// last sighting is the same tap. The window slides, so a card left on the reader stays one tap.
class TapDeduplicator {
 public:
  explicit TapDeduplicator(Nanoseconds window = kSameCardWindow) : window_(window) {}
  // True when this sighting is a new tap.
  bool is_new_tap(const std::string& card_key, Nanoseconds ts_ns);
  // The reader found its field empty at `ts_ns` (an RC522 poll with no card answering). Once it has been
  // empty for kFieldEmptyForGone, every card has left: the next sighting is a new tap however soon after the
  // last one (a quick deliberate re-tap is heard). Empty for less, it is a card flickering at the edge of the
  // field (or lifted and put straight back): still the same tap. A reader that cannot tell (Wiegand sends
  // frames only) relies on the window alone.
  void field_empty(Nanoseconds ts_ns);
  int suppressed() const { return suppressed_; }

 private:
  Nanoseconds window_;
  std::map<std::string, Nanoseconds> last_seen_;
  Nanoseconds empty_since_ = -1;  // when the field was first found empty since the last sighting; -1: not
  int suppressed_ = 0;
};

}  // namespace bb::peripherals
