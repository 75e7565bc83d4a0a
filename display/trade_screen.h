#pragma once
#include "display/view.h"
#include "rules/input.h"

namespace bb::display {

// Two players, what each gives (cash, properties, jail cards); the trade goes to the rules once both agree,
// on the screen or with their cards.
class TradeScreen : public View {
 public:
  void build(FrameBuilder& fb, UiContext& ui) override;
  bool on_card(const std::string& uid, int player, UiContext& ui) override;

 private:
  void build_side(FrameBuilder& fb, UiContext& ui, int side, int x, int top, int w, int bottom);
  void changed();
  void agree(UiContext& ui, int side);
  int players_[2] = {-1, -1};
  rules::Offer offers_[2];
  bool agreed_[2] = {false, false};
  int pages_[2] = {0, 0};
};

}  // namespace bb::display
