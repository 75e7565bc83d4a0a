#include "rules/finance_1932.h"

#include <fmt/format.h>

#include <algorithm>

namespace bb::rules::finance {

namespace {

bool shares_income(const Edition& ed, int group) {
  if (group < 0 || group >= static_cast<int>(ed.groups.size())) return false;
  // "Two players cannot share income on any other properties": only the railroads and the power companies.
  const auto& members = ed.members_of(group);
  return !members.empty() && std::all_of(members.begin(), members.end(), [&](SpaceId s) {
    auto kind = ed.spaces[s].kind;
    return kind == Space::Kind::railroad || kind == Space::Kind::utility;
  });
}

bool owns_buildings(const GameState& st, PlayerId player) {
  return std::any_of(st.spaces.begin(), st.spaces.end(),
                     [&](const SpaceState& ss) { return ss.owner == player && (ss.houses > 0 || ss.hotel); });
}

bool valid_player(const GameState& st, PlayerId p) {
  return p.number() >= 0 && p.index() < st.players.size() && !st.players[p].bankrupt;
}

}  // namespace

std::vector<const GameState::Partnership*> partnerships_of_lease(const Edition& ed, const GameState& st,
                                                                 SpaceId space) {
  std::vector<const GameState::Partnership*> found;
  if (space.number() < 0 || space.index() >= st.spaces.size()) return found;
  int group = ed.spaces[space].group_index;
  const std::optional<PlayerId> owner = st.spaces[space].owner;
  for (const auto& p : st.partnerships)
    if (p.group == group && p.holder == owner) found.push_back(&p);
  return found;
}

bool lease_in_partnership(const Edition& ed, const GameState& st, SpaceId space) {
  return !partnerships_of_lease(ed, st, space).empty();
}

std::optional<std::string> why_not_partner(const Edition& ed, const Rules& r, const GameState& st,
                                           const Partner& in) {
  if (!r.partnerships) return "this edition has no partnerships";
  if (st.ended) return "the game has ended";
  if (!valid_player(st, in.holder) || !valid_player(st, in.partner))
    return "both partners must be in the game";
  if (in.holder == in.partner) return "a partnership needs two players";
  if (!shares_income(ed, in.group))
    return "only the railroads and the power companies can be shared: two players cannot share income on any "
           "other properties";
  if (in.share_percent < 1 || in.share_percent > 100)
    return fmt::format("the partner's share must be 1 to 100 percent of the income, not {}",
                       in.share_percent);
  const std::string& holder = st.players[in.holder].name;
  const std::string& partner = st.players[in.partner].name;
  for (const auto& q : st.pending)
    if (q.kind == QuestionKind::debt && (q.player == in.holder || q.player == in.partner))
      return fmt::format("{} must settle their debt first", st.players[q.player].name);
  const auto& members = ed.members_of(in.group);
  int held = 0, handed = 0;
  for (SpaceId s : members) {
    const SpaceState& ss = st.spaces[s];
    if (ss.owner == in.holder) ++held;
    if (ss.owner == in.partner) {
      ++handed;
      if (ss.mortgaged)
        return fmt::format("{} is mortgaged: {} redeems it before handing it over", ed.spaces[s].name,
                           partner);
    }
  }
  const std::string& group = ed.groups[static_cast<std::size_t>(in.group)].name;
  if (held == 0) return fmt::format("{} holds no lease of the {}: the holder must own one", holder, group);
  if (handed == 0) return fmt::format("{} owns no lease of the {} to hand over", partner, group);
  for (const auto& p : st.partnerships)
    if (p.group == in.group && p.holder == in.partner)
      return fmt::format("{} already holds the {} for a partnership: the leases cannot change hands again",
                         partner, group);
  for (const auto& p : st.partnerships)
    if (p.group == in.group && p.holder != in.holder)
      return fmt::format(
          "{} already holds the {} of a partnership: one player must actually hold all the leases",
          st.players[p.holder].name, group);
  int shared = in.share_percent;
  for (const auto& p : st.partnerships)
    if (p.group == in.group && p.holder == in.holder && p.partner != in.partner) shared += p.share_percent;
  if (shared > 100)
    return fmt::format("the partners' shares of the {} would come to {} percent, more than the whole income",
                       group, shared);
  return std::nullopt;
}

std::optional<std::string> why_not_acquire(const Edition& ed, const Rules& r, const GameState& st,
                                           PlayerId player, SpaceId space) {
  if (!r.house_owner_buys_in_series_only || !owns_buildings(st, player)) return std::nullopt;
  const Space& sp = ed.spaces[space];
  if (sp.group_index < 0) return std::nullopt;
  for (SpaceId s : ed.members_of(sp.group_index))
    if (st.spaces[s].owner == player) return std::nullopt;
  // A lot of the same series in the same trade does not count: he must "already own" one.
  return fmt::format(
      "{} owns houses, and a house owner buys only property of a series he already owns a lot of "
      "({} is in {})",
      st.players[player].name, sp.name, ed.groups[static_cast<std::size_t>(sp.group_index)].name);
}

Fate fate_of_lease(const Edition& ed, const Rules& r, const GameState& st, PlayerId bankrupt_player,
                   SpaceId space) {
  const Space& sp = ed.spaces[space];
  for (const auto& p : st.partnerships) {
    if (p.group != sp.group_index) continue;
    // "If the holding owner is put out, all the leases go with him."
    if (p.holder == bankrupt_player) return Fate::withdrawn;
  }
  if (!r.withdraw_only_complete_series) return Fate::withdrawn;
  // SOMETIMES: "only his completed series are withdrawn from the game. His odd property is auctioned again".
  const auto& members = ed.members_of(sp.group_index);
  bool complete = std::all_of(members.begin(), members.end(),
                              [&](SpaceId s) { return st.spaces[s].owner == bankrupt_player; });
  return complete ? Fate::withdrawn : Fate::auctioned;
}

std::optional<int> series_piece(const Edition& ed, const Rules& r, const GameState& st, SpaceId space) {
  if (!r.announce_series_piece) return std::nullopt;
  const int group = ed.spaces[space].group_index;
  if (group < 0) return std::nullopt;
  int sold = 0;
  for (SpaceId s : ed.members_of(group)) {
    const SpaceState& ss = st.spaces[s];
    if (s != space && (ss.owner || ss.withdrawn)) ++sold;
  }
  return sold + 1;
}

std::string piece_words(const Edition& ed, SpaceId space, int piece) {
  const int group = ed.spaces[space].group_index;
  const char* suffix = piece % 100 / 10 == 1 ? "th"
                       : piece % 10 == 1     ? "st"
                       : piece % 10 == 2     ? "nd"
                       : piece % 10 == 3     ? "rd"
                                             : "th";
  return fmt::format("the {}{} piece in {}", piece, suffix,
                     group < 0 ? std::string("its series") : ed.groups[static_cast<std::size_t>(group)].name);
}

std::vector<std::string> violations(const Edition& ed, const GameState& st) {
  std::vector<std::string> bad;
  for (std::size_t s = 0; s < st.spaces.size(); ++s) {
    const SpaceState& ss = st.spaces[s];
    if (ss.withdrawn && (ss.owner || ss.houses > 0 || ss.hotel || ss.mortgaged))
      bad.push_back(fmt::format("{} left the game but is owned, built on or mortgaged", ed.spaces[s].name));
  }
  for (const auto& p : st.partnerships) {
    if (!valid_player(st, p.holder) || !valid_player(st, p.partner) || p.holder == p.partner) {
      bad.push_back("a partnership names a player out of the game");
      continue;
    }
    if (!shares_income(ed, p.group)) {
      bad.push_back("a partnership shares a group that is not railroads or power companies");
      continue;
    }
    if (p.share_percent < 1 || p.share_percent > 100)
      bad.push_back("a partner's share is not 1 to 100 percent");
    const auto& members = ed.members_of(p.group);
    if (std::none_of(members.begin(), members.end(),
                     [&](SpaceId s) { return st.spaces[s].owner == p.holder; }))
      bad.push_back("a partnership's holder holds none of its leases");
    int total = 0;
    for (const auto& o : st.partnerships)
      if (o.group == p.group && o.holder == p.holder) total += o.share_percent;
    if (total > 100) bad.push_back("the partners' shares come to more than the whole income");
    for (const auto& o : st.partnerships)
      if (o.group == p.group && o.holder == p.partner)
        bad.push_back("a partner also holds leases of the group");
  }
  return bad;
}

}  // namespace bb::rules::finance
