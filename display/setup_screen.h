#pragma once
#include <map>
#include <string>
#include <vector>

#include "display/player_dialog.h"
#include "display/view.h"

namespace bb::display {

// A new game: the edition, its house-rule switches, the players (registered by tapping an unknown card, or
// by hand), or the unfinished game resumed.
class SetupScreen : public View {
 public:
  void build(FrameBuilder& fb, UiContext& ui) override;
  bool on_card(const std::string& uid, std::optional<rules::PlayerId> player, UiContext& ui) override;

 private:
  void register_player(UiContext& ui, const std::string& card);
  int edition_ = 0;
  std::map<std::string, bool> options_;
  std::vector<PlayerDialog::Result> players_;
  int option_page_ = 0;
};

}  // namespace bb::display
