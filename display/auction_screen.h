#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "display/view.h"
#include "rules/ids.h"
#include "rules/money.h"

namespace bb::display {

// The lot, the bids as they come (card tap or keypad), the highest bidder and the auctioneer's close, with
// the edition's deal timer (or an optional countdown) shown large.
class AuctionScreen : public View {
 public:
  void build(FrameBuilder& fb, UiContext& ui) override;
  bool on_card(const std::string& uid, std::optional<rules::PlayerId> player, UiContext& ui) override;

 private:
  void track(UiContext& ui);
  void bid(UiContext& ui, rules::PlayerId player, rules::Money amount);
  std::string key_;
  std::uint64_t started_ms_ = 0;
  std::optional<rules::PlayerId> bidder_;  // the bidder chosen on the screen (nobody yet)
  std::vector<std::pair<rules::PlayerId, rules::Money>> bids_;  // as seen, newest last
};

}  // namespace bb::display
