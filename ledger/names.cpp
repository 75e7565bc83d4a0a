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

using EventKind = rules::Event::Kind;
constexpr std::array<std::pair<EventKind, std::string_view>, 27> kEvents = {{
    {EventKind::moved, "moved"},
    {EventKind::jailed, "jailed"},
    {EventKind::released, "released"},
    {EventKind::card_drawn, "card_drawn"},
    {EventKind::bought, "bought"},
    {EventKind::auction_started, "auction_started"},
    {EventKind::auction_won, "auction_won"},
    {EventKind::auction_unsold, "auction_unsold"},
    {EventKind::built, "built"},
    {EventKind::sold, "sold"},
    {EventKind::mortgaged, "mortgaged"},
    {EventKind::unmortgaged, "unmortgaged"},
    {EventKind::traded, "traded"},
    {EventKind::bankrupt, "bankrupt"},
    {EventKind::game_over, "game_over"},
    {EventKind::turn, "turn"},
    {EventKind::undone, "undone"},
    {EventKind::three_doubles, "three_doubles"},
    {EventKind::stays_in_jail, "stays_in_jail"},
    {EventKind::insured, "insured"},
    {EventKind::adopted, "adopted"},
    // Stored as "unknown" before 25 November 2026 (and so left out when read back); an older build reads
    // these names as unknown too.
    {EventKind::free_ride, "free_ride"},
    {EventKind::salary_earned, "salary_earned"},
    {EventKind::salary_forfeit, "salary_forfeit"},
    {EventKind::drafted, "drafted"},
    {EventKind::partnership, "partnership"},
    {EventKind::withdrawn, "withdrawn"},
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

std::string_view Names::event(EventKind kind) {
  for (const auto& [value, name] : kEvents)
    if (value == kind) return name;
  return "unknown";
}

std::optional<EventKind> Names::event_from(std::string_view name) {
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
