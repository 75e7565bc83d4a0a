#pragma once
#include <vector>

#include "display/view.h"

namespace bb::display {

class BoardGeometry;
class FrameBuilder;
struct Snapshot;

// The board drawn from the edition: owners' colours, houses and hotels, and where the tokens are.
class BoardScreen : public View {
 public:
  void build(FrameBuilder& fb, UiContext& ui) override;
  // The board itself, shared with the charts' heat map (heat: landings per space, or null).
  static void draw_board(FrameBuilder& fb, const Snapshot& snap, const BoardGeometry& geo,
                         const std::vector<int>* heat);
};

}  // namespace bb::display
