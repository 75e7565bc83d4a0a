#pragma once
#include "display/view.h"

namespace bb::display {

// Every posting of the game, newest first, by player or by property; corrections need the banker.
class LedgerScreen : public View {
 public:
  void build(FrameBuilder& fb, UiContext& ui) override;

 private:
  void start_correction(UiContext& ui);
  std::optional<rules::PlayerId> player_;  // filter (nobody: everyone)
  std::optional<rules::SpaceId> space_;    // filter (none: anywhere)
  int page_ = 0;
};

}  // namespace bb::display
