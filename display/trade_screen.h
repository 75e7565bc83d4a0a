#pragma once
#include <cstdint>
#include <optional>

#include "display/geometry.h"
#include "display/view.h"
#include "rules/input.h"

namespace bb::display {

// Two players, what each gives (cash, properties, jail cards); the trade goes to the rules once both agree,
// on the screen or with their cards. Where the odds worker runs (Snapshot::chances), a line above says each
// trader's chance of winning without and with the trade; the screen asks for it with a WeighTrade intent
// whenever the trade changes.
class TradeScreen : public View {
 public:
  void build(FrameBuilder& fb, UiContext& ui) override;
  bool on_card(const std::string& uid, std::optional<rules::PlayerId> player, UiContext& ui) override;

 private:
  void build_side(FrameBuilder& fb, UiContext& ui, int side, int x, int top, int w, int bottom);
  void changed();
  rules::Trade current() const;
  void build_advice(FrameBuilder& fb, UiContext& ui, Rect strip);
  void agree(UiContext& ui, int side);
  // Who gives on each side; nobody yet until build() chooses (the current player and the next).
  std::optional<rules::PlayerId> players_[2];
  rules::Offer offers_[2];
  bool agreed_[2] = {false, false};
  int pages_[2] = {0, 0};
  std::optional<rules::Trade> weighed_;  // the trade last sent to be weighed
  std::uint64_t weighed_version_ = 0;    // the snapshot it was sent under
};

}  // namespace bb::display
