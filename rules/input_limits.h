#pragma once
// The one place where the limits on everything that comes from outside are set: numbers in game scripts and
// edition files, and the size of a script line or an edition file. Readers (script.cpp, edition.cpp,
// edition_checks.cpp) check every value against these before anything uses it; a value out of range is
// refused with the field, the value and the allowed range, never clamped or truncated.
// Owns: nothing but constants and the wording of a range refusal. Must never: read input itself.
// Thread: any (pure functions, constants).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "rules/money.h"

namespace bb::rules {

// Sizes: far above any real script line or edition file, far below what would exhaust a Pi's memory.
inline constexpr std::size_t kMaxScriptLineBytes = 64 * 1024;
inline constexpr std::size_t kMaxEditionFileBytes = 1024 * 1024;

// Counts in an edition.
inline constexpr int kMaxBoardSpaces = 200;   // a board's spaces
inline constexpr int kMaxCardCopies = 100;    // copies of one card in a deck
inline constexpr int kMaxCardsInDeck = 1000;  // all copies of all cards of one deck
inline constexpr int kMaxDecks = 8;  // decks of cards (a player's Get Out of Jail cards are counted by deck)
inline constexpr int kMaxBuildingSupply = 1000;  // houses or hotels the bank holds
inline constexpr int kMaxHousesOnLot = 20;       // max_houses, houses_for_hotel
inline constexpr int kMaxPercent = 100;          // interest, taxes
inline constexpr int kMaxTurnsInJail = 100;      // jail_turns
inline constexpr int kMaxAuctionTimerSeconds = 3600;
inline constexpr int kMaxMultiplier = 1000;  // rent and dice multipliers of effects
inline constexpr int kMaxPlayers = 8;

// Counts in a script.
inline constexpr int kMaxDie = 6;
inline constexpr int kMaxJailCards = 100;  // Get Out of Jail cards in a trade or an adopted position
inline constexpr int kMaxFreeRides = 1000;

// A card uid as it is compared: upper-case hex without separators ("0a:1b" and "0A1B" are one card).
std::string card_uid_key(std::string_view uid);

// "field 'dice': 4294967299 is out of range (a die shows 1 to 6)". `value` is the number as written.
std::string out_of_range_message(std::string_view field, std::string_view value, std::string_view what,
                                 long long lo, long long hi);

}  // namespace bb::rules
