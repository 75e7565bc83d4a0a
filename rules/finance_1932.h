#pragma once
#include <optional>
#include <string>
#include <vector>

#include "rules/edition.h"
#include "rules/input.h"
#include "rules/state.h"

// FINANCE (1932): the rules of that rule book the other editions do not have, as pure functions of the game's
// state, so the engine (game.cpp) only calls them. Partnerships of the railroads and power companies, the
// leases a player put out takes with him, and the house owner who buys only into his own series.
//
// Owns nothing; must never change a GameState (the engine applies what these functions decide), read a clock,
// or do I/O. Called from whichever thread runs the Game, like the engine itself.
namespace bb::rules::finance {

// The partnerships whose income the holder's lease `space` shares (none when it is not in one).
std::vector<const GameState::Partnership*> partnerships_of_lease(const Edition& ed, const GameState& st,
                                                                 SpaceId space);
// True when `space` is a lease in a partnership: it never changes hands again.
bool lease_in_partnership(const Edition& ed, const GameState& st, SpaceId space);
// Why a `partner` input would be refused (nullopt: allowed).
std::optional<std::string> why_not_partner(const Edition& ed, const Rules& r, const GameState& st,
                                           const Partner& in);
// Why `player` may not acquire `space` (by auction or trade) under "A house owner cannot buy or take in trade
// property of which he does not already own at least one in the same series" (nullopt: allowed).
std::optional<std::string> why_not_acquire(const Edition& ed, const Rules& r, const GameState& st,
                                           PlayerId player, SpaceId space);
// What happens to each lease of a player put out, where the edition withdraws them.
enum class Fate { withdrawn, auctioned, to_holder };
Fate fate_of_lease(const Edition& ed, const Rules& r, const GameState& st, PlayerId bankrupt_player,
                   SpaceId space);
// "the Auctioneer must announce whether it is the 1st, 2nd or 3rd piece in that series to be auctioned": the
// leases of the series of `space` already sold (or withdrawn), plus one; nullopt where the edition does not
// announce it or the space has no series.
std::optional<int> series_piece(const Edition& ed, const Rules& r, const GameState& st, SpaceId space);
// "the 2nd piece in Series 3 (red)".
std::string piece_words(const Edition& ed, SpaceId space, int piece);
// Broken invariants of the partnerships and the withdrawn leases (empty when consistent).
std::vector<std::string> violations(const Edition& ed, const GameState& st);

}  // namespace bb::rules::finance
