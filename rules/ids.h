#pragma once
#include <compare>
#include <cstddef>
#include <optional>
#include <vector>

namespace bb::rules {

// A space of the board, by its place in board order (0: the start space). One int, no cost over a bare one;
// it exists so a space is never mixed up with a player, a group or a count. Constructed explicitly, from a
// number that was range-checked where it came in (a script line, a screen, an edition file); index() indexes
// Edition::spaces and GameState::spaces. "No space" is std::optional<SpaceId>, never a negative number.
// number() is the spelling on the wire (the game-script spec, the state dump, the snapshot, the ledger).
// Plain data: any thread.
class SpaceId {
 public:
  constexpr explicit SpaceId(int number) : number_(number) {}
  constexpr int number() const { return number_; }
  constexpr std::size_t index() const { return static_cast<std::size_t>(number_); }
  constexpr auto operator<=>(const SpaceId&) const = default;

 private:
  int number_;
};

// The wire's spelling of "no space" (the game-script spec's state dump, the snapshot, the ledger's columns)
// is -1; these two are the only places that know it.
constexpr int space_wire(std::optional<SpaceId> space) { return space ? space->number() : -1; }
constexpr std::optional<SpaceId> space_from_wire(int number) {
  return number < 0 ? std::nullopt : std::optional<SpaceId>{SpaceId{number}};
}

// A deck of cards, by its place among the edition's decks (Edition::decks, in the order the edition file
// lists them). One int like SpaceId, so a deck is never mixed up with a card, a group or a count. The wire
// (a script's `draw` line, the state dump, the snapshot) spells a deck by the id its edition file gives it
// ("chance", "chest"): read once against the edition (Edition::deck_named, which refuses an unknown word) and
// written back from it (Edition::decks[deck].id), so no code past the reader compares a deck's word.
// Plain data: any thread.
class DeckId {
 public:
  constexpr explicit DeckId(int number) : number_(number) {}
  constexpr std::size_t index() const { return static_cast<std::size_t>(number_); }
  constexpr auto operator<=>(const DeckId&) const = default;

 private:
  int number_;
};

// A player, by seat: 0 is the first to play, then in turn order. One int like SpaceId, and for the same
// reason: a player is never mixed up with a space, a group, a count or an account. Constructed explicitly
// from a number range-checked where it came in (a script's player name, a screen, a snapshot); index()
// indexes GameState::players. "Nobody" (an unowned lot, no bid yet, a shared win) is
// std::optional<PlayerId>, never a negative number. number() is the spelling on the wire (the state dump,
// the snapshot, the ledger's columns). Plain data: any thread.
class PlayerId {
 public:
  constexpr explicit PlayerId(int number) : number_(number) {}
  constexpr int number() const { return number_; }
  constexpr std::size_t index() const { return static_cast<std::size_t>(number_); }
  constexpr auto operator<=>(const PlayerId&) const = default;

 private:
  int number_;
};

// The wire's spelling of "nobody" (the state dump's and the snapshot's owner, high bidder, winner and card
// holder) is -2; these two are the only places that know it.
constexpr int player_wire(std::optional<PlayerId> player) { return player ? player->number() : -2; }
constexpr std::optional<PlayerId> player_from_wire(int number) {
  return number < 0 ? std::nullopt : std::optional<PlayerId>{PlayerId{number}};
}

// A player or nobody, in the room of one int: what std::optional<PlayerId> says, for the state the engine and
// the bots scan over and over (a lot's owner). A std::optional<PlayerId> holds a flag beside the id, so
// `owner == p` is a test of the flag and then of the id: a branch per lot that the predictor cannot guess,
// which was the bots' largest cost. Here nobody is a number no seat has, and `owner == p` compares one int.
// Its interface is std::optional's where callers use it (has_value, operator bool, *, ->, value, value_or,
// reset, comparison with a player, nullopt and an optional), and it converts both ways with
// std::optional<PlayerId>, so code written for the optional keeps compiling. Plain data: any thread.
class PlayerOrNobody {
 public:
  constexpr PlayerOrNobody() = default;
  constexpr PlayerOrNobody(std::nullopt_t) {}                      // NOLINT: as std::optional converts
  constexpr PlayerOrNobody(PlayerId player) : id_(player) {}       // NOLINT: as std::optional converts
  constexpr PlayerOrNobody(const std::optional<PlayerId>& player)  // NOLINT: as std::optional converts
      : id_(player ? *player : PlayerId{kNobody}) {}
  constexpr operator std::optional<PlayerId>() const {  // NOLINT: code written for the optional
    return has_value() ? std::optional<PlayerId>{id_} : std::nullopt;
  }

  constexpr bool has_value() const { return id_.number() != kNobody; }
  constexpr explicit operator bool() const { return has_value(); }
  // Like std::optional's: only for a player (has_value()); value() checks and throws otherwise.
  constexpr const PlayerId& operator*() const { return id_; }
  constexpr const PlayerId* operator->() const { return &id_; }
  constexpr const PlayerId& value() const {
    if (!has_value()) throw std::bad_optional_access{};
    return id_;
  }
  constexpr PlayerId value_or(PlayerId otherwise) const { return has_value() ? id_ : otherwise; }
  constexpr void reset() { id_ = PlayerId{kNobody}; }

  // One int compared: nobody equals no player, since no seat has kNobody's number.
  constexpr bool operator==(const PlayerOrNobody&) const = default;
  constexpr bool operator==(PlayerId player) const { return id_ == player; }
  constexpr bool operator==(std::nullopt_t) const { return !has_value(); }
  constexpr bool operator==(const std::optional<PlayerId>& player) const {
    return *this == PlayerOrNobody{player};
  }

 private:
  static constexpr int kNobody = -2;  // no seat: seats are 0 and up
  PlayerId id_{kNobody};
};

// One side of a payment: the bank, or a player. Every posting moves money from one account to another, so
// a payment to "nobody" cannot be written. A PlayerId converts to its account implicitly (a player is an
// account); the bank is Account::bank(). Only wire() and from_wire() know the wire's spelling of the bank
// (-1, in the snapshot and the ledger's columns). Plain data: any thread.
class Account {
 public:
  static constexpr Account bank() { return Account{kBankWire}; }
  constexpr Account(PlayerId player) : number_(player.number()) {}  // NOLINT: a player is an account
  constexpr bool is_bank() const { return number_ == kBankWire; }
  // The player whose account this is; nullopt for the bank.
  constexpr std::optional<PlayerId> player() const {
    return is_bank() ? std::nullopt : std::optional<PlayerId>{PlayerId{number_}};
  }
  constexpr bool is(PlayerId player) const { return number_ == player.number(); }
  constexpr int wire() const { return number_; }
  // nullopt for a number that is neither the bank's -1 nor a seat (the caller checks the seat's range).
  static constexpr std::optional<Account> from_wire(int number) {
    if (number == kBankWire) return bank();
    if (number < 0) return std::nullopt;
    return Account{PlayerId{number}};
  }
  constexpr bool operator==(const Account&) const = default;

 private:
  static constexpr int kBankWire = -1;
  constexpr explicit Account(int number) : number_(number) {}
  int number_;
};

// The ids 0..count-1 in order, for a loop over every space or player: `for (SpaceId s : st.spaces.ids())`.
template <typename Id>
class IdRange {
 public:
  class iterator {
   public:
    constexpr explicit iterator(int number) : number_(number) {}
    constexpr Id operator*() const { return Id{number_}; }
    constexpr iterator& operator++() {
      ++number_;
      return *this;
    }
    constexpr bool operator==(const iterator&) const = default;

   private:
    int number_;
  };
  constexpr explicit IdRange(std::size_t count) : count_(static_cast<int>(count)) {}
  constexpr iterator begin() const { return iterator{0}; }
  constexpr iterator end() const { return iterator{count_}; }

 private:
  int count_;
};

// A vector of one thing per id (a SpaceState per SpaceId, ...): indexed by the id, and still a plain
// std::vector for sizes, loops and the code that walks it in order.
template <typename Id, typename T>
class ById : public std::vector<T> {
 public:
  using std::vector<T>::vector;
  using std::vector<T>::operator[];
  T& operator[](Id id) { return std::vector<T>::operator[](id.index()); }
  const T& operator[](Id id) const { return std::vector<T>::operator[](id.index()); }
  IdRange<Id> ids() const { return IdRange<Id>{this->size()}; }
};

}  // namespace bb::rules
