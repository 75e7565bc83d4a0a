#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "rules/answer.h"
#include "rules/ids.h"
#include "rules/money.h"

namespace bb::rules {

// Plain data, owned by value: any thread may build, copy or read one; the game applies it on the thread
// that owns the game.
// One decided input, as the game-script spec names them. Players by seat (PlayerId, in turn order).
struct Roll {
  int d1 = 0, d2 = 0;
};
// An answer to the player's pending question: one of the options it lists. A script spells it as a string
// (parse_input reads it once, against the edition: a draft's options are the sets' group ids); past the
// reader only the typed option travels, so no caller spells or compares an answer's name.
struct Choose {
  PlayerId player{0};
  QuestionOption option;
};
struct Bid {
  PlayerId player{0};
  Money amount = 0;
};
struct Close {};
// The top card of a deck, or the card named (its id in that deck): a script spells the deck by its id in the
// edition file, which parse_input reads once against the edition.
struct Draw {
  DeckId deck{0};
  std::optional<std::string> card;
};
struct Build {
  PlayerId player{0};
  SpaceId space{0};
  bool hotel = false;
};  // hotel: ask for the hotel where a house could also go
struct Sell {
  PlayerId player{0};
  SpaceId space{0};
  // Confirms a sale that changes other lots of the group too (a hotel sold when the bank lacks the houses to
  // replace it: Game::sale_plan lists every lot). Without it such a sale is refused, so one tap never
  // changes lots the player did not see.
  bool whole_group = false;
};
struct Mortgage {
  PlayerId player{0};
  SpaceId space{0};
};
struct Unmortgage {
  PlayerId player{0};
  SpaceId space{0};
};
struct FreeRideGrant {
  int group = -1;  // group index: rides on the giver's properties of this group
  int rides = 0;
};
struct Offer {
  Money cash = 0;
  std::vector<SpaceId> spaces;
  int cards = 0;                          // Get Out of Jail cards
  std::vector<FreeRideGrant> free_rides;  // FINANCE (1932): rent-free stops granted to the other side
};
struct Trade {
  PlayerId from{0};
  PlayerId to{0};
  Offer give;
  Offer get;
};
struct Bankrupt {
  PlayerId player{0};
};
struct AdoptSpace {
  SpaceId space{0};
  int houses = 0;
  bool hotel = false;
  bool mortgaged = false;
};
struct Adopt {
  PlayerId player{0};
  std::optional<Money> cash;
  std::optional<SpaceId> position;
  std::optional<bool> in_jail;
  std::optional<int> cards;
  std::vector<AdoptSpace> spaces;
};
struct End {};
struct Undo {};
// Extension: the banker auctions a house or hotel when two players want more than the bank holds.
struct AuctionBuilding {
  bool hotel = false;
};
// Extension (FINANCE 1932): the Auctioneer sells the lowest-numbered unsold lease without waiting for it to
// be stopped on (Rules::early_lease_sale_max).
struct AuctionLease {};
// Extension (FINANCE 1932): claim the salary earned this turn, where the edition makes players claim it.
struct Claim {
  PlayerId player{0};
};
// Extension (FINANCE 1932): jail insurance bought before throwing, against the corner or against a card.
struct Insure {
  PlayerId player{0};
  bool against_card = false;
};

// Extension (FINANCE 1932): two players combine railroads (or power companies) and share the full income.
// The partner hands every lease of the group he owns to the holder, who pays him `share_percent` of every
// income the group earns from then on, mortgaged or not; the leases never change hands again.
struct Partner {
  PlayerId holder{0};
  PlayerId partner{0};
  int group = -1;  // group index
  int share_percent = 0;
};

// Extension: a payment outside the rules that the table agreed on (the Free Parking jackpot and the like),
// between a player and the bank or two players. The reason is kept with its posting.
struct HousePayment {
  Account from = Account::bank();
  Account to = Account::bank();
  Money amount = 0;
  std::string reason;
};

// Extension (the table's bookkeeping; no money moves): a card registered at the table during a game (a
// player's second card, the banker's card, a Chance or Community Chest card with an NFC sticker). Kept in the
// game's state, so a resumed game knows the card again. The banker's: `player` nobody and no `deck`; a
// sticker: `deck` and `card` (the card id) set, `player` nobody.
struct RegisterCard {
  std::string uid;  // upper-case hex, as the readers send it
  std::optional<PlayerId> player{};
  std::string deck;
  std::string card;
};
// Extension (the table's bookkeeping; no money moves): the payer confirmed a payment the rules made (their
// card tap, or the Confirm button without a reader). `posting` is the Posting::seq of the journal's posting;
// kept in the game's state, so a game resumed after a crash does not ask again.
struct ConfirmPayment {
  std::int64_t posting = 0;
};

using Input = std::variant<Roll, Choose, Bid, Close, Draw, Build, Sell, Mortgage, Unmortgage, Trade, Bankrupt,
                           Adopt, End, Undo, AuctionBuilding, Claim, Insure, HousePayment, Partner,
                           AuctionLease, RegisterCard, ConfirmPayment>;

struct PlayerSetup {
  std::string name;
  std::string token;
  std::string card;  // RFID UID in hex, optional
  // Short Game: the deeds dealt to this player (else the engine deals from the seed).
  std::vector<SpaceId> deeds;
  // The screen's palette index chosen at setup (display only; the rules ignore it); -1: by seat.
  int colour = -1;
};

struct Setup {
  std::string edition;
  std::vector<PlayerSetup> players;
  std::map<std::string, bool> options;
  std::uint64_t seed = 0;
};

}  // namespace bb::rules
