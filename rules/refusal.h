#pragma once
#include <cstdint>
#include <optional>

#include "rules/ids.h"
#include "rules/money.h"

namespace bb::rules {

// Why the rules refuse to build, sell, mortgage or lift a mortgage now, as a value: the bots and the
// playouts ask thousands of times a second and only need yes or no, so nothing is worded until a screen
// shows it (Game::explain turns it into the sentence a family reads). Plain data: any thread.
struct Refusal {
  enum class Kind : std::uint8_t {
    no_such_player,          // player: the seat given, beyond the table
    no_such_space,           // space: the index given
    not_in_game,             // player
    bankrupt,                // player: out of the game
    cannot_have_buildings,   // space
    not_owner,               // player, space
    mortgaged_lift_first,    // space: build on a mortgaged lot
    needs_circuit,           // player: has not been round the board (FINANCE)
    needs_whole_group,       // player, space
    group_lot_mortgaged,     // other: the mortgaged lot of the group
    has_hotel,               // space
    needs_houses_for_hotel,  // space
    most_houses,             // space
    uneven_hotel,            // space, other: the lot that needs more houses first
    uneven_houses,           // other: the lot with fewer houses
    bank_out_of_hotels,
    bank_out_of_houses,
    cash_short_to_build,      // player, space
    nothing_to_sell,          // space
    sell_evenly,              // other: the lot with more buildings
    hotel_needs_bank_houses,  // space: the bank lacks the houses a hotel comes down to
    no_mortgages,             // the edition has none
    cannot_mortgage,          // space
    already_mortgaged,        // space
    group_has_buildings,      // space
    not_mortgaged,            // space
    cash_short_to_lift        // player, space
  };
  Kind kind = Kind::not_in_game;
  std::optional<PlayerId> player{};  // the player it concerns, where the kind names one
  std::optional<SpaceId> space{};
  std::optional<SpaceId> other{};  // a lot of the group the refusal names
  bool operator==(const Refusal&) const = default;
};

}  // namespace bb::rules
