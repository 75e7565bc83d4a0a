#include "ledger/names.h"

#include <array>
#include <nlohmann/json.hpp>

namespace bb::ledger {

namespace {
using rules::Memo;
constexpr std::array<std::pair<Memo, std::string_view>, 25> kMemos = {{
    {Memo::start_cash, "start_cash"},
    {Memo::salary, "salary"},
    {Memo::buy, "buy"},
    {Memo::auction, "auction"},
    {Memo::rent, "rent"},
    {Memo::tax, "tax"},
    {Memo::card, "card"},
    {Memo::jail_fine, "jail_fine"},
    {Memo::build, "build"},
    {Memo::sell_building, "sell_building"},
    {Memo::mortgage, "mortgage"},
    {Memo::unmortgage, "unmortgage"},
    {Memo::interest, "interest"},
    {Memo::trade, "trade"},
    {Memo::bankruptcy, "bankruptcy"},
    {Memo::adopt, "adopt"},
    {Memo::undo, "undo"},
    {Memo::fare, "fare"},
    {Memo::sweepstakes, "sweepstakes"},
    {Memo::insurance, "insurance"},
    {Memo::space, "space"},
    {Memo::deal, "deal"},
    {Memo::seat, "seat"},
    {Memo::house_rule, "house_rule"},
    {Memo::partnership, "partnership"},
}};

using Kind = rules::Event::Kind;
constexpr std::array<std::pair<Kind, std::string_view>, 27> kEvents = {{
    {Kind::moved, "moved"},
    {Kind::jailed, "jailed"},
    {Kind::released, "released"},
    {Kind::card_drawn, "card_drawn"},
    {Kind::bought, "bought"},
    {Kind::auction_started, "auction_started"},
    {Kind::auction_won, "auction_won"},
    {Kind::auction_unsold, "auction_unsold"},
    {Kind::built, "built"},
    {Kind::sold, "sold"},
    {Kind::mortgaged, "mortgaged"},
    {Kind::unmortgaged, "unmortgaged"},
    {Kind::traded, "traded"},
    {Kind::bankrupt, "bankrupt"},
    {Kind::game_over, "game_over"},
    {Kind::turn, "turn"},
    {Kind::undone, "undone"},
    {Kind::three_doubles, "three_doubles"},
    {Kind::stays_in_jail, "stays_in_jail"},
    {Kind::insured, "insured"},
    {Kind::adopted, "adopted"},
    // Stored as "unknown" before 25 November 2026 (and so left out when read back); an older build reads
    // these names as unknown too.
    {Kind::free_ride, "free_ride"},
    {Kind::salary_earned, "salary_earned"},
    {Kind::salary_forfeit, "salary_forfeit"},
    {Kind::drafted, "drafted"},
    {Kind::partnership, "partnership"},
    {Kind::withdrawn, "withdrawn"},
}};

}  // namespace

std::string_view Names::memo(Memo memo) {
  for (const auto& [value, name] : kMemos)
    if (value == memo) return name;
  return "unknown";
}

std::optional<Memo> Names::memo_from(std::string_view name) {
  for (const auto& [value, text] : kMemos)
    if (text == name) return value;
  return std::nullopt;
}

std::string_view Names::event(Kind kind) {
  for (const auto& [value, name] : kEvents)
    if (value == kind) return name;
  return "unknown";
}

std::optional<Kind> Names::event_from(std::string_view name) {
  for (const auto& [value, text] : kEvents)
    if (text == name) return value;
  return std::nullopt;
}

std::string Names::input_kind(std::string_view script_line) {
  auto line = nlohmann::json::parse(script_line, nullptr, false);
  if (line.is_discarded() || !line.is_object() || !line.contains("t") || !line["t"].is_string())
    return "unknown";
  return line["t"].get<std::string>();
}

}  // namespace bb::ledger
