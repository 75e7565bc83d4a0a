// Engine: bankruptcy, returning cards, mortgaged transfers and the end of the game.
#include "rules/engine.h"

namespace bb::rules {

void Engine::bankrupt(PlayerId p) {
  auto it = std::find_if(st.pending.begin(), st.pending.end(),
                         [&](const Question& q) { return q.player == p && q.kind == QuestionKind::debt; });
  Account creditor = it != st.pending.end() ? it->creditor : Account::bank();
  std::optional<PlayerId> creditor_player = creditor.player();  // nobody: the bank
  std::erase_if(st.pending, [&](const Question& q) { return q.player == p; });
  auto& pl = st.players[p];
  ++st.bankruptcies;
  bool final_bankruptcy = r.end_after_bankruptcies > 0 && st.bankruptcies >= r.end_after_bankruptcies;
  bool keep_buildings = final_bankruptcy && r.bankrupt_keeps_buildings;
  bool houses_stay = keep_buildings || (creditor_player && r.creditor_takes_houses);
  std::vector<SpaceId> to_auction;
  std::vector<SpaceId> mortgaged_received;
  std::vector<SpaceId> beyond_markers = lots_beyond_markers(p, creditor);
  const SpaceSet lots = g.lots_of(p);  // a copy: the loop takes the lots away from p
  for (SpaceId s : lots) {
    SpaceState& ss = st.spaces[s];
    if (std::find(beyond_markers.begin(), beyond_markers.end(), s) != beyond_markers.end()) {
      // FINANCE (Parker): "Lots in excess of this number must be turned back to the bank at half-price":
      // the bank takes the lot with its houses and pays the creditor half their printed value.
      post(Account::bank(), creditor, g.lot_value(s) / 2, Memo::bankruptcy, s);
      st.bank_houses += ss.houses;
      if (ss.hotel) ++st.bank_hotels;
      return_to_bank(s);
      continue;
    }
    if (!houses_stay && !r.bankrupt_leases_withdrawn && (ss.houses > 0 || ss.hotel)) {
      Money cost = ed.spaces[s].house_cost;
      int houses = ss.hotel ? r.houses_for_hotel + 1 : ss.houses;
      st.bank_houses += ss.houses;
      if (ss.hotel) ++st.bank_hotels;
      ss.houses = 0;
      ss.hotel = false;
      if (creditor_player) post(Account::bank(), p, houses * cost / 2, Memo::sell_building, s);
    }
    if (r.bankrupt_leases_withdrawn) {
      // FINANCE (1932): "When a player is put out, all his property is withdrawn from the game. The leases
      // go back to the Bank and cannot be sold again." His houses go back to the bank's supply.
      st.bank_houses += ss.houses;
      if (ss.hotel) ++st.bank_hotels;
      auto fate = finance::fate_of_lease(ed, r, st, p, s);
      return_to_bank(s);
      if (fate == finance::Fate::auctioned) {
        to_auction.push_back(s);
      } else {
        ss.withdrawn = true;
        event([&] { return Event{.kind = Event::Kind::withdrawn, .player = p, .space = s}; });
      }
    } else if (!creditor_player) {
      st.bank_houses += ss.houses;
      if (ss.hotel) ++st.bank_hotels;
      return_to_bank(s);
      if (r.bankrupt_lots_auctioned) to_auction.push_back(s);
    } else {
      set_owner(s, creditor_player);
      if (ss.mortgaged) mortgaged_received.push_back(s);
    }
  }
  post(p, creditor, pl.cash, Memo::bankruptcy, std::nullopt);
  if (!creditor_player) {
    return_cards_to_decks(p);
  } else {
    for (DeckId d : ed.decks.ids()) st.players[*creditor_player].jail_cards[d] += pl.jail_cards[d];
    pl.jail_cards = {};
  }
  pl.bankrupt = true;
  pl.in_jail = false;
  pl.unclaimed_salary = 0;
  std::erase_if(st.free_rides, [&](const GameState::FreeRide& f) { return f.holder == p || f.owner == p; });
  // "If the partner is put out, the holding owner becomes full owner"; a holder's leases left with him.
  std::erase_if(st.partnerships,
                [&](const GameState::Partnership& f) { return f.holder == p || f.partner == p; });
  event([&] { return Event{.kind = Event::Kind::bankrupt, .player = p, .creditor = creditor}; });
  if (final_bankruptcy || active_count() <= 1) {
    finish();
    return;
  }
  if (!keep_buildings && creditor_player) {
    st.pending.reserve(st.pending.size() + mortgaged_received.size());  // one growth, not one per lot
    for (SpaceId s : mortgaged_received) ask_mortgaged_transfer(*creditor_player, s);
  }
  std::vector<Step> auctions;
  for (SpaceId s : to_auction) {
    Step a = make(Step::Kind::auction_lot, p);
    a.space = s;
    auctions.push_back(a);
  }
  if (p == st.current) {
    // The bankrupt player's turn ends at once; the bank's auctions run before the next player throws.
    std::erase_if(g.steps_, [&](const Step& s) { return s.player == p; });
    next_turn();
  }
  push_front(auctions);
}

void Engine::finish() {
  st.ended = true;
  st.pending.clear();
  st.auction.reset();
  g.steps_.clear();
  // "The richest player wins": when the richest are equal in worth, they share the win.
  Money best_worth = -1;
  st.winners.clear();
  for (PlayerId p : st.players.ids()) {
    if (!active(p)) continue;
    Money w = g.worth(p);
    if (w > best_worth) {
      best_worth = w;
      st.winners.clear();
    }
    if (w == best_worth) st.winners.push_back(p);
  }
  st.winner = st.winners.size() == 1 ? std::optional<PlayerId>{st.winners.front()} : std::nullopt;
  if (st.winners.empty()) event([&] { return Event{.kind = Event::Kind::game_over}; });
  for (PlayerId p : st.winners)
    event([&] {
      return Event{.kind = Event::Kind::game_over,
                   .player = p,
                   .amount = best_worth,
                   .winners = static_cast<int>(st.winners.size())};
    });
}

void Engine::ask_mortgaged_transfer(PlayerId p, SpaceId s) {
  Question q;
  q.player = p;
  q.kind = QuestionKind::mortgaged_transfer;
  q.options = {{Answer::lift}, {Answer::keep}};
  q.space = s;
  q.amount = interest(s);
  // Words for the screens: a game without a journal (a playout's) shows no screen and is never restored, so
  // its questions go unworded (a bankruptcy asks this for every mortgaged lot, and the amounts' wording was
  // a tenth of a playout's bankruptcy).
  if (!g.keep_journal_) {
    st.pending.push_back(std::move(q));
    return;
  }
  // "<lot> is mortgaged: lift it now for <mortgage and interest>, or keep it and pay <interest> interest",
  // appended into one buffer sized once: a bankruptcy asks this for every mortgaged lot, and fmt::format's
  // parse and copy were most of its cost.
  const std::string& lot = space_name(s);
  const std::string lift = money(ed.spaces[s.index()].mortgage + q.amount), keep = money(q.amount);
  constexpr std::string_view mortgaged = " is mortgaged: lift it now for ", or_keep = ", or keep it and pay ",
                             interest_words = " interest";
  q.reason.reserve(lot.size() + mortgaged.size() + lift.size() + or_keep.size() + keep.size() +
                   interest_words.size());
  q.reason.append(lot).append(mortgaged).append(lift).append(or_keep).append(keep).append(interest_words);
  st.pending.push_back(std::move(q));
}

}  // namespace bb::rules
