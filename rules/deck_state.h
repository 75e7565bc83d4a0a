#pragma once
// A deck's order during a game (DeckState), private to rules/ like rules/engine.h, which includes it: Game
// keeps one per deck, the engine draws from them, the snapshot reads and writes them.
#include <cstddef>
#include <utility>
#include <vector>

namespace bb::rules {

// One deck's cards face down, as indices into the edition's deck, top first: a ring, so that drawing the top
// card and putting one back at the bottom (every card drawn but a kept Get Out of Jail card) moves no other
// card. The ring holds every copy the deck has (it grows should it ever be handed more); `head_` is the top.
// Plain data: any thread.
class DeckState {
 public:
  DeckState() = default;
  explicit DeckState(std::vector<int> order) : ring_(std::move(order)), size_(ring_.size()) {}

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // The card `i` places from the top.
  int operator[](std::size_t i) const { return ring_[slot(i)]; }
  // The order top first, as the snapshot spells it.
  std::vector<int> order() const {
    std::vector<int> out;
    out.reserve(size_);
    for (std::size_t i = 0; i < size_; ++i) out.push_back((*this)[i]);
    return out;
  }
  // The top card leaves the deck.
  int pop_top() {
    int c = ring_[head_];
    head_ = head_ + 1 == ring_.size() ? 0 : head_ + 1;
    if (--size_ == 0) head_ = 0;
    return c;
  }
  // The card `i` places from the top leaves the deck (a card drawn by name, a card handed out): the cards
  // above it move down one, so the rest keep their order.
  int erase_at(std::size_t i) {
    int c = (*this)[i];
    for (std::size_t k = i; k > 0; --k) ring_[slot(k)] = ring_[slot(k - 1)];
    pop_top();
    return c;
  }
  void push_bottom(int c) {
    if (size_ == ring_.size()) grow();
    ring_[slot(size_)] = c;
    ++size_;
  }

 private:
  // One slot more, the cards laid out from the first (never in a game: a deck holds at most its copies).
  [[gnu::noinline]] void grow() {
    std::vector<int> grown = order();
    grown.resize(size_ + 1);
    ring_ = std::move(grown);
    head_ = 0;
  }

  std::size_t slot(std::size_t i) const {
    std::size_t s = head_ + i;
    return s >= ring_.size() ? s - ring_.size() : s;
  }

  std::vector<int> ring_;  // every slot the deck has; the cards are size_ of them from head_ on, wrapping
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

}  // namespace bb::rules
