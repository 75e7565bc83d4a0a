#pragma once
#include "display/view.h"

namespace bb::display {

// Each player's properties by group; build, sell, mortgage and lift as the rules allow, and where they
// refuse, their reason.
class PropertiesScreen : public View {
 public:
  void build(FrameBuilder& fb, UiContext& ui) override;

 private:
  int player_ = -1;
  int selected_ = -1;  // a space index
  int page_ = 0;
  std::string refusal_;
};

}  // namespace bb::display
