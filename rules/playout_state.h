#pragma once
// The compact playout engine's plain data (rules/playout_engine.h), private to rules/ like rules/engine.h:
// the state a playout changes (TableBits) and what it reads of an edition (PlayoutBoard). A TableBits belongs
// to the one call that plays it; board_of keeps one board per thread.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "rules/edition.h"
#include "rules/input_limits.h"
#include "rules/money.h"

namespace bb::rules {

// What the compact state holds; covers() refuses an edition or a table beyond it.
namespace playout_limits {
inline constexpr int kBoardSpaces = 48;  // the lots held (a lot is also one bit of a word: at most 64)
inline constexpr int kDecksHeld = 2;
inline constexpr int kDeckCards = 32;
inline constexpr int kGroups = 64;  // groups: one bit each
}  // namespace playout_limits

// A lot as one bit of a word (Game::lots_of and the masks of TableBits and PlayoutBoard).
inline std::uint64_t lot_bit(int space) { return std::uint64_t{1} << space; }

// A deck face down, top first, as DeckState keeps it: a ring of the deck's copies.
struct DeckBits {
  std::array<std::uint8_t, playout_limits::kDeckCards> ring{};
  std::uint8_t head = 0, size = 0, capacity = 0;
  int at(int i) const { return ring[(head + i) % capacity]; }
  int pop_top() {
    int c = ring[head];
    head = static_cast<std::uint8_t>(head + 1 == capacity ? 0 : head + 1);
    if (--size == 0) head = 0;
    return c;
  }
  void push_bottom(int c) {
    ring[(head + size) % capacity] = static_cast<std::uint8_t>(c);
    ++size;
  }
};

// The state a playout changes, plain data: copied whole every few points between moves (a checkpoint), so
// that a step the compact engine cannot finish is undone by playing again from there.
struct TableBits {
  struct Player {
    Money cash = 0;
    std::array<std::int8_t, playout_limits::kDecksHeld> jail_cards{};
    std::int8_t position = 0;
    std::int8_t jail_attempts = 0;
    bool in_jail = false;
    bool bankrupt = false;
    bool passed_start = false;
  };
  struct Lot {
    std::int8_t owner = -1;  // -1: the bank's
    std::int8_t houses = 0;
    bool hotel = false;
    bool mortgaged = false;
  };
  std::array<Player, kMaxPlayers> players{};
  std::array<Lot, playout_limits::kBoardSpaces> lots{};
  std::array<std::uint64_t, kMaxPlayers> owned{};  // by player, a bit per lot (Game::lots_of)
  std::uint64_t mortgaged = 0;                     // Game::mortgaged_lots
  std::uint64_t hotels = 0;                        // the lots with a hotel
  std::uint64_t built = 0;                         // the lots with a house or a hotel
  std::array<DeckBits, playout_limits::kDecksHeld> decks{};
  std::uint64_t bot_rng = 0;
  std::int64_t inputs = 0;    // Game::input_count
  std::int64_t postings = 0;  // Game::posting_count
  int bank_houses = 0, bank_hotels = 0;
  int turns = 0;
  int bankruptcies = 0;
  int winner = -1;  // once the game is over (ended): the one player left
  int current = 0;
  int doubles_in_row = 0;
  int last_d1 = 0, last_d2 = 0;
  bool turn_doubles = false;
  bool extra_roll_blocked = false;
  bool jail_question = false;  // the current player's jail question is pending (Engine::ask_jail)
  bool ended = false;          // the last bankruptcy but one: one player is left (Engine::finish)
};

// What the compact engine reads of an edition, worked out once per edition and thread (board_of).
struct PlayoutBoard {
  struct LotFacts {
    Space::Kind kind = Space::Kind::action;
    RentRule::Kind rent = RentRule::Kind::none;
    int group = -1;
    Money price = 0, house_cost = 0, mortgage = 0;
    std::span<const Money> amounts;   // the edition's, read in place
    std::span<const Effect> on_land;  // the edition's, read in place
    bool ownable = false;
  };
  struct TradeGroup {
    int group = 0;
    int members = 0;
  };

  // Worked out from the edition (rules/playout_turns.cpp).
  explicit PlayoutBoard(std::shared_ptr<const Edition> shared);

  // Which edition it was worked out for, without keeping that edition alive (a thread's last board outlives
  // its games): compared by owner, so another edition made at the same address is never taken for it. The
  // facts read the edition in place, only while a game holds it.
  std::weak_ptr<const Edition> edition;
  std::vector<LotFacts> facts;
  std::vector<std::uint64_t> group_masks;
  std::vector<std::uint64_t> property_groups;
  std::vector<TradeGroup> trade_groups;
  std::uint64_t properties = 0;
  Money least_house_cost = kMaxMoney;
  Money least_mortgage = kMaxMoney;
  int jail_space = 0;
  int start_space = 0;
};

// The board of the edition last played on this thread: a playout's start costs no walk of the edition. The
// caller holds `edition` while it uses the board.
const PlayoutBoard& board_of(const std::shared_ptr<const Edition>& edition);

}  // namespace bb::rules
