#pragma once
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "rules/ids.h"
#include "rules/input_limits.h"

namespace bb::rules {

// A set of a board's spaces, one bit per space (a board has at most kMaxBoardSpaces): the lots one player
// owns (Game::lots_of), the members of a group (Edition::group_set). Walked in board order, counted and
// compared a word at a time, so "which lots are mine" and "do I own the whole group" need no scan of the
// board: the bots asked both on every decision between moves, and the scan was their largest cost.
// Owns nothing beyond its bits; never allocates. Plain data: any thread.
class SpaceSet {
 public:
  static constexpr int kWords = (kMaxBoardSpaces + 63) / 64;

  // The caller keeps `space` on a board (below kMaxBoardSpaces): Game::start refuses larger boards.
  constexpr bool contains(SpaceId space) const { return (words_[word(space)] & bit(space)) != 0; }
  constexpr void insert(SpaceId space) { words_[word(space)] |= bit(space); }
  constexpr void erase(SpaceId space) { words_[word(space)] &= ~bit(space); }
  constexpr int size() const {
    int n = 0;
    for (std::uint64_t w : words_) n += bits_in(w);
    return n;
  }
  constexpr bool empty() const {
    for (std::uint64_t w : words_)
      if (w != 0) return false;
    return true;
  }
  // Every space of `other` is in this set too.
  constexpr bool contains_all(const SpaceSet& other) const {
    for (int i = 0; i < kWords; ++i)
      if ((other.words_[i] & ~words_[i]) != 0) return false;
    return true;
  }
  // How many spaces of `other` are in this set.
  constexpr int count_common(const SpaceSet& other) const {
    int n = 0;
    for (int i = 0; i < kWords; ++i) n += bits_in(words_[i] & other.words_[i]);
    return n;
  }
  // Word by word, without a branch: the defaulted comparison of the array was a call to memcmp, and the bots
  // compare a seat's lots with the lots their caches were worked out for on most decisions between moves.
  constexpr bool operator==(const SpaceSet& other) const {
    std::uint64_t differ = 0;
    for (int i = 0; i < kWords; ++i) differ |= words_[i] ^ other.words_[i];
    return differ == 0;
  }
  // The spaces in both sets.
  constexpr SpaceSet intersection(const SpaceSet& other) const {
    SpaceSet both;
    for (int i = 0; i < kWords; ++i) both.words_[i] = words_[i] & other.words_[i];
    return both;
  }
  // Adds every space of `other`.
  constexpr void insert_all(const SpaceSet& other) {
    for (int i = 0; i < kWords; ++i) words_[i] |= other.words_[i];
  }

  // The first space in board order that `wanted` accepts (nullopt: none). The hot loops use it rather than
  // the iterator: a word at a time, the compiler keeps the bits in a register.
  template <typename Wanted>
  constexpr std::optional<SpaceId> find_first(Wanted&& wanted) const {
    for (int i = 0; i < kWords; ++i)
      for (std::uint64_t bits = words_[i]; bits != 0; bits &= bits - 1)
        if (const SpaceId space{i * 64 + std::countr_zero(bits)}; wanted(space)) return space;
    return std::nullopt;
  }

  // The spaces in board order (lowest first).
  class iterator {
   public:
    using value_type = SpaceId;
    using difference_type = std::ptrdiff_t;
    constexpr iterator() = default;
    constexpr SpaceId operator*() const { return SpaceId{word_ * 64 + std::countr_zero(bits_)}; }
    constexpr iterator& operator++() {
      bits_ &= bits_ - 1;  // the lowest space is done
      settle();
      return *this;
    }
    constexpr iterator operator++(int) {
      iterator before = *this;
      ++*this;
      return before;
    }
    constexpr bool operator==(const iterator& other) const {
      return word_ == other.word_ && bits_ == other.bits_;
    }

   private:
    friend class SpaceSet;
    constexpr iterator(const std::uint64_t* words, int word) : words_(words), word_(word) {
      if (word_ < kWords) {
        bits_ = words_[word_];
        settle();
      }
    }
    constexpr void settle() {
      while (bits_ == 0 && ++word_ < kWords) bits_ = words_[word_];
    }
    const std::uint64_t* words_ = nullptr;
    int word_ = kWords;  // kWords and no bits: the end
    std::uint64_t bits_ = 0;
  };
  constexpr iterator begin() const { return iterator{words_.data(), 0}; }
  constexpr iterator end() const { return iterator{words_.data(), kWords}; }

 private:
  // The bits set in a word, inline and without a branch on the bits. std::popcount is a call into libgcc
  // where the target has no popcount instruction (the default x86-64): 3% of a playout's instructions. An
  // empty word (most of them: a board of 40 spaces fills one word of four) is skipped by a branch the
  // predictor always guesses.
  static constexpr int bits_in(std::uint64_t word) {
    if (word == 0) return 0;
    word -= (word >> 1) & 0x5555555555555555ULL;
    word = (word & 0x3333333333333333ULL) + ((word >> 2) & 0x3333333333333333ULL);
    word = (word + (word >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return static_cast<int>((word * 0x0101010101010101ULL) >> 56);
  }
  static constexpr std::size_t word(SpaceId space) { return space.index() / 64; }
  static constexpr std::uint64_t bit(SpaceId space) { return std::uint64_t{1} << (space.index() % 64); }
  std::array<std::uint64_t, kWords> words_{};
};

}  // namespace bb::rules
