#pragma once
#include <string>

namespace bb::display {

class FrameBuilder;
class UiContext;

// A screen or a dialog: lays itself out for the current snapshot and reacts to its own targets.
class View {
 public:
  virtual ~View() = default;
  virtual void build(FrameBuilder& fb, UiContext& ui) = 0;
  // A player's card was tapped while this view is showing (player -1: a card nobody has registered).
  // Returns whether the view used the tap.
  virtual bool on_card(const std::string& /*uid*/, int /*player*/, UiContext& /*ui*/) { return false; }
};

}  // namespace bb::display
