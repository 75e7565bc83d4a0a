#pragma once
#include "display/view.h"

namespace bb::display {

// The camera's view with its markers and space grid for calibration, the state of the dice unit, card
// reader and camera with what to do when one is missing, and the sound setting.
class DevicesScreen : public View {
 public:
  void build(FrameBuilder& fb, UiContext& ui) override;
};

}  // namespace bb::display
