#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "rules/answer.h"
#include "rules/ids.h"
#include "rules/input_limits.h"
#include "rules/money.h"

namespace bb::rules {

// The Get Out of Jail cards a player holds, counted by the deck each goes back to when used or returned. An
// edition has at most kMaxDecks decks (its checks refuse more), so the counts sit in the player's state
// without the heap. Plain data: any thread.
class HeldJailCards {
 public:
  int& operator[](DeckId deck) { return by_deck_[deck.index()]; }
  int operator[](DeckId deck) const { return by_deck_[deck.index()]; }
  int total() const {
    int n = 0;
    for (int held : by_deck_) n += held;
    return n;
  }
  // The deck of the card a player uses or hands over first: the first deck, in the edition's order, of which
  // he holds one. nullopt: he holds none.
  std::optional<DeckId> first() const {
    for (std::size_t d = 0; d < by_deck_.size(); ++d)
      if (by_deck_[d] > 0) return DeckId{static_cast<int>(d)};
    return std::nullopt;
  }

 private:
  std::array<int, kMaxDecks> by_deck_{};
};

struct PlayerState {
  std::string name;
  std::string token;
  std::string card;
  Money cash = 0;
  SpaceId position{0};
  bool in_jail = false;
  int jail_attempts = 0;     // failed doubles attempts this stay
  HeldJailCards jail_cards;  // Get Out of Jail cards held, by the deck they return to
  bool bankrupt = false;
  bool passed_start = false;   // has completed a circuit (FINANCE: needed before building)
  bool insured = false;        // jail insurance against the Go to Jail corner, bought for this turn
  bool insured_card = false;   // jail insurance against a Go to Jail card, bought for this turn
  Money unclaimed_salary = 0;  // earned this turn where the edition makes players claim it
  int cards() const { return jail_cards.total(); }
};

struct SpaceState {
  PlayerOrNobody owner{};  // nobody while the bank holds it
  int houses = 0;
  bool hotel = false;
  bool mortgaged = false;
  bool withdrawn = false;  // FINANCE (1932): the lease left the game with a player put out; never sold again
  bool operator==(const SpaceState&) const = default;
};

enum class Memo : std::uint8_t {
  start_cash,
  salary,
  buy,
  auction,
  rent,
  tax,
  card,
  jail_fine,
  build,
  sell_building,
  mortgage,
  unmortgage,
  interest,
  trade,
  bankruptcy,
  adopt,
  undo,
  fare,
  sweepstakes,
  insurance,
  space,
  deal,
  seat,
  house_rule,  // a HousePayment: Posting::card holds its reason
  partnership  // FINANCE (1932): the holder pays a partner his share of a railroad or power company income
};

enum class QuestionKind { buy, tax, jail, mortgaged_transfer, debt, draw, roll, draft };
// The question names of the game-script spec ("buy", "mortgaged_transfer", ...).
std::string_view question_name(QuestionKind kind);

struct Question {
  PlayerId player{0};  // who answers
  QuestionKind kind = QuestionKind::buy;
  QuestionOptions options;         // in the order the screens offer them (Game::option_name spells each)
  std::optional<SpaceId> space{};  // buy, mortgaged_transfer: the property
  Money amount = 0;                // buy: price; tax: the fixed amount; debt: what is owed; jail: the fine
  int percent = 0;                 // tax: the percentage
  Account creditor = Account::bank();  // debt: who is owed
  std::optional<DeckId> deck{};        // draw: which deck
  std::string reason;  // debt and mortgaged_transfer: what it is for ("rent Baltic Avenue"); the other
                       // questions carry their facts in the fields above
  Memo memo{};         // debt: what the payment is for, posted once the debt is paid
  std::string card;    // debt: the card that caused it, if any
};

struct Auction {
  enum class Item { property, house, hotel };
  Item item = Item::property;
  std::optional<SpaceId> space{};         // the lot, for a property auction
  std::optional<PlayerId> high_bidder{};  // nobody until the first bid
  Money high_bid = 0;
  int timer_s = 0;  // the edition's random deal timer, 0 when it has none
};

struct Posting {
  std::int64_t seq = 0;
  Account from = Account::bank();
  Account to = Account::bank();
  Money amount = 0;
  Memo memo = Memo::salary;
  std::optional<SpaceId> space{};  // the space it concerns, if any
  int input = -1;                  // index of the input that caused it (-1: the setup)
  std::string card;                // card id, for Memo::card; the reason, for Memo::house_rule
};

// What an input caused, for the screens and the daemon. Structured, so nothing is formatted unless someone
// reads it: Game::describe turns an event into a sentence. Each field has one meaning, and says which kinds
// set it; the others leave it at its default. Plain data, trivially copyable and without heap (the engine
// makes millions a second in the bots' games): any thread.
struct Card;
struct Event {
  enum class Kind {
    moved,
    jailed,
    released,
    card_drawn,
    bought,
    auction_started,
    auction_won,
    auction_unsold,
    built,
    sold,
    mortgaged,
    unmortgaged,
    traded,
    bankrupt,
    game_over,
    turn,
    undone,
    three_doubles,
    stays_in_jail,
    insured,
    adopted,
    free_ride,
    salary_earned,
    salary_forfeit,
    drafted,      // a set of title deeds chosen in the draft (`group`)
    partnership,  // FINANCE (1932): `player` holds the leases of `group`; `other_player` is the partner, who
                  // gets `share_percent` of every income
    withdrawn     // FINANCE (1932): `space` left the game with `player`, who was put out
  };
  // What a build or a sale was.
  enum class Piece : std::uint8_t {
    house,           // built, sold: one house
    hotel,           // built, sold: a hotel (sold: for `amount` houses in its place)
    group_sale_lot,  // sold: one lot of a group sale (a hotel sold when the bank lacks the houses to replace
                     // it takes the group's houses down evenly): `had_hotel`, `amount` houses left on it
    lot_to_bank,     // sold: the lot itself went back to the bank with its last house (lots_sell_to_bank)
  };

  Kind kind = Kind::turn;
  std::optional<PlayerId> player{};     // who it happened to; nobody for the auctions' and the end's events
  std::optional<SpaceId> space{};       // the property concerned (bought, auction_*, built, sold, mortgaged,
                                        // unmortgaged, free_ride, withdrawn)
  std::optional<SpaceId> from_space{};  // moved, jailed: where the token was
  std::optional<SpaceId> to_space{};    // moved, jailed: where it is now (moved: the same when it stays)
  std::optional<PlayerId> other_player{};  // traded: the other side; partnership: the partner; free_ride: the
                                           // owner of the lot ridden on
  Account creditor = Account::bank();      // bankrupt: who gets everything (the bank or a player)
  Money amount = 0;      // bought, mortgaged, auction_won: the price; salary_earned, salary_forfeit: the
                         // salary; game_over: the winners' worth; 0 in every other event
  int houses_left = 0;   // sold: the houses left on the lot (a hotel's: the houses put in its place)
  int series_piece = 0;  // auction_started (FINANCE 1932): the piece of its series announced; 0 when none
  const Card* card = nullptr;  // card_drawn
  int group = 0;               // drafted, partnership: the group's index in Edition::groups
  int winners = 0;             // game_over: how many players share the win (1: one winner; more: a tie, one
                               // game_over event per winner); 0 in the event without a player
  int share_percent = 0;       // partnership: the partner's share of each income, 1 to 100
  Auction::Item auctioned = Auction::Item::property;  // auction_started, auction_won, auction_unsold
  Piece piece = Piece::house;                         // built, sold
  bool jumped = false;     // moved: straight there (a card's "advance to"), not step by step
  bool had_hotel = false;  // sold, a group_sale_lot: the lot had a hotel before the sale

  bool operator==(const Event&) const = default;
};
static_assert(std::is_trivially_copyable_v<Event>,
              "an event is copied by the million: no heap, no destructor");

}  // namespace bb::rules

namespace bb::rules {
// The public picture of a game at one moment: what the screens draw and the dump prints.
struct GameState {
  ById<PlayerId, PlayerState> players;  // in turn order
  ById<SpaceId, SpaceState> spaces;     // one per board space, in board order
  int bank_houses = 0;
  int bank_hotels = 0;
  PlayerId current{0};  // whose turn it is
  std::vector<Question> pending;
  std::optional<Auction> auction;
  std::vector<Posting> postings;  // the journal, append-only
  int last_d1 = 0, last_d2 = 0;
  int doubles_in_row = 0;
  int bankruptcies = 0;
  int turns = 0;  // completed turns
  bool ended = false;
  std::optional<PlayerId>
      winner{};                   // the one winner; nobody while playing, and when the win is shared (a tie)
  std::vector<PlayerId> winners;  // everyone who won, in turn order: one player, or several who tie on worth
  struct FreeRide {
    PlayerId holder{0};  // who stops for free
    PlayerId owner{0};   // on whose properties
    int group = 0;       // of which group
    int rides = 0;       // how many are left
  };
  std::vector<FreeRide> free_rides;
  // The title-deed draft still to come (Rules::draft_sets): who chooses, in order; the first has the pending
  // `draft` question. Empty once the draft is over, and in editions without one.
  std::vector<PlayerId> draft_picks;
  // FINANCE (1932): players sharing the income of the railroads or the power companies. The holder holds
  // every lease of the group that is in the partnership; they never change hands again.
  struct Partnership {
    PlayerId holder{0};
    PlayerId partner{0};
    int group = 0;          // the group index (railroads or utilities)
    int share_percent = 0;  // the partner's share of each income, 1 to 100
  };
  std::vector<Partnership> partnerships;
  // FINANCE (1932): the turn (`turns` then) in which the Auctioneer last sold a lease early; -1: never.
  int early_sale_turn = -1;
  // The table's bookkeeping, never read by the rules: cards registered at the table during the game
  // (RegisterCard) and the postings their payers confirmed (ConfirmPayment), in order.
  struct TableCard {
    std::string uid;
    std::optional<PlayerId> player{};  // a player's card; nobody: the banker's, or a deck sticker
    std::string deck;                  // a sticker: its deck and card id
    std::string card;
    bool operator==(const TableCard&) const = default;
  };
  std::vector<TableCard> table_cards;
  std::vector<std::int64_t> confirmed_postings;
  ById<PlayerId, int> house_credits;  // by player: houses won at a shortage auction, still to be placed
  ById<PlayerId, int> hotel_credits;
};
}  // namespace bb::rules
