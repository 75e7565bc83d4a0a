#pragma once
#include <string>

#include "display/view.h"

namespace bb::display {

// FINANCE (1932)'s PARTNERSHIPS: "If two or more players own the Railroads, they may combine and share the
// full income according to their own arrangement." The group (railroads or power companies), the holder who
// will hold all the leases, the partner who hands his over, the partner's share, and both players' agreement:
// each taps his card (the screen's buttons where no card reader works). The `partner` input goes to the rules
// once both agreed; any change after an agreement asks for both again.
//
// Owns only the choices being made; never changes the game itself (it emits one ApplyInput). Loop thread
// only, like every view.
class PartnershipDialog : public View {
 public:
  void build(FrameBuilder& fb, UiContext& ui) override;
  bool on_card(const std::string& uid, std::optional<rules::PlayerId> player, UiContext& ui) override;

  static constexpr int kShareStep = 5;  // percent per tap of - or +

 private:
  void changed() { agreed_[0] = agreed_[1] = false; }
  void agree(UiContext& ui, int side);  // side 0: the holder, 1: the partner

  int group_ = -1;  // an index into the edition's groups; none chosen yet
  // Nobody chosen yet: build() starts with the current player and the next.
  std::optional<rules::PlayerId> holder_;
  std::optional<rules::PlayerId> partner_;
  int share_ = 50;
  bool agreed_[2] = {false, false};
};

}  // namespace bb::display
