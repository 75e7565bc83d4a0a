#pragma once
#include <map>
#include <string>

#include "peripherals/edge.h"

namespace bb::peripherals {

// How long a reader remembers a card: the same card within this of its last sighting is the same tap.
inline constexpr Nanoseconds kSameCardWindow = 1'500 * kMillisecond;

// A card held on a reader is read again and again; the same card seen again within the window of its
// last sighting is the same tap. The window slides, so a card left on the reader stays one tap.
class TapDeduplicator {
 public:
  explicit TapDeduplicator(Nanoseconds window = kSameCardWindow) : window_(window) {}
  // True when this sighting is a new tap.
  bool is_new_tap(const std::string& card_key, Nanoseconds ts_ns);
  int suppressed() const { return suppressed_; }

 private:
  Nanoseconds window_;
  std::map<std::string, Nanoseconds> last_seen_;
  int suppressed_ = 0;
};

}  // namespace bb::peripherals
