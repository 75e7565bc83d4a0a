#include "display/wording.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>

namespace bb::display {

using rules::Memo;
using rules::QuestionKind;

std::string Wording::money(const rules::Game& game, rules::Money amount) {
  return game.edition().format_money(amount);
}

std::string Wording::space_name(const rules::Game& game, std::optional<rules::SpaceId> space) {
  const auto& spaces = game.edition().spaces;
  if (!space || space->number() < 0 || space->index() >= spaces.size()) return "?";
  return spaces[*space].name;
}

std::string Wording::game_over(const rules::Game& game) {
  const auto& winners = game.state().winners;
  if (winners.empty()) return "Game over";
  if (winners.size() == 1) return fmt::format("Game over: {} wins!", game.account_name(winners.front()));
  std::string names;
  for (std::size_t i = 0; i < winners.size(); ++i)
    names += (i == 0 ? "" : i + 1 == winners.size() ? " and " : ", ") + game.account_name(winners[i]);
  return fmt::format("Game over: a tie between {}!", names);
}

std::string Wording::standing(const rules::Game& game, rules::PlayerId player) {
  const auto& st = game.state();
  if (std::find(st.winners.begin(), st.winners.end(), player) != st.winners.end())
    return st.winners.size() > 1 ? "tie" : "winner";
  if (player.index() < st.players.size() && st.players[player].bankrupt) return "bankrupt";
  return "";
}

std::string Wording::buildings(const rules::Game& game, int houses, bool hotel) {
  const auto& words = game.edition().words;
  return hotel ? words.hotel : words.count_houses(houses);
}

std::string Wording::sale_question(const rules::Game& game, const rules::SalePlan& plan) {
  const std::string who = game.account_name(plan.player);
  const std::string lot = space_name(game, plan.space);
  const std::string total = money(game, plan.total);
  if (plan.changes_other_lots()) {
    const auto& sp = game.edition().spaces[plan.space];
    const auto* group = game.edition().group(sp.group);
    return fmt::format("{}: the bank has too few {}. Sell the {} {} at once, for {}?", who,
                       game.edition().words.houses, group ? group->name : std::string("group's"),
                       game.edition().words.hotels, total);
  }
  if (plan.lots.size() == 1 && plan.lots.front().hotel_before)
    return fmt::format("{}: sell the {} on {} to the bank for {}? It comes down to {}.", who,
                       game.edition().words.hotel, lot, total,
                       buildings(game, plan.lots.front().houses_after, false));
  return fmt::format("{}: sell a {} on {} to the bank for {}?", who, game.edition().words.house, lot, total);
}

std::vector<std::string> Wording::sale_lines(const rules::Game& game, const rules::SalePlan& plan) {
  std::vector<std::string> lines;
  if (!plan.changes_other_lots()) return lines;
  for (const auto& lot : plan.lots)
    lines.push_back(fmt::format("{}: {} \u2192 {}, {}", space_name(game, lot.space),
                                buildings(game, lot.houses_before, lot.hotel_before),
                                buildings(game, lot.houses_after, false), money(game, lot.refund)));
  lines.push_back(
      fmt::format("{} receives {} in all", game.account_name(plan.player), money(game, plan.total)));
  return lines;
}

std::string Wording::posting(const rules::Game& game, const rules::Posting& p) {
  const std::string from = p.from.is_bank() ? "the bank" : game.account_name(p.from);
  const std::string to = p.to.is_bank() ? "the bank" : game.account_name(p.to);
  const std::string amount = money(game, p.amount);
  const std::string space = p.space ? space_name(game, p.space) : std::string{};
  auto cap = [](std::string s) {
    if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
    return s;
  };
  switch (p.memo) {
    case Memo::start_cash:
      return fmt::format("{} got {} to start", to, amount);
    case Memo::salary:
      return fmt::format("{} collected {} salary", to, amount);
    case Memo::buy:
      return fmt::format("{} bought {} for {}", from, space, amount);
    case Memo::auction:
      return fmt::format("{} won {} at auction for {}", from, space, amount);
    case Memo::rent:
      return space.empty() ? fmt::format("{} paid {} {} rent", from, to, amount)
                           : fmt::format("{} paid {} {} rent for {}", from, to, amount, space);
    case Memo::tax:
      return fmt::format("{} paid {} {}", from, amount, space.empty() ? "tax" : space);
    case Memo::jail_fine:
      return fmt::format("{} paid {} to get out of {}", from, amount, game.edition().words.jail);
    case Memo::build:
      return fmt::format("{} built on {} for {}", from, space, amount);
    case Memo::sell_building:
      return fmt::format("{} sold a building on {} for {}", to, space, amount);
    case Memo::mortgage:
      return fmt::format("{} mortgaged {} for {}", to, space, amount);
    case Memo::unmortgage:
      return fmt::format("{} lifted the mortgage on {} for {}", from, space, amount);
    case Memo::interest:
      return fmt::format("{} paid {} interest on {}", from, amount, space);
    case Memo::trade:
      return fmt::format("{} paid {} {} in a trade", cap(from), to, amount);
    case Memo::bankruptcy:
      return fmt::format("{} went bankrupt: {} to {}", cap(from), amount, to);
    case Memo::undo:
      return fmt::format("Undo: {} back from {} to {}", amount, from, to);
    case Memo::adopt:
      return fmt::format("Set up: {} from {} to {}", amount, from, to);
    case Memo::card: {
      std::string what = "a card";
      for (const auto& deck : game.edition().decks)
        for (const auto& card : deck.cards)
          if (card.id == p.card) {
            std::string title = card.id;
            for (auto& c : title)
              if (c == '_') c = ' ';
            what = fmt::format("{}: {}", deck.name, title);
          }
      if (p.from.is_bank()) return fmt::format("{} collected {} ({})", to, amount, what);
      if (p.to.is_bank()) return fmt::format("{} paid {} ({})", cap(from), amount, what);
      return fmt::format("{} paid {} {} ({})", cap(from), to, amount, what);
    }
    default:
      break;
  }
  if (p.from.is_bank()) return fmt::format("The bank paid {} {} ({})", to, amount, game.memo_text(p));
  if (p.to.is_bank()) return fmt::format("{} paid {} ({})", cap(from), amount, game.memo_text(p));
  return fmt::format("{} paid {} {} ({})", cap(from), to, amount, game.memo_text(p));
}

std::string Wording::question(const rules::Game& game, const rules::Question& q) {
  const std::string who = game.account_name(q.player);
  switch (q.kind) {
    case QuestionKind::buy:
      return fmt::format("{}: buy {} for {}?", who, space_name(game, q.space), money(game, q.amount));
    case QuestionKind::tax:
      return fmt::format("{}: pay {} or {}% of your worth?", who, money(game, q.amount), q.percent);
    case QuestionKind::jail:
      // FINANCE (1932)'s three throws of a house owner: the throw just made, to use or to throw again.
      if (std::any_of(q.options.begin(), q.options.end(),
                      [](const rules::QuestionOption& o) { return o.answer == rules::Answer::use_throw; }))
        return fmt::format("{} threw {}: come out of {} with it, or throw again?", who, q.amount,
                           game.edition().words.jail);
      return fmt::format("{} is in {}. How do you get out?", who, game.edition().words.jail);
    case QuestionKind::mortgaged_transfer:
      return fmt::format("{} received {}, mortgaged. Lift the mortgage now?", who, space_name(game, q.space));
    case QuestionKind::debt:
      return fmt::format("{} owes {} {}{}. Raise money or go bankrupt.", who,
                         q.creditor.is_bank() ? std::string("the bank") : game.account_name(q.creditor),
                         money(game, q.amount), q.reason.empty() ? std::string{} : " (" + q.reason + ")");
    case QuestionKind::draw: {
      return fmt::format("{}: draw a {} card", who, game.edition().decks[*q.deck].name);
    }
    case QuestionKind::roll:
      return fmt::format("{}: throw the dice{}", who, q.reason.empty() ? "" : " (" + q.reason + ")");
    case QuestionKind::draft:
      return fmt::format("{}: choose a set of title deeds (free)", who);
  }
  return who;
}

std::string Wording::option(const rules::Game& game, const rules::Question& q,
                            const rules::QuestionOption& option) {
  using rules::Answer;
  switch (option.answer) {
    case Answer::buy:
      return "Buy";
    case Answer::auction:
      return "Auction";
    case Answer::pay_fixed:
      return "Pay " + money(game, q.amount);
    case Answer::pay_percent:
      return fmt::format("Pay {}%", q.percent);
    case Answer::pay_fine:
      return "Pay " + money(game, q.amount);
    case Answer::use_card:
      return "Use card";
    case Answer::roll:
      return "Roll";
    case Answer::lift:
      return "Lift now";
    case Answer::keep:
      return "Keep it";
    case Answer::use_throw:
      return fmt::format("Use the {}", q.amount);
    case Answer::throw_again:
      return "Throw again";
    case Answer::take_set: {
      // A set of the draft: the group's name and its deeds ("Cunard: Queen Mary, Queen Elizabeth").
      const auto& ed = game.edition();
      if (option.group < 0 || option.group >= static_cast<int>(ed.groups.size())) break;
      std::string deeds;
      for (rules::SpaceId s : ed.members_of(option.group))
        deeds += (deeds.empty() ? "" : ", ") + ed.spaces[s].name;
      return fmt::format("{}: {}", ed.groups[static_cast<std::size_t>(option.group)].name, deeds);
    }
  }
  return std::string(game.option_name(option));
}

std::string Wording::count(long long n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  for (auto at = static_cast<std::ptrdiff_t>(digits.size()) - 3; at > 0; at -= 3)
    digits.insert(static_cast<std::size_t>(at), ",");
  return n < 0 ? "-" + digits : digits;
}

}  // namespace bb::display
