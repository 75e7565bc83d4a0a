#pragma once
#include <algorithm>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "rules/game.h"
#include "rules/input.h"
#include "rules/money.h"

namespace bb::rules {

// Where the throws of a game the bot plays come from when they are not the bot's own dice: the odds' playouts
// throw from a stream of their own (common random numbers). Called once per die, on the bot's thread.
class BotDice {
 public:
  virtual int die() = 0;  // 1 to 6

 protected:
  ~BotDice() = default;
};

// A table of simple players for `simulate`, benchmarks and property tests: it always sends an input the game
// accepts, decided by plain rules of thumb and its own seeded random source (never the engine's).
// It asks the game yes-or-no questions (Game::refusal_to_*) and never has a refusal worded. It owns its
// random source and what it has worked out about the edition and the players' groups; it never changes a game
// except through Game::play (or, in play(), the engine's own handlers of the inputs it would have sent).
// Threads: a Bot belongs to the one thread that plays its game; several bots on several threads share
// nothing.
class Bot {
 public:
  explicit Bot(std::uint64_t seed) : rng_(seed * 0x9e3779b97f4a7c15ULL + 1) {}
  // The cash a bot keeps back before buying, bidding or building (and its multiples before lifting a
  // mortgage): its rules of thumb, here once for the bots and the compact playout engine that plays them.
  static constexpr Money kReserve = 150;
  // The bots' auction (Bot::next), here once for the bots and the compact playout engine: each bidder's limit
  // for a lot of printed `value` with `cash` in hand, from one random draw (70% to 129% of the value, the
  // reserve kept); the bidder with the highest limit bids just above the second limit, or the standing bid.
  static Money auction_limit(Money cash, Money value, std::uint64_t draw) {
    return std::min<Money>(cash - kReserve, value * static_cast<Money>(70 + draw % 60) / 100);
  }
  // Whether a bot lifts the mortgage of a mortgaged lot it receives (Bot::next's mortgaged_transfer answer):
  // when more than two reserves stay in hand after `lift`, the mortgage and its interest; else it keeps it.
  static bool lifts_transferred_mortgage(Money cash, Money lift) { return cash - lift > 2 * kReserve; }
  struct AuctionLimits {
    int best = -1;  // the seat of the highest limit above 0; -1: none
    Money best_limit = 0, second_limit = 0;
    void consider(int seat, Money limit) {
      if (limit > best_limit) {
        second_limit = best_limit;
        best_limit = limit;
        best = seat;
      } else if (limit > second_limit) {
        second_limit = limit;
      }
    }
    Money bid(Money high_bid, Money increment) const {
      return std::max<Money>(std::max<Money>(second_limit + increment, high_bid + increment), 1);
    }
  };
  // The bot's next decision as an input (a throw shows the bot's own dice).
  Input next(const Game& game);
  // Plays the bot's next decision on `game` (fused, for playouts and benchmarks): exactly what
  // `game.play(next(game))` does, the same decision, the same random draws and the same state after, with a
  // throw's faces taken from `dice` where given (the bot's own dice are drawn all the same, so its random
  // source moves as in next()). The common decisions (a throw, a house, the answer to a buy question, a card
  // to draw) are decided on the game's state and handed to the engine's own handlers without building an
  // Input; everything else goes through next() and Game::play. A throw is played with the questions it asks
  // that the bot answers at once (the lot offered, a card to draw, the lot a card sends the token to), each
  // still an input of its own (input_count() counts them), without returning in between: the caller next
  // sees the game with none of those pending. The game's events are not built (as Game::play).
  // tests/rules/fused_play_test.cpp plays the same games both ways.
  std::expected<void, std::string> play(Game& game, BotDice* dice = nullptr);

 private:
  friend class PlayoutTable;  // rules/playout_engine.cpp: draws from rng_ as the bot would
  // A decision between moves, typed so that play() hands the common ones to the engine without an Input.
  struct Move {
    enum class Kind : std::uint8_t { roll, build, unmortgage, other };
    Kind kind = Kind::roll;
    PlayerId player{0};
    SpaceId space{0};
    int d1 = 0, d2 = 0;  // roll: the bot's own dice
  };
  // The between-moves decision of the player whose turn it is; a decision of another kind (a trade,
  // FINANCE 1932's moves) is put in other_ until input_of() takes it.
  Move between_moves(const Game& game);
  Input input_of(const Move& move);
  // The answer to a buy question: buy when $150 stay in hand (and a marker is left), otherwise auction.
  static bool buys(const Game& game, const Question& question);

  // The least any lot of the edition costs to build on or to lift from its mortgage: below both, the bot
  // need not look at its lots between moves. Worked out once per edition the bot plays.
  struct Thresholds {
    Money house_cost = kMaxMoney;
    Money mortgage = kMaxMoney;
    // The groups of lots that can have buildings, each as a set, in the edition's order: the lots a player
    // might build on are the members of the groups they own whole.
    std::vector<const SpaceSet*> property_groups;
    SpaceSet properties;  // every lot that can have buildings
    // The groups of two or more ownable lots, in the edition's order: a group the player owns all but one
    // lot of is where the bot looks for a trade (nearly_whole).
    struct TradeGroup {
      int group = 0;    // index into Edition::groups
      int members = 0;  // how many lots it has
    };
    std::vector<TradeGroup> trade_groups;
    std::size_t group_count = 0;  // the edition's groups
  };
  const Thresholds& thresholds(const Edition& edition);
  // The lots the player might build on by the cheap tests alone: lots that can have buildings, in groups the
  // player owns whole where the edition asks for that. Empty when the bank and the player's credits have no
  // house and no hotel left to build with, since the rules then refuse every build. The set is the bot's own
  // (its cache by seat, or scratch): good until the bot's next call.
  const SpaceSet& build_candidates(const Game& game, PlayerId player, const Thresholds& least);
  Move between_moves_without_lots(const Game& game, PlayerId player);
  // The trade that completes a group, put in other_, when the bot makes one (one decision in eight looks).
  // Out of line: its loops and its Trade made the common throw's frame (its saved registers) dearer.
  [[gnu::noinline]] bool trade_to_complete_a_group(const Game& game, PlayerId player);
  std::optional<Input> finance_1932(const Game& game, PlayerId player);
  int dice();
  std::uint64_t random();
  std::uint64_t rng_;
  const Edition* thresholds_for_ = nullptr;  // the edition thresholds_ was worked out for
  Thresholds thresholds_;
  // By seat: the lots of the groups a player owns whole, worked out for the lots they owned then. A player's
  // lots change far less often than the bot decides, and each answer is a walk of the edition's groups.
  // Cleared with the thresholds when the edition changes.
  struct WholeGroups {
    SpaceSet lots;
    SpaceSet whole;
  };
  std::vector<WholeGroups> whole_groups_;
  SpaceSet candidates_;  // build_candidates' answer where it is not a seat's whole groups (a copy was a cost)
  // By seat, the same way: the groups of two or more ownable lots of which the player owns all but one, in
  // the edition's order (where the bot looks for a trade that completes a group).
  struct NearlyWhole {
    SpaceSet lots;
    std::vector<int> groups;
  };
  std::vector<NearlyWhole> nearly_whole_;
  const std::vector<int>& nearly_whole(const Game& game, PlayerId player, const Thresholds& least);
  std::vector<int> group_counts_;  // nearly_whole's count of the player's lots by group, kept for its storage
  // The rare between-moves decision that is no Move (a member: an optional Input made and dropped on every
  // decision was a cost of its own).
  std::optional<Input> other_;
};

}  // namespace bb::rules
