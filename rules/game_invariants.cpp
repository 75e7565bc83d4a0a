// Game::invariant_violations and Game::signature: the checks the tests run after every input, and the
// state's hash for pinned signatures.
#include <fmt/format.h>

#include "rules/engine.h"
#include "rules/game.h"

namespace bb::rules {

std::vector<std::string> Game::invariant_violations() const {
  std::vector<std::string> bad;
  const GameState& st = state_;
  const Edition& ed = *edition_;
  int n = static_cast<int>(st.players.size());
  auto seated = [&](PlayerId p) { return p.number() >= 0 && p.number() < n; };
  // A running draft asks its next chooser, and nothing else happens before it is over.
  if (!st.draft_picks.empty()) {
    bool asked = !st.pending.empty() && st.pending.front().kind == QuestionKind::draft &&
                 st.pending.front().player == st.draft_picks.front();
    if (!asked) bad.push_back("the draft is running but its next chooser is not asked");
    if (st.turns > 0) bad.push_back("a turn was played before the draft was over");
  }
  // The journal explains every balance, and all balances (the bank's included) sum to zero.
  std::vector<Money> balance(static_cast<std::size_t>(n) + 1, 0);  // last slot: the bank
  auto known = [&](Account account) { return account.is_bank() || seated(*account.player()); };
  auto slot = [&](Account account) {
    return account.is_bank() ? static_cast<std::size_t>(n) : account.player()->index();
  };
  for (std::size_t i = 0; i < st.postings.size(); ++i) {
    const Posting& p = st.postings[i];
    if (p.seq != static_cast<std::int64_t>(i) + 1)
      bad.push_back(fmt::format("posting {} has seq {}", i + 1, p.seq));
    if (p.amount <= 0) bad.push_back(fmt::format("posting {} moves {}", p.seq, p.amount));
    if (!known(p.from) || !known(p.to)) {
      bad.push_back(fmt::format("posting {} names an unknown account", p.seq));
      continue;
    }
    balance[slot(p.from)] -= p.amount;
    balance[slot(p.to)] += p.amount;
  }
  Money sum = 0;
  for (Money b : balance) sum += b;
  if (sum != 0) bad.push_back(fmt::format("balances sum to {}, not zero", sum));
  for (PlayerId p : st.players.ids()) {
    // Without its journal (forget_journal: a playout), a game cannot say where its balances came from.
    if (keep_journal_ && balance[p.index()] != st.players[p].cash)
      bad.push_back(fmt::format("{} holds {} but the ledger says {}", st.players[p].name, st.players[p].cash,
                                balance[p.index()]));
    if (st.players[p].cash < 0) bad.push_back(fmt::format("{} has negative cash", st.players[p].name));
    if (st.players[p].bankrupt && (st.players[p].cash != 0 || st.players[p].cards() != 0))
      bad.push_back(fmt::format("bankrupt {} still holds cash or cards", st.players[p].name));
    // The bots look for a salary to claim only where the edition makes players claim it.
    if (st.players[p].unclaimed_salary != 0 && !rules_.salary_must_be_claimed)
      bad.push_back(fmt::format("{} has a salary to claim in a game where salaries are paid, not claimed",
                                st.players[p].name));
  }
  // Buildings: on the board plus in the bank (plus won at auction, not yet placed) equal the supply.
  int houses = st.bank_houses, hotels = st.bank_hotels;
  for (int c : st.house_credits) houses += c;
  for (int c : st.hotel_credits) hotels += c;
  for (std::size_t s = 0; s < st.spaces.size(); ++s) {
    const SpaceState& ss = st.spaces[s];
    const Space& sp = ed.spaces[s];
    houses += ss.houses;
    hotels += ss.hotel ? 1 : 0;
    if (ss.owner) {
      if (!seated(*ss.owner))
        bad.push_back(fmt::format("{} has an unknown owner", sp.name));
      else if (st.players[*ss.owner].bankrupt)
        bad.push_back(fmt::format("{} is owned by a bankrupt player", sp.name));
      if (!is_ownable(sp)) bad.push_back(fmt::format("{} cannot be owned", sp.name));
    } else if (ss.houses || ss.hotel || ss.mortgaged) {
      bad.push_back(fmt::format("{} belongs to the bank but has buildings or a mortgage", sp.name));
    }
    if (ss.hotel && ss.houses) bad.push_back(fmt::format("{} has a hotel and houses", sp.name));
    if (ss.houses > rules_.max_houses) bad.push_back(fmt::format("{} has {} houses", sp.name, ss.houses));
    if (ss.mortgaged && (ss.houses || ss.hotel))
      bad.push_back(fmt::format("{} is mortgaged with buildings", sp.name));
  }
  // The engine's sets of each player's lots say what the board says.
  if (owned_lots_.size() != st.players.size()) {
    bad.push_back("the sets of owned lots are not one per player");
  } else {
    for (PlayerId p : st.players.ids())
      for (SpaceId s : st.spaces.ids())
        if (owned_lots_[p].contains(s) != (st.spaces[s].owner == p))
          bad.push_back(fmt::format("{}'s set of lots {} {}, but the board says otherwise",
                                    st.players[p].name, owned_lots_[p].contains(s) ? "holds" : "lacks",
                                    ed.spaces[s].name));
  }
  for (SpaceId s : st.spaces.ids())
    if (mortgaged_lots_.contains(s) != st.spaces[s].mortgaged)
      bad.push_back(fmt::format("the set of mortgaged lots {} {}, but the board says otherwise",
                                mortgaged_lots_.contains(s) ? "holds" : "lacks", ed.spaces[s].name));
  if (houses != rules_.houses)
    bad.push_back(fmt::format("houses: {} counted, supply {}", houses, rules_.houses));
  if (hotels != rules_.hotels)
    bad.push_back(fmt::format("hotels: {} counted, supply {}", hotels, rules_.hotels));
  if (st.bank_houses < 0 || st.bank_hotels < 0)
    bad.push_back("the bank holds a negative number of buildings");
  // Even building, and buildings only where the whole group is owned and unmortgaged.
  if (rules_.even_building && rules_.build_needs_group) {
    for (const auto& grp : ed.groups) {
      const auto& members = ed.members_of(static_cast<int>(&grp - ed.groups.data()));
      if (members.empty()) continue;
      int lo = 1000, hi = -1;
      const std::optional<PlayerId> owner = st.spaces[members[0]].owner;
      bool whole = true, any_mortgaged = false;
      for (SpaceId m : members) {
        int lvl = st.spaces[m].hotel ? rules_.max_houses + 1 : st.spaces[m].houses;
        if (st.spaces[m].hotel) lvl = std::max(lvl, rules_.houses_for_hotel + 1);
        lo = std::min(lo, st.spaces[m].hotel ? rules_.houses_for_hotel : lvl);
        hi = std::max(hi, st.spaces[m].hotel ? rules_.houses_for_hotel + 1 : lvl);
        whole = whole && st.spaces[m].owner == owner;
        any_mortgaged = any_mortgaged || st.spaces[m].mortgaged;
      }
      if (hi > 0 && (!whole || !owner))
        bad.push_back(fmt::format("buildings on the {} group without owning all of it", grp.name));
      if (hi > 0 && any_mortgaged)
        bad.push_back(fmt::format("buildings on the {} group while a lot is mortgaged", grp.name));
      if (hi - lo > 1 && !(hi == rules_.houses_for_hotel + 1 && lo >= rules_.houses_for_hotel))
        bad.push_back(fmt::format("the {} group is not built evenly", grp.name));
    }
  }
  // Every card is either in its deck or in exactly one player's hand.
  for (DeckId d : ed.decks.ids()) {
    int total = 0, held = 0;
    for (const auto& c : ed.decks[d].cards) total += c.copies;
    for (const auto& pl : st.players) held += pl.jail_cards[d];
    if (static_cast<int>(decks_[d.index()].size()) + held != total)
      bad.push_back(fmt::format("the {} deck has {} cards and players hold {}, of {}", ed.decks[d].name,
                                decks_[d.index()].size(), held, total));
  }
  for (const auto& f : st.free_rides)
    if (f.rides <= 0 || !seated(f.holder) || !seated(f.owner) || st.players[f.holder].bankrupt ||
        st.players[f.owner].bankrupt)
      bad.push_back("a free ride is held by or owed from a player out of the game");
  for (auto& v : finance::violations(ed, st)) bad.push_back(std::move(v));
  for (const auto& q : st.pending)
    if (!seated(q.player) || st.players[q.player].bankrupt)
      bad.push_back("a question is pending for a player out of the game");
  for (PlayerId w : st.winners)
    if (!seated(w)) bad.push_back("a winner is not a player of this game");
  if (st.winner != (st.winners.size() == 1 ? std::optional<PlayerId>{st.winners.front()} : std::nullopt))
    bad.push_back("the winner and the list of winners disagree");
  if (!st.ended && (!seated(st.current) || st.players[st.current].bankrupt))
    bad.push_back("the current player is not in the game");
  return bad;
}

std::uint64_t Game::signature() const {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  auto mix = [&](std::int64_t v) {
    for (int i = 0; i < 8; ++i) {
      h ^= static_cast<std::uint64_t>(v >> (i * 8)) & 0xff;
      h *= 0x100000001b3ULL;
    }
  };
  const GameState& st = state_;
  for (const auto& p : st.players) {
    mix(p.cash);
    mix(p.position.number());
    mix(p.in_jail);
    mix(p.cards());
    mix(p.bankrupt);
  }
  for (const auto& s : st.spaces) {
    mix(player_wire(s.owner));
    mix(s.houses);
    mix(s.hotel);
    mix(s.mortgaged);
    if (s.withdrawn) mix(0x57);  // FINANCE (1932) only, so the other editions' signatures stay as pinned
  }
  for (const auto& f : st.partnerships) {
    mix(f.holder.number());
    mix(f.partner.number());
    mix(f.group);
    mix(f.share_percent);
  }
  mix(st.bank_houses);
  mix(st.bank_hotels);
  mix(st.current.number());
  mix(st.turns);
  mix(st.ended);
  mix(player_wire(st.winner));
  if (st.winners.size() > 1)
    for (PlayerId w : st.winners) mix(w.number());  // a shared win; a single winner is already in `winner`
  for (PlayerId p : st.draft_picks)
    mix(p.number());  // only during a draft: other games' signatures are unchanged
  if (st.early_sale_turn >= 0) mix(st.early_sale_turn);  // only once a lease was sold early (FINANCE 1932)
  mix(static_cast<std::int64_t>(posting_count()));
  for (const auto& p : st.postings) {
    mix(p.from.wire());
    mix(p.to.wire());
    mix(p.amount);
    mix(static_cast<int>(p.memo));
  }
  return h;
}

}  // namespace bb::rules
