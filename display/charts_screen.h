#pragma once
#include "display/geometry.h"
#include "display/view.h"

namespace bb::display {

// Each player's worth over the game as a line chart, and the board as a heat map of where tokens landed.
class ChartsScreen : public View {
 public:
  void build(FrameBuilder& fb, UiContext& ui) override;

 private:
  void build_worth(FrameBuilder& fb, UiContext& ui, Rect area);
  void build_heat(FrameBuilder& fb, UiContext& ui, Rect area);
  bool heat_ = false;
};

}  // namespace bb::display
