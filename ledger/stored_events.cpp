#include "ledger/stored_events.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "ledger/names.h"

namespace bb::ledger {

namespace {

using Event = rules::Event;
using EventKind = Event::Kind;
using Piece = Event::Piece;
using Item = rules::Auction::Item;

// The three kind-dependent ints of the stored shape (stored_events.h), with the values every kind that does
// not use one stores.
struct Overloaded {
  int from = -1;
  int to = -1;
  int detail = 0;
};

int item_wire(Item item) {
  switch (item) {
    case Item::property:
      return 0;
    case Item::house:
      return 1;
    case Item::hotel:
      return 2;
  }
  return 0;
}

std::optional<Item> item_from_wire(int detail) {
  switch (detail) {
    case 0:
      return Item::property;
    case 1:
      return Item::house;
    case 2:
      return Item::hotel;
    default:
      return std::nullopt;
  }
}

Overloaded encode(const Event& e) {
  switch (e.kind) {
    case EventKind::moved:
      return {rules::space_wire(e.from_space), rules::space_wire(e.to_space), e.jumped ? 1 : 0};
    case EventKind::jailed:
      return {rules::space_wire(e.from_space), rules::space_wire(e.to_space), 0};
    case EventKind::traded:
    case EventKind::free_ride:
      return {-1, rules::player_wire(e.other_player), 0};
    case EventKind::partnership:
      return {e.group, rules::player_wire(e.other_player), e.share_percent};
    case EventKind::bankrupt:
      return {-1, e.creditor.wire(), 0};
    case EventKind::built:
      return {-1, -1, e.piece == Piece::hotel ? 1 : 0};
    case EventKind::sold:
      switch (e.piece) {
        case Piece::house:
          return {-1, -1, 0};
        case Piece::hotel:
          return {-1, -1, 1};
        case Piece::group_sale_lot:
          return {e.had_hotel ? 1 : 0, -1, 2};
        case Piece::lot_to_bank:
          return {-1, -1, 3};
      }
      return {};
    case EventKind::auction_started:
    case EventKind::auction_won:
    case EventKind::auction_unsold:
      return {-1, -1, item_wire(e.auctioned)};
    case EventKind::game_over:
      return {-1, -1, e.winners};
    case EventKind::drafted:
      return {-1, -1, e.group};
    default:
      return {};
  }
}

// The typed fields of `e` (its kind set) from the stored ints; false when they hold what its kind never
// stored.
bool decode(const Overloaded& w, Event& e) {
  switch (e.kind) {
    case EventKind::moved:
      if (w.detail != 0 && w.detail != 1) return false;
      e.from_space = rules::space_from_wire(w.from);
      e.to_space = rules::space_from_wire(w.to);
      e.jumped = w.detail == 1;
      return true;
    case EventKind::jailed:
      e.from_space = rules::space_from_wire(w.from);
      e.to_space = rules::space_from_wire(w.to);
      return true;
    case EventKind::traded:
    case EventKind::free_ride:
      e.other_player = rules::player_from_wire(w.to);
      return true;
    case EventKind::partnership:
      e.group = w.from;
      e.other_player = rules::player_from_wire(w.to);
      e.share_percent = w.detail;
      return true;
    case EventKind::bankrupt: {
      auto creditor = rules::Account::from_wire(w.to);
      if (!creditor) return false;
      e.creditor = *creditor;
      return true;
    }
    case EventKind::built:
      if (w.detail != 0 && w.detail != 1) return false;
      e.piece = w.detail == 1 ? Piece::hotel : Piece::house;
      return true;
    case EventKind::sold:
      switch (w.detail) {
        case 0:
          e.piece = Piece::house;
          return true;
        case 1:
          e.piece = Piece::hotel;
          return true;
        case 2:
          if (w.from != 0 && w.from != 1) return false;
          e.piece = Piece::group_sale_lot;
          e.had_hotel = w.from == 1;
          return true;
        case 3:
          e.piece = Piece::lot_to_bank;
          return true;
        default:
          return false;
      }
    case EventKind::auction_started:
    case EventKind::auction_won:
    case EventKind::auction_unsold: {
      auto item = item_from_wire(w.detail);
      if (!item) return false;
      e.auctioned = *item;
      return true;
    }
    case EventKind::game_over:
      e.winners = w.detail;
      return true;
    case EventKind::drafted:
      e.group = w.detail;
      return true;
    default:
      return true;
  }
}

// The deck of the edition that holds `card` (the card itself, not one of its id), or null.
const rules::Deck* deck_of(const rules::Edition& edition, const rules::Card* card) {
  for (const rules::Deck& deck : edition.decks)
    for (const rules::Card& c : deck.cards)
      if (&c == card) return &deck;
  return nullptr;
}

// A stored event has one "amount" column: the money for the kinds that move it, the house count of a sale
// and the series piece of a FINANCE (1932) auction (the rows written before the event had typed fields for
// them read the same way).
rules::Money stored_amount(const rules::Event& e) {
  switch (e.kind) {
    case EventKind::sold:
      return e.houses_left;
    case EventKind::auction_started:
      return e.series_piece;
    default:
      return e.amount;
  }
}

void restore_amount(rules::Event& e, rules::Money stored) {
  switch (e.kind) {
    case EventKind::sold:
      e.houses_left = static_cast<int>(stored);
      return;
    case EventKind::auction_started:
      e.series_piece = static_cast<int>(stored);
      return;
    default:
      e.amount = stored;
      return;
  }
}

}  // namespace

nlohmann::json events_to_json(const std::vector<rules::Event>& events, const rules::Edition& edition) {
  nlohmann::json list = nlohmann::json::array();
  for (const rules::Event& e : events) {
    const Overloaded w = encode(e);
    nlohmann::json item = {{"kind", Names::event(e.kind)},
                           {"player", rules::player_wire(e.player)},
                           {"from", w.from},
                           {"to", w.to},
                           {"space", rules::space_wire(e.space)},
                           {"amount", stored_amount(e)},
                           {"detail", w.detail}};
    if (e.card) {
      item["card"] = e.card->id;
      if (const rules::Deck* deck = deck_of(edition, e.card)) item["deck"] = deck->id;
    }
    list.push_back(std::move(item));
  }
  return list;
}

std::vector<rules::Event> events_from_json(const nlohmann::json& list, const rules::Edition& edition) {
  std::vector<rules::Event> events;
  for (const auto& item : list) {
    auto kind = Names::event_from(item.value("kind", ""));
    if (!kind) continue;
    rules::Event e;
    e.kind = *kind;
    e.player = rules::player_from_wire(item.value("player", rules::player_wire(std::nullopt)));
    e.space = rules::space_from_wire(item.value("space", -1));
    restore_amount(e, item.value("amount", rules::Money{0}));
    if (!decode({item.value("from", -1), item.value("to", -1), item.value("detail", 0)}, e)) continue;
    if (item.contains("card")) {
      // By its deck and id; a row written before the deck was stored names the id alone (the first deck
      // holding it: one edition can have a card of one id in two decks, classic's go_to_jail).
      const std::string id = item["card"].get<std::string>();
      auto find_in = [&](const rules::Deck& deck) {
        for (const rules::Card& card : deck.cards)
          if (card.id == id) return &card;
        return static_cast<const rules::Card*>(nullptr);
      };
      if (item.contains("deck")) {
        if (const rules::Deck* deck = edition.deck(item.value("deck", ""))) e.card = find_in(*deck);
      } else {
        for (const rules::Deck& deck : edition.decks)
          if (!e.card) e.card = find_in(deck);
      }
    }
    events.push_back(e);
  }
  return events;
}

}  // namespace bb::ledger
