#pragma once
#include <functional>

#include "display/view.h"

namespace bb::display {

// The throw entered by hand, for when the dice unit is missing or misread.
class DiceDialog : public View {
 public:
  // The throw of `player` (whose name the dialog shows).
  explicit DiceDialog(rules::PlayerId player) : player_(player) {}
  // The dice for someone else than the rules (the table's "the dice were wrong"): `on_dice` gets them
  // instead of a Roll being applied.
  DiceDialog(rules::PlayerId player, std::function<void(int, int)> on_dice)
      : player_(player), on_dice_(std::move(on_dice)) {}
  void build(FrameBuilder& fb, UiContext& ui) override;

 private:
  rules::PlayerId player_;
  std::function<void(int, int)> on_dice_;
  int d1_ = 0, d2_ = 0;
};

}  // namespace bb::display
