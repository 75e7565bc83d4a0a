#pragma once
#include "display/view.h"

namespace bb::display {

// The throw entered by hand, for when the dice unit is missing or misread.
class DiceDialog : public View {
 public:
  explicit DiceDialog(int player) : player_(player) {}
  void build(FrameBuilder& fb, UiContext& ui) override;

 private:
  int player_;
  int d1_ = 0, d2_ = 0;
};

}  // namespace bb::display
