// Engine: building, selling buildings back, mortgages, and their refusals as values.
#include "rules/engine.h"

namespace bb::rules {

template <class GroupFacts>
std::optional<Refusal::Kind> Engine::build_refusal(PlayerId p, SpaceId s, bool want_hotel,
                                                   GroupFacts&& group_facts) const {
  // Each check is a refusal whatever its order; the order only picks the refusal named when several apply,
  // and is the order the screens have always named them in. The lot's own checks come before its group's
  // facts are asked for, so a caller asking about several lots works a group's facts out only for a lot
  // that passes them.
  const SpaceState& ss = st.spaces[s];
  if (ss.owner != p) return RK::not_owner;
  if (ss.mortgaged) return RK::mortgaged_lift_first;
  if (r.build_needs_circuit && !st.players[p].passed_start) return RK::needs_circuit;
  const GroupBuildFacts& group = group_facts();
  if (!group.whole) return RK::needs_whole_group;
  if (group.lot_mortgaged) return RK::group_lot_mortgaged;
  if (ss.hotel) return RK::has_hotel;
  const bool hotel =
      r.hotels_enabled && (ss.houses == r.max_houses || (want_hotel && ss.houses >= r.houses_for_hotel));
  if (want_hotel && !hotel) return RK::needs_houses_for_hotel;
  if (!hotel && ss.houses >= r.max_houses) return RK::most_houses;
  if (r.even_building && r.build_needs_group) {
    if (hotel && !group.ready_for_hotels) return RK::uneven_hotel;
    if (!hotel && group.lowest_level < ss.houses) return RK::uneven_houses;
  }
  const int credits = hotel ? st.hotel_credits[p] : st.house_credits[p];
  if (credits == 0) {
    if (hotel && st.bank_hotels == 0) return RK::bank_out_of_hotels;
    if (!hotel && st.bank_houses == 0) return RK::bank_out_of_houses;
    if (st.players[p].cash < ed.spaces[s].house_cost) return RK::cash_short_to_build;
  }
  return std::nullopt;
}

std::optional<Refusal> Engine::refuse_build(PlayerId p, SpaceId s, bool want_hotel) const {
  if (!active(p)) return refuse(RK::not_in_game, p);
  const Space& sp = ed.spaces[s];
  if (sp.kind != Space::Kind::property) return refuse(RK::cannot_have_buildings, p, s);
  GroupBuildFacts group;
  const std::optional<RK> no = build_refusal(p, s, want_hotel, [&]() -> const GroupBuildFacts& {
    return group = group_build_facts(p, sp.group_index);
  });
  if (!no) return std::nullopt;
  // The other lot named: the first of the group that makes the refusal (the facts say only that there is
  // one).
  auto first_member = [&](auto&& wanted) -> std::optional<SpaceId> {
    for (SpaceId m : ed.members_of(sp.group_index))
      if (wanted(st.spaces[m], m)) return m;
    return std::nullopt;
  };
  switch (*no) {
    case RK::group_lot_mortgaged:
      return refuse(*no, p, s, first_member([](const SpaceState& ms, SpaceId) { return ms.mortgaged; }));
    case RK::uneven_hotel:
      return refuse(*no, p, s, first_member([&](const SpaceState& ms, SpaceId) {
        return !ms.hotel && ms.houses < r.houses_for_hotel;
      }));
    case RK::uneven_houses:
      return refuse(*no, p, s, first_member([&](const SpaceState&, SpaceId m) {
        return level(m) < st.spaces[s].houses;
      }));
    default:
      return refuse(*no, p, s);
  }
}

std::optional<SpaceId> Engine::first_lot_to_build(PlayerId p, const SpaceSet& among, Money budget) const {
  // build_refusal's answer for each lot, with a group's facts worked out once for the group's lots that come
  // one after another in `among` instead of once a lot. A lot with a hotel is refused whatever else
  // build_refusal would name first, so it is passed over before its group is looked at (in a late game most
  // of a bot's whole groups carry hotels).
  if (!active(p)) return std::nullopt;
  int group = -1;  // the group `facts` are about
  GroupBuildFacts facts;
  return among.find_first([&](SpaceId s) {
    const Space& sp = ed.spaces[s];
    if (sp.house_cost > budget || sp.kind != Space::Kind::property || st.spaces[s].hotel) return false;
    return !build_refusal(p, s, false, [&]() -> const GroupBuildFacts& {
      if (sp.group_index != group) {
        group = sp.group_index;
        facts = group_build_facts(p, group);
      }
      return facts;
    });
  });
}

std::string Engine::explain(const Refusal& no) const {
  const Words& w = ed.words;
  // Each kind names the player, the space and the other lot it needs (refusal.h); a kind without one never
  // reads it.
  const PlayerId p = no.player.value_or(PlayerId{0});
  const SpaceId s = no.space.value_or(SpaceId{0}), m = no.other.value_or(SpaceId{0});
  switch (no.kind) {
    case RK::no_such_player:
      return "no such player";
    case RK::no_such_space:
      return fmt::format("space {} does not exist: the board has spaces 0 to {}", s.number(),
                         board_size() - 1);
    case RK::not_in_game:
      return fmt::format("{} is not in the game", name(p));
    case RK::bankrupt:
      return fmt::format("{} is bankrupt and out of the game", name(p));
    case RK::cannot_have_buildings:
      return fmt::format("{} cannot have buildings", space_name(s));
    case RK::not_owner:
      return fmt::format("{} does not own {}", name(p), space_name(s));
    case RK::mortgaged_lift_first:
      return fmt::format("{} is mortgaged: lift the mortgage first", space_name(s));
    case RK::needs_circuit:
      return fmt::format("{} must go once round the board before building", name(p));
    case RK::needs_whole_group:
      return fmt::format("{} needs the whole {} group to build", name(p), ed.group(ed.spaces[s].group)->name);
    case RK::group_lot_mortgaged:
      return fmt::format("{} is mortgaged: no building in its group", space_name(m));
    case RK::has_hotel:
      return fmt::format("{} already has a {}", space_name(s), w.hotel);
    case RK::needs_houses_for_hotel:
      return fmt::format("{} needs {} {} before a {}", space_name(s),
                         r.hotels_enabled ? r.houses_for_hotel : 0, w.houses, w.hotel);
    case RK::most_houses:
      return fmt::format("{} has the most {} allowed", space_name(s), w.houses);
    case RK::uneven_hotel:
      return fmt::format("build evenly: {} needs {} {} before a {} on {}", space_name(m), r.houses_for_hotel,
                         w.houses, w.hotel, space_name(s));
    case RK::uneven_houses:
      return fmt::format("build evenly: {} has fewer {}", space_name(m), w.houses);
    case RK::bank_out_of_hotels:
      return fmt::format("the bank has no {} left: wait until one is sold back", w.hotels);
    case RK::bank_out_of_houses:
      return fmt::format("the bank has no {} left: wait until some are sold back", w.houses);
    case RK::cash_short_to_build:
      return fmt::format("{} has {} and a building on {} costs {}", name(p), money(st.players[p].cash),
                         space_name(s), money(ed.spaces[s].house_cost));
    case RK::nothing_to_sell:
      return fmt::format("{} has no buildings to sell", space_name(s));
    case RK::sell_evenly:
      return fmt::format("sell evenly: {} has more buildings", space_name(m));
    case RK::hotel_needs_bank_houses:
      return fmt::format(
          "the bank has {} and the hotel on {} comes down to {} houses: wait until the bank has them (this "
          "edition sells a hotel only for its houses)",
          st.bank_houses == 0   ? std::string("no houses")
          : st.bank_houses == 1 ? std::string("1 house")
                                : fmt::format("{} houses", st.bank_houses),
          space_name(s), std::min(r.houses_for_hotel, r.max_houses));
    case RK::no_mortgages:
      return "this edition has no mortgages: sell to the bank or another player instead";
    case RK::cannot_mortgage:
      return fmt::format("{} cannot be mortgaged", space_name(s));
    case RK::already_mortgaged:
      return fmt::format("{} is already mortgaged", space_name(s));
    case RK::group_has_buildings:
      return fmt::format("sell the buildings on the {} group first", ed.group(ed.spaces[s].group)->name);
    case RK::not_mortgaged:
      return fmt::format("{} is not mortgaged", space_name(s));
    case RK::cash_short_to_lift:
      return fmt::format("lifting the mortgage on {} costs {} and {} has {}", space_name(s),
                         money(ed.spaces[s].mortgage + interest(s)), name(p), money(st.players[p].cash));
  }
  return "not allowed";
}

void Engine::build(PlayerId p, SpaceId s, bool want_hotel) {
  SpaceState& ss = st.spaces[s];
  bool hotel =
      r.hotels_enabled && (ss.houses == r.max_houses || (want_hotel && ss.houses >= r.houses_for_hotel));
  int& credits = hotel ? st.hotel_credits[p] : st.house_credits[p];
  if (credits > 0) {
    --credits;  // bought at a shortage auction: already paid and taken from the bank
  } else {
    post(p, Account::bank(), ed.spaces[s].house_cost, Memo::build, s);
    if (hotel)
      --st.bank_hotels;
    else
      --st.bank_houses;
  }
  if (hotel) {
    st.bank_houses += ss.houses;
    ss.houses = 0;
    ss.hotel = true;
  } else {
    ++ss.houses;
  }
  event([&] {
    return Event{.kind = Event::Kind::built,
                 .player = p,
                 .space = s,
                 .piece = hotel ? Event::Piece::hotel : Event::Piece::house};
  });
}

std::optional<Refusal> Engine::refuse_sell(PlayerId p, SpaceId s) const {
  if (!active(p)) return refuse(RK::not_in_game, p);
  const SpaceState& ss = st.spaces[s];
  if (ss.owner != p) return refuse(RK::not_owner, p, s);
  if (ss.houses == 0 && !ss.hotel && !lot_goes_with_sale(s)) return refuse(RK::nothing_to_sell, p, s);
  if (r.even_building && !ss.hotel)
    for (SpaceId m : ed.members_of(ed.spaces[s].group_index))
      if (level(m) > ss.houses) return refuse(RK::sell_evenly, p, s, m);
  if (ss.hotel && r.hotel_sale_needs_houses && !lot_goes_with_sale(s) &&
      st.bank_houses < std::min(r.houses_for_hotel, r.max_houses))
    return refuse(RK::hotel_needs_bank_houses, p, s);
  return std::nullopt;
}

std::expected<SalePlan, std::string> Engine::sale_plan(PlayerId p, SpaceId s) const {
  if (auto no = refuse_sell(p, s)) return Fail(explain(*no));
  const SpaceState& ss = st.spaces[s];
  const bool lot_goes = lot_goes_with_sale(s);
  const auto& members = ed.members_of(ed.spaces[s].group_index);
  if (lot_goes) {
    // FINANCE (Parker): the bank buys the house and lot back together for half the printed value.
    SalePlan plan;
    plan.player = p;
    plan.space = s;
    plan.bank_houses_before = st.bank_houses;
    plan.bank_houses_after = st.bank_houses + ss.houses;
    plan.total = g.lot_value(s) / 2;
    plan.lots.push_back(LotSale{s, ss.houses, false, 0, plan.total, true});
    return plan;
  }
  Money half = ed.spaces[s].house_cost / 2;
  SalePlan plan;
  plan.player = p;
  plan.space = s;
  plan.bank_houses_before = plan.bank_houses_after = st.bank_houses;
  auto add = [&](SpaceId lot, int houses_after, Money refund) {
    const SpaceState& ls = st.spaces[lot];
    plan.lots.push_back(LotSale{lot, ls.houses, ls.hotel, houses_after, refund});
    plan.total += refund;
    plan.bank_houses_after += ls.houses - houses_after;
  };
  if (!ss.hotel) {
    add(s, ss.houses - 1, half);
    return plan;
  }
  int replace = std::min(r.houses_for_hotel, r.max_houses);
  if (st.bank_houses >= replace) {
    add(s, replace, half);
    return plan;
  }
  assert(!r.hotel_sale_needs_houses);  // refuse_sell refused it
  if (!r.even_building) {
    int keep = st.bank_houses;
    add(s, keep, (r.houses_for_hotel + 1 - keep) * half);
    return plan;
  }
  // The bank's houses go to the former hotel lots as evenly as they can, one more on the chosen lot
  // first; lots without a hotel keep at most one house more than the lowest of those.
  int hotels = 0;
  for (SpaceId m : members) hotels += st.spaces[m].owner == p && st.spaces[m].hotel ? 1 : 0;
  int base = st.bank_houses / hotels, extra = st.bank_houses % hotels;
  std::vector<SpaceId> order = {s};
  for (SpaceId m : members)
    if (m != s) order.push_back(m);
  for (SpaceId m : order) {
    const SpaceState& ms = st.spaces[m];
    if (ms.owner != p) continue;
    Money lot_half = ed.spaces[m].house_cost / 2;
    if (ms.hotel) {
      int houses = base + (extra > 0 ? 1 : 0);
      extra -= extra > 0 ? 1 : 0;
      add(m, houses, (r.houses_for_hotel + 1 - houses) * lot_half);
    } else if (ms.houses > base + 1) {
      add(m, base + 1, (ms.houses - (base + 1)) * lot_half);
    }
  }
  return plan;
}

void Engine::sell(PlayerId p, SpaceId s, const SalePlan& plan) {
  bool group_sale =
      plan.lots.size() > 1 ||
      (st.spaces[s].hotel && plan.lots[0].houses_after != std::min(r.houses_for_hotel, r.max_houses));
  for (const LotSale& lot : plan.lots) {
    SpaceState& ls = st.spaces[lot.space];
    if (lot.lot_to_bank) {
      st.bank_houses += ls.houses;
      return_to_bank(lot.space);
      post(Account::bank(), p, lot.refund, Memo::sell_building, lot.space);
      event([&] {
        return Event{
            .kind = Event::Kind::sold, .player = p, .space = lot.space, .piece = Event::Piece::lot_to_bank};
      });
      continue;
    }
    if (ls.hotel) {
      ls.hotel = false;
      ++st.bank_hotels;
      st.bank_houses -= lot.houses_after;
    } else {
      st.bank_houses += ls.houses - lot.houses_after;
    }
    ls.houses = lot.houses_after;
    post(Account::bank(), p, lot.refund, Memo::sell_building, lot.space);
    if (group_sale)
      event([&] {
        return Event{.kind = Event::Kind::sold,
                     .player = p,
                     .space = lot.space,
                     .houses_left = lot.houses_after,
                     .piece = Event::Piece::group_sale_lot,
                     .had_hotel = lot.hotel_before};
      });
    else
      event([&] {
        return Event{.kind = Event::Kind::sold,
                     .player = p,
                     .space = lot.space,
                     .houses_left = lot.houses_after,
                     .piece = lot.hotel_before ? Event::Piece::hotel : Event::Piece::house};
      });
  }
}

}  // namespace bb::rules
