#pragma once
#include "display/geometry.h"
#include "display/view.h"

namespace bb::display {

// Each player's worth over the game as a line chart, the board as a heat map of where tokens landed, and,
// where the odds worker runs (Snapshot::chances), each player's chance of winning now with its margin and
// how it moved turn by turn.
class ChartsScreen : public View {
 public:
  void build(FrameBuilder& fb, UiContext& ui) override;

 private:
  enum class Tab { worth, heat, chances };
  void build_worth(FrameBuilder& fb, UiContext& ui, Rect area);
  void build_heat(FrameBuilder& fb, UiContext& ui, Rect area);
  void build_chances(FrameBuilder& fb, UiContext& ui, Rect area);
  Tab tab_ = Tab::worth;
};

}  // namespace bb::display
