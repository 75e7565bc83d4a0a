#pragma once
#include "display/ui_context.h"
#include "display/view.h"

namespace bb::display {

// Asks before anything that moves money. Where the card reader works, the payer confirms with their card;
// otherwise a Confirm button does it.
class ConfirmDialog : public View {
 public:
  explicit ConfirmDialog(Confirmation request) : request_(std::move(request)) {}
  void build(FrameBuilder& fb, UiContext& ui) override;
  bool on_card(const std::string& uid, std::optional<rules::PlayerId> player, UiContext& ui) override;

 private:
  // Confirmed by that player's card (nobody: on the screen).
  void accept(UiContext& ui, std::optional<rules::PlayerId> confirmed_by);
  Confirmation request_;
};

}  // namespace bb::display
