#include "display/chances_view.h"

#include <algorithm>

namespace bb::display {

namespace {
bool same_offer(const rules::Offer& a, const rules::Offer& b) {
  if (a.cash != b.cash || a.cards != b.cards || a.spaces.size() != b.spaces.size() ||
      a.free_rides.size() != b.free_rides.size())
    return false;
  auto sa = a.spaces, sb = b.spaces;
  std::sort(sa.begin(), sa.end());
  std::sort(sb.begin(), sb.end());
  if (sa != sb) return false;
  for (std::size_t i = 0; i < a.free_rides.size(); ++i)
    if (a.free_rides[i].group != b.free_rides[i].group || a.free_rides[i].rides != b.free_rides[i].rides)
      return false;
  return true;
}
}  // namespace

bool same_trade(const rules::Trade& a, const rules::Trade& b) {
  return a.from == b.from && a.to == b.to && same_offer(a.give, b.give) && same_offer(a.get, b.get);
}

}  // namespace bb::display
