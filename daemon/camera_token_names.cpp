#include "daemon/camera_token_names.h"

#include "vision/token_names.h"

namespace bb::daemon {

std::string token_of_player(rules::PlayerId player) { return vision::learned_token_name(player.number()); }

std::optional<rules::PlayerId> player_of_token(std::string_view name) {
  const auto index = vision::learned_token_index(name);
  if (!index) return std::nullopt;
  return rules::player_from_wire(*index);
}

}  // namespace bb::daemon
