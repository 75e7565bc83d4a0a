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
