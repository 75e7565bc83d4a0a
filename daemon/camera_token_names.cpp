#include "daemon/camera_token_names.h"

#include <fmt/format.h>

namespace bb::daemon {

std::string token_of_player(rules::PlayerId player) { return fmt::format("T{}", player.number() + 1); }

std::optional<rules::PlayerId> player_of_token(std::string_view name) {
  if (name.size() < 2 || name[0] != 'T') return std::nullopt;
  int n = 0;
  for (std::size_t i = 1; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9' || n > 1000) return std::nullopt;  // no seat has such a number
    n = n * 10 + (name[i] - '0');
  }
  return rules::player_from_wire(n - 1);
}

}  // namespace bb::daemon
