#pragma once
#include <expected>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rules/ids.h"

namespace bb::table {

// What a card uid stands for at this table.
struct CardRole {
  enum class Kind {
    player,     // one of a player's cards (a player may have several)
    banker,     // the banker's card: authorises corrections and payments from the bank
    deck_card,  // a Chance or Community Chest card with an NFC sticker: tapping it draws that card
  };
  Kind kind = Kind::player;
  std::optional<rules::PlayerId> player;  // player: whose card (nobody for the banker's and deck cards)
  std::string deck;                       // deck_card: the edition's deck id ("chance", "chest")
  std::string card;                       // deck_card: the card id in that deck
  bool operator==(const CardRole&) const = default;
};

struct RegisteredCard {
  std::string uid;
  CardRole role;
  // A player's card kept between games (TableSettings::cards): whose it is by name, so that Ann's second card
  // is Ann's in every game, whatever her seat.
  std::string owner = {};
};

// Every card uid the table knows: each player's cards, the banker's card, the deck cards with stickers. A uid
// stands for exactly one thing; registering a uid that is already taken is refused with whose it is.
// Owns: the uid -> role map. Must never: decide anything about the game. Thread: the loop thread only.
class CardRegistry {
 public:
  // Normalises a uid as the readers report it (upper-case hex, no separators); nullopt when it is not hex.
  static std::optional<std::string> normalise(const std::string& uid);

  std::expected<void, std::string> add(const std::string& uid, CardRole role, const std::string& owner_name);
  void remove(const std::string& uid);
  std::optional<CardRole> find(const std::string& uid) const;
  std::vector<RegisteredCard> all() const;
  // Drops the player cards (a new game seats new players); the banker's and the deck cards stay.
  void clear_players();
  bool empty() const { return cards_.empty(); }

 private:
  std::map<std::string, std::pair<CardRole, std::string>> cards_;  // uid -> role, owner's name for messages
};

}  // namespace bb::table
