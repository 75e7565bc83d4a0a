#pragma once
#include <optional>
#include <string>

#include "rules/ids.h"

namespace bb::display {

class FrameBuilder;
class UiContext;

// A screen or a dialog: lays itself out for the current snapshot and reacts to its own targets.
class View {
 public:
  virtual ~View() = default;
  virtual void build(FrameBuilder& fb, UiContext& ui) = 0;
  // A player's card was tapped while this view is showing (nobody: a card nobody has registered, or the
  // banker's). Returns whether the view used the tap.
  virtual bool on_card(const std::string& /*uid*/, std::optional<rules::PlayerId> /*player*/,
                       UiContext& /*ui*/) {
    return false;
  }
  // A finger put down at (x, y) on the last frame. A view that wants to follow the finger (a drag) returns
  // true: it then gets the moves and the lift instead of a tap.
  virtual bool on_press(int /*x*/, int /*y*/, UiContext& /*ui*/) { return false; }
  virtual void on_drag(int /*x*/, int /*y*/, UiContext& /*ui*/) {}
  virtual void on_release(int /*x*/, int /*y*/, UiContext& /*ui*/) {}
};

}  // namespace bb::display
