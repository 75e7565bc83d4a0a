#include "peripherals/tap_deduplicator.h"

#include <iterator>

namespace bb::peripherals {

void TapDeduplicator::field_empty(Nanoseconds ts_ns) {
  if (empty_since_ < 0) empty_since_ = ts_ns;
}

bool TapDeduplicator::is_new_tap(const std::string& card_key, Nanoseconds ts_ns) {
  if (empty_since_ >= 0 && ts_ns - empty_since_ >= kFieldEmptyForGone) last_seen_.clear();  // every card left
  empty_since_ = -1;
  // Forget cards long gone so a reader that runs for months does not grow without bound.
  for (auto it = last_seen_.begin(); it != last_seen_.end();) {
    it = (ts_ns - it->second > window_ && it->first != card_key) ? last_seen_.erase(it) : std::next(it);
  }
  const auto found = last_seen_.find(card_key);
  const bool repeat = found != last_seen_.end() && ts_ns - found->second <= window_ && ts_ns >= found->second;
  last_seen_[card_key] = ts_ns;
  if (repeat) ++suppressed_;
  return !repeat;
}

}  // namespace bb::peripherals
