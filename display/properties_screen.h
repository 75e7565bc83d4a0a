#pragma once
#include "display/view.h"

namespace bb::display {

// Each player's properties by group; build, sell, mortgage and lift as the rules allow, and where they
// refuse, their reason.
class PropertiesScreen : public View {
 public:
  void build(FrameBuilder& fb, UiContext& ui) override;

 private:
  std::optional<rules::PlayerId> player_;   // whose deeds show (nobody yet: the current player's)
  std::optional<rules::SpaceId> selected_;  // the deed chosen (none: the house-rule payment shows)
  int page_ = 0;
  std::string refusal_;
};

}  // namespace bb::display
