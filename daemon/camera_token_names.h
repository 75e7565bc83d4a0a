#pragma once
// The camera's name of each player's token. The tracker names the tokens it learns on the start space T1, T2,
// ... (from the one nearest the board's corner) and the family puts them down in turn order; learning them
// one at a time, the service asks the tracker for each player's token by the same name. So in the daemon a
// player's token is "T<seat + 1>" wherever it meets the camera: the camera thread (its reports, the tokens
// left to the dice, the token it learns next), the service's log and the kept set-up's file. These two are
// the only places in the daemon that pair a player with that name (vision/token_names.h spells it). Plain
// functions of their arguments: any thread.

#include <optional>
#include <string>
#include <string_view>

#include "rules/ids.h"

namespace bb::daemon {

// The tracker's name of `player`'s token: "T3" for the third player.
std::string token_of_player(rules::PlayerId player);

// The player whose token the tracker calls `name` ("T3": the third player); nullopt for a name that is no
// player's (a name the family gave, "T", "T0", "T3b").
std::optional<rules::PlayerId> player_of_token(std::string_view name);

}  // namespace bb::daemon
