#pragma once
#include "display/geometry.h"
#include "display/view.h"

namespace bb::display {

// Balances, whose turn it is, the dice, the last postings in words and the question the rules are asking;
// once the game is over, the final standings (a tie said as one).
class HomeScreen : public View {
 public:
  void build(FrameBuilder& fb, UiContext& ui) override;

 private:
  void build_no_game(FrameBuilder& fb, UiContext& ui);
  int build_players(FrameBuilder& fb, UiContext& ui);  // returns the bottom edge
  void build_dice_and_news(FrameBuilder& fb, UiContext& ui, int top, int bottom);
  void build_standings(FrameBuilder& fb, UiContext& ui, Rect panel, int line_h);  // once the game is over
  void build_question(FrameBuilder& fb, UiContext& ui, int top, int bottom);
  // The row of screen buttons along the bottom: one row where every label fits, else two (a portrait
  // screen). Returns its top edge.
  int build_nav(FrameBuilder& fb, UiContext& ui);
};

}  // namespace bb::display
