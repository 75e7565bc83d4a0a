#pragma once
// Events as the ledger stores them in an input's outcome (the `events` array of the `inputs.outcome` column),
// and back. The stored shape is the one released builds wrote, before the engine's events were typed: an
// object per event with `kind`, `player`, `space`, `amount`, `card` and three ints whose meaning depends on
// the kind, `from`, `to` and `detail`:
//   moved, jailed: `from`/`to` the spaces (-1: none), moved `detail` 1 when it jumped straight there;
//   traded, free_ride: `to` the other player's seat; partnership: `from` the group, `to` the partner's
//   seat, `detail` the share in %; bankrupt: `to` the creditor's account (-1 the bank);
//   built: `detail` 1 a hotel, 0 a house; sold: `detail` 0 a house, 1 a hotel, 2 one lot of a group sale
//   (`from` 1 when it had a hotel, else 0), 3 the lot back to the bank;
//   auction_*: `detail` 0 a property, 1 a house, 2 a hotel; game_over: `detail` how many share the win;
//   drafted: `detail` the group.
// Every other kind stores `from` -1, `to` -1, `detail` 0. A drawn card is stored as `card`, its id, and
// (since 25 November 2026) `deck`, the id of the deck it came from; free_ride, salary_earned,
// salary_forfeit, drafted, partnership and withdrawn have their names since then too (before: "unknown").
// Only these two functions know that encoding; the chain hash covers the stored text, so a build must write
// the same keys and values for the same event. Pure functions: any thread. Used by bb_ledger and its tests.
#include <nlohmann/json_fwd.hpp>
#include <vector>

#include "rules/edition.h"
#include "rules/state.h"

namespace bb::ledger {

// Events as the ledger stores them in an input's outcome; `edition` is the game's (its decks name the
// cards').
nlohmann::json events_to_json(const std::vector<rules::Event>& events, const rules::Edition& edition);

// Events as stored; a card is found again in the edition by its deck and id (by its id alone in a row
// without a deck). An event this build cannot read (a kind
// written by a newer build, a `detail` its kind never had, a creditor that is no account) is left out
// rather than guessed.
std::vector<rules::Event> events_from_json(const nlohmann::json& list, const rules::Edition& edition);

}  // namespace bb::ledger
