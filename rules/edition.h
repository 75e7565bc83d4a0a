#pragma once
#include <expected>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/answer.h"
#include "rules/ids.h"
#include "rules/money.h"
#include "rules/space_set.h"

namespace bb::rules {

// One thing a space or a card does to the player who meets it. Editions compose these; the engine has
// no edition-specific branches. Fields not used by a kind are left at their defaults.
struct Effect {
  enum class Kind {
    collect,           // bank pays `amount`
    pay,               // pay the bank `amount` (reversed for paupers where the edition has them)
    tax_choice,        // question `tax`: pay `amount` or `percent`% of worth (chosen before counting)
    tax_percent_cash,  // pay `percent`% of cash on hand
    draw,              // draw from `deck`
    go_to_jail,
    get_out_of_jail,     // keep the card until used
    advance_to,          // move forward to `space`; `salary` when passing start
    advance_to_nearest,  // forward to the nearest space of `group`; rent times `multiplier`, or dice x
                         // `dice_multiplier`
    move_by,             // `steps` forward (negative: back); no salary when going back
    move_to,             // jump to `space` without passing start (no salary), then land there
    pay_each_player,     // pay every other player `amount`
    collect_from_each,   // every other player pays `amount`
    repairs,             // pay `per_house` per house and `per_hotel` per hotel
    roll_move,           // throw again: even goes forward, odd goes back, by the throw
    sweepstakes,         // throw again: collect `dice_multiplier` x throw from each other player
    fare,                // pay `amount` (to the bank), then throw again and move
    forced_move_back,    // every rival already on this space moves back `steps` and lands there
    buy_seats,           // pay `amount` to the bank for each other player (Gayety Theater)
  };
  Kind kind = Kind::collect;
  Money amount = 0;
  int percent = 0;
  std::optional<DeckId> deck;  // draw: which deck
  int space = -1;
  std::string group;
  int steps = 0;
  int multiplier = 1;
  int dice_multiplier = 0;
  Money per_house = 0;
  Money per_hotel = 0;
  bool salary = true;
};

struct Card {
  std::string id;
  std::string text;
  std::vector<Effect> effects;
  int copies = 1;
};

struct Deck {
  std::string id;    // "chance", "chest": how scripts and snapshots spell the deck (Edition::deck_named)
  std::string name;  // "Chance", "Community Chest"
  std::vector<Card> cards;
};

// How the owner of a space charges rent.
struct RentRule {
  enum class Kind {
    table,     // rent[houses] (last entry the hotel where the edition has hotels)
    doubling,  // rent[0] with one house, doubling per extra house (house and lot sold together)
    by_count,  // rent[n-1] where n is how many of the group the owner holds (railroads)
    dice,      // dice total x multipliers[n-1] (utilities)
    none,      // cannot be owned
  };
  Kind kind = Kind::none;
  std::vector<Money> amounts;
};

struct Space {
  enum class Kind { corner, property, railroad, utility, action };
  int index = 0;
  std::string name;
  Kind kind = Kind::action;
  std::string group;     // colour group (properties), "railroad", "utility"
  int group_index = -1;  // index into Edition::groups, -1 for none
  Money price = 0;       // printed price; 0 for spaces that cannot be owned
  Money house_cost = 0;  // per house; the hotel costs the same
  Money mortgage = 0;    // mortgage value
  RentRule rent;
  std::vector<Effect> on_land;  // what landing does (taxes, cards, moves)
  bool is_jail = false;
  bool is_start = false;
  int line = 0;  // line in the edition file, for messages
};

struct Group {
  std::string id;
  std::string name;
  std::string colour;  // #RRGGBB, for the screens
};

// The switches where rule books differ. Defaults are the classic text's answers.
struct Rules {
  Money start_cash = 1500;
  Money salary = 200;
  bool salary_on_landing = true;
  int houses = 32;
  int hotels = 12;
  int max_houses = 4;  // houses on one lot before a hotel (or the cap where there are no hotels)
  bool hotels_enabled = true;
  int houses_for_hotel = 4;     // houses each lot of the group needs before a hotel
  bool buy_at_price = true;     // false: every first landing is an auction
  bool house_with_lot = false;  // buying a lot includes its first house
  bool build_needs_group = true;
  bool build_needs_circuit = false;  // a full circuit of the board before building
  bool even_building = true;
  bool double_rent_on_group = true;
  // FINANCE (1932): "A player owning a complete series unmortgaged and without houses may collect double the
  // regular rent": no lot of the series mortgaged or built on. The classic texts double an unimproved lot
  // "even if another property in that color-group is mortgaged".
  bool double_rent_needs_clear_series = false;
  int max_properties = 0;  // 0: no cap; FINANCE (Parker): 8 ownership markers
  bool mortgages = true;
  int mortgage_interest_percent = 10;
  Money jail_fine = 50;
  int jail_turns = 3;
  bool three_doubles_to_jail = true;
  Money bid_increment = 1;
  bool paupers = false;  // FINANCE 1932: payments to the bank reversed for the poor
  Money pauper_cash_below = 100;
  Money jail_insurance = 0;  // 0: none; else cost per turn
  Money jail_insurance_card = 0;
  bool free_rides = false;
  int auction_timer_min_s = 0;  // Here and Now: a random deal timer
  int auction_timer_max_s = 0;
  int deal_deeds = 0;  // Short Game: title deeds dealt to each player at the start
  bool deals_paid = true;
  int end_after_bankruptcies = 0;         // 0: play to the last player
  bool bankrupt_keeps_buildings = false;  // the game-ending bankruptcy hands over buildings intact
  bool flat_income_tax = false;           // tax_choice spaces charge their fixed amount without asking
  // Ships Short Game: out of the jail on the next turn, paying if need be.
  bool leave_jail_next_turn = false;
  // The other reading of the ships Short Game's "You lose one turn": the turn out of the jail is spent
  // getting out (card, fine, doubles, or the fine after a failed throw), and the token moves on the turn
  // after.
  bool jail_exit_ends_turn = false;
  // FINANCE (Parker): a rival on the space you land on moves back this far.
  int forced_move_back = 0;
  // FINANCE (1932): a salary not claimed within the turn is forfeit.
  bool salary_must_be_claimed = false;
  // The stricter reading of selling a hotel: it is sold back only for the houses that replace it, so the
  // sale waits until the bank has them. Off: all hotels of the group may be sold at once (docs/editions.md).
  bool hotel_sale_needs_houses = false;
  bool lots_trade_with_houses = false;  // FINANCE (Parker): a lot changes hands with its houses on it
  // FINANCE (Parker): "The Bank will at any time buy back a house and lot ... for just one-half their value":
  // selling a lot's last house (or a bare lot) sells the lot with it, and the lot is the bank's again.
  bool lots_sell_to_bank = false;
  // FINANCE (Parker): a player bankrupt to another player hands over his lots with their houses standing
  // ("Houses remain on the lot undisturbed"), instead of the bank buying the buildings back first.
  bool creditor_takes_houses = false;
  // What the bank does with the lots of a player bankrupt to the bank: auction them at once (classic), or
  // keep them unowned until someone lands there (FINANCE, Parker: "turn all his property back to the bank").
  bool bankrupt_lots_auctioned = true;
  // Ships Short Game rule 1: before the first throw, players choose sets of title deeds (a colour-group, the
  // tankers or the tugs) in turn order, free; with `draft_second_round_max_players` players or fewer, a
  // second set each in reverse order (a snake draft).
  bool draft_sets = false;
  int draft_second_round_max_players = 4;
  // FINANCE (1932).
  bool doubles_roll_again = true;          // false: doubles give no further throw
  bool jail_last_turn_free = false;        // the last turn in jail comes out without the fine
  bool partnerships = false;               // railroads and utilities may be combined (the `partner` input)
  bool bankrupt_leases_withdrawn = false;  // a player put out takes his leases out of the game
  bool withdraw_only_complete_series = false;  // ... only his complete series; the odd lots are auctioned
  // A house owner buys only into series he already has a lot of.
  bool house_owner_buys_in_series_only = false;
  // FINANCE (1932): "A player with 3 or more houses on one property cannot "languish" in Jail, but must come
  // out on his first turn. He gets choice of three throws of the dice, all taken on the same turn. Each throw
  // cancels opportunity to use the previous one."
  bool jail_house_owner_three_throws = false;
  // FINANCE (1932): "The Auctioneer may sell the last 3 or 4 properties without waiting for them to be
  // stopped on ... Do not sell all at one time. Sell the lowest number first." At most this many unsold
  // leases may be sold early, one a turn (the `auction` input with "item": "lease"); 0: never.
  int early_lease_sale_max = 0;
  // FINANCE (1932): "the Auctioneer must announce whether it is the 1st, 2nd or 3rd piece in that series to
  // be auctioned" (Game::series_piece; the auction screen and the auction's event say it).
  bool announce_series_piece = false;
  // FINANCE (1932): "A player may buy, sell or trade property with another at any time, provided his man is
  // not in motion and his debts are settled": no trade by a player who owes a debt (he mortgages or tears
  // down).
  bool trade_needs_debts_settled = false;
};

// The edition's own words for its buildings and its jail, for sentences on the screens ("Ann builds a
// Quinn's house on Ice World"). Defaults are the classic words.
struct Words {
  std::string house = "house";
  std::string houses = "houses";
  std::string hotel = "hotel";
  std::string hotels = "hotels";
  std::string jail = "jail";  // as in "in jail", "out of jail"
  // "no houses", "1 house", "3 houses" in the edition's words.
  std::string count_houses(int n) const;
};

struct Currency {
  std::string symbol = "$";
  bool symbol_after = false;
  Money unit =
      1;  // what one unit of Money is worth in the printed currency (10000 where amounts print as 2M, 260K)
  bool mk = false;  // print as M and K (Here and Now)
};

// A variant switch: a named set of overrides of Rules, off unless the setup turns it on.
struct Option {
  std::string name;
  std::string description;
  bool default_on = false;
  std::map<std::string, long long> overrides;  // Rules field name -> value (bools as 0/1)
};

// One rule book as loaded from its TOML file: the board, the decks, the rules and the words. Owns all of
// it; a game holds it through a shared_ptr<const Edition> and never changes it. Never does I/O itself
// (load_edition reads the file). Immutable once loaded: any thread may read it, any number at once.
struct Edition {
  std::string id;
  std::string name;
  std::string source_file;
  std::string notes;
  Currency currency;
  Words words;
  Rules rules;
  std::vector<Group> groups;
  ById<SpaceId, Space> spaces;
  ById<DeckId, Deck> decks;  // at most kMaxDecks (the edition's checks refuse more)
  std::vector<Option> options;

  std::optional<SpaceId> jail_space;  // none on a board without a jail
  SpaceId start_space{0};
  std::vector<std::vector<SpaceId>> group_spaces;  // by group index: the spaces of each group, in board order
  std::vector<SpaceSet> group_sets;  // by group index: the same spaces as a set (ownership tests)
  // Fills group_index, group_spaces and group_sets from the group names; parse_edition does it, hand-built
  // editions must.
  void index_groups();
  const std::vector<SpaceId>& members_of(int group_index) const {
    return group_spaces[static_cast<std::size_t>(group_index)];
  }
  const SpaceSet& group_set(int group_index) const {
    return group_sets[static_cast<std::size_t>(group_index)];
  }
  const Deck* deck(const std::string& id) const;
  // A deck as scripts spell it (its id in the edition file), read once where it comes in; nullopt: no deck
  // of this edition. deck_words lists the edition's deck ids for a refusal ("chance, chest").
  std::optional<DeckId> deck_named(std::string_view id) const;
  std::string deck_words() const;
  // Whether a card of the deck sends the drawer to jail (the bots insure against drawing one).
  bool deck_sends_to_jail(DeckId deck) const;
  const Group* group(const std::string& id) const;
  // A question's option as the game-script spec spells it: the answer's name, or for a draft's take_set the
  // group's id. option_named reads a spelling back (nullopt: no answer and no group of this edition).
  std::string_view option_name(const QuestionOption& option) const;
  std::optional<QuestionOption> option_named(std::string_view text) const;
  std::vector<SpaceId> group_members(const std::string& group) const;
  std::optional<SpaceId> space_by_name(const std::string& name) const;
  // Rules with the named options applied; an unknown option name is an error.
  std::expected<Rules, std::string> rules_with(const std::map<std::string, bool>& options) const;
  // Formats an amount as the edition prints it ("$1,500", "15M", "260K").
  std::string format_money(Money amount) const;
};

struct EditionError {
  std::string file;
  int line = 0;
  std::string key;
  std::string message;
  // Further problems found in the same file: the loader's checks of meaning report them all at once.
  std::vector<EditionError> more = {};
  // "editions/x.toml:12: key 'rent': expected 6 amounts, found 5", then each further problem on its own line.
  std::string what() const;
};

// Parses an edition from TOML text; `file` names it in messages. Pure: no I/O.
std::expected<Edition, EditionError> parse_edition(std::string_view toml_text, const std::string& file);
// Reads and parses a file. `id_or_path` is an edition id found in `search_dirs` (as ID.toml) or a path.
std::expected<Edition, EditionError> load_edition(const std::string& id_or_path,
                                                  const std::vector<std::string>& search_dirs);

}  // namespace bb::rules
