#include "rules/edition.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <filesystem>
#include <variant>

#include "rules/edition_checks.h"
#include "rules/edition_reader.h"
#include "rules/input_limits.h"

namespace bb::rules {

using edition_files::lower;
using edition_files::parse_toml;
using edition_files::read_edition_tree;
using edition_files::Reader;

namespace {

// The [rules] keys and the option overrides share one table, so an option can set any rule by name.
using RuleField = std::variant<Money Rules::*, int Rules::*, bool Rules::*>;
const std::vector<std::pair<std::string_view, RuleField>>& rule_fields() {
  static const std::vector<std::pair<std::string_view, RuleField>> fields = {
      {"start_cash", &Rules::start_cash},
      {"salary", &Rules::salary},
      {"salary_on_landing", &Rules::salary_on_landing},
      {"houses", &Rules::houses},
      {"hotels", &Rules::hotels},
      {"max_houses", &Rules::max_houses},
      {"hotels_enabled", &Rules::hotels_enabled},
      {"houses_for_hotel", &Rules::houses_for_hotel},
      {"buy_at_price", &Rules::buy_at_price},
      {"house_with_lot", &Rules::house_with_lot},
      {"build_needs_group", &Rules::build_needs_group},
      {"build_needs_circuit", &Rules::build_needs_circuit},
      {"even_building", &Rules::even_building},
      {"double_rent_on_group", &Rules::double_rent_on_group},
      {"double_rent_needs_clear_series", &Rules::double_rent_needs_clear_series},
      {"max_properties", &Rules::max_properties},
      {"mortgages", &Rules::mortgages},
      {"mortgage_interest_percent", &Rules::mortgage_interest_percent},
      {"jail_fine", &Rules::jail_fine},
      {"jail_turns", &Rules::jail_turns},
      {"three_doubles_to_jail", &Rules::three_doubles_to_jail},
      {"bid_increment", &Rules::bid_increment},
      {"paupers", &Rules::paupers},
      {"pauper_cash_below", &Rules::pauper_cash_below},
      {"jail_insurance", &Rules::jail_insurance},
      {"jail_insurance_card", &Rules::jail_insurance_card},
      {"free_rides", &Rules::free_rides},
      {"auction_timer_min_s", &Rules::auction_timer_min_s},
      {"auction_timer_max_s", &Rules::auction_timer_max_s},
      {"deal_deeds", &Rules::deal_deeds},
      {"deals_paid", &Rules::deals_paid},
      {"end_after_bankruptcies", &Rules::end_after_bankruptcies},
      {"bankrupt_keeps_buildings", &Rules::bankrupt_keeps_buildings},
      {"flat_income_tax", &Rules::flat_income_tax},
      {"leave_jail_next_turn", &Rules::leave_jail_next_turn},
      {"jail_exit_ends_turn", &Rules::jail_exit_ends_turn},
      {"forced_move_back", &Rules::forced_move_back},
      {"salary_must_be_claimed", &Rules::salary_must_be_claimed},
      {"lots_trade_with_houses", &Rules::lots_trade_with_houses},
      {"hotel_sale_needs_houses", &Rules::hotel_sale_needs_houses},
      {"lots_sell_to_bank", &Rules::lots_sell_to_bank},
      {"creditor_takes_houses", &Rules::creditor_takes_houses},
      {"bankrupt_lots_auctioned", &Rules::bankrupt_lots_auctioned},
      {"draft_sets", &Rules::draft_sets},
      {"draft_second_round_max_players", &Rules::draft_second_round_max_players},
      {"doubles_roll_again", &Rules::doubles_roll_again},
      {"jail_last_turn_free", &Rules::jail_last_turn_free},
      {"partnerships", &Rules::partnerships},
      {"bankrupt_leases_withdrawn", &Rules::bankrupt_leases_withdrawn},
      {"withdraw_only_complete_series", &Rules::withdraw_only_complete_series},
      {"house_owner_buys_in_series_only", &Rules::house_owner_buys_in_series_only},
      {"jail_house_owner_three_throws", &Rules::jail_house_owner_three_throws},
      {"early_lease_sale_max", &Rules::early_lease_sale_max},
      {"announce_series_piece", &Rules::announce_series_piece},
      {"trade_needs_debts_settled", &Rules::trade_needs_debts_settled},
  };
  return fields;
}

const RuleField* find_rule_field(std::string_view name) {
  for (const auto& [key, field] : rule_fields())
    if (key == name) return &field;
  return nullptr;
}

void set_rule(Rules& rules, const RuleField& field, long long value) {
  std::visit(
      [&](auto member) {
        using T = std::remove_reference_t<decltype(rules.*member)>;
        if constexpr (std::is_same_v<T, bool>)
          rules.*member = value != 0;
        else
          rules.*member = static_cast<T>(value);
      },
      field);
}

const std::vector<std::pair<std::string_view, Effect::Kind>>& effect_names() {
  static const std::vector<std::pair<std::string_view, Effect::Kind>> names = {
      {"collect", Effect::Kind::collect},
      {"pay", Effect::Kind::pay},
      {"tax_choice", Effect::Kind::tax_choice},
      {"tax_percent_cash", Effect::Kind::tax_percent_cash},
      {"draw", Effect::Kind::draw},
      {"go_to_jail", Effect::Kind::go_to_jail},
      {"get_out_of_jail", Effect::Kind::get_out_of_jail},
      {"advance_to", Effect::Kind::advance_to},
      {"advance_to_nearest", Effect::Kind::advance_to_nearest},
      {"move_by", Effect::Kind::move_by},
      {"move_to", Effect::Kind::move_to},
      {"pay_each_player", Effect::Kind::pay_each_player},
      {"collect_from_each", Effect::Kind::collect_from_each},
      {"repairs", Effect::Kind::repairs},
      {"roll_move", Effect::Kind::roll_move},
      {"sweepstakes", Effect::Kind::sweepstakes},
      {"fare", Effect::Kind::fare},
      {"forced_move_back", Effect::Kind::forced_move_back},
      {"buy_seats", Effect::Kind::buy_seats},
  };
  return names;
}

}  // namespace

std::string EditionError::what() const {
  // Line 0 means the problem is with the file (or edition id) as a whole.
  std::string where = line > 0 ? fmt::format("{}:{}", file, line) : file;
  std::string out = key.empty() ? fmt::format("{}: {}", where, message)
                                : fmt::format("{}: key '{}': {}", where, key, message);
  for (const auto& further : more) out += "\n" + further.what();
  return out;
}

const Deck* Edition::deck(const std::string& deck_id) const {
  for (const auto& d : decks)
    if (d.id == deck_id) return &d;
  return nullptr;
}

std::optional<DeckId> Edition::deck_named(std::string_view deck_id) const {
  for (std::size_t d = 0; d < decks.size(); ++d)
    if (decks[d].id == deck_id) return DeckId{static_cast<int>(d)};
  return std::nullopt;
}

std::string Edition::deck_words() const {
  std::string ids;
  for (const auto& d : decks) ids += (ids.empty() ? "" : ", ") + d.id;
  return ids;
}

bool Edition::deck_sends_to_jail(DeckId deck) const {
  return std::ranges::any_of(decks[deck].cards, [](const Card& card) {
    return std::ranges::any_of(card.effects,
                               [](const Effect& e) { return e.kind == Effect::Kind::go_to_jail; });
  });
}

const Group* Edition::group(const std::string& group_id) const {
  for (const auto& g : groups)
    if (g.id == group_id) return &g;
  return nullptr;
}

std::string_view Edition::option_name(const QuestionOption& option) const {
  if (option.answer == Answer::take_set && option.group >= 0 &&
      option.group < static_cast<int>(groups.size()))
    return groups[static_cast<std::size_t>(option.group)].id;
  return answer_name(option.answer);
}

std::optional<QuestionOption> Edition::option_named(std::string_view text) const {
  if (auto answer = parse_answer(text)) return QuestionOption{*answer};
  for (std::size_t g = 0; g < groups.size(); ++g)
    if (groups[g].id == text) return QuestionOption{Answer::take_set, static_cast<int>(g)};
  return std::nullopt;
}

std::vector<SpaceId> Edition::group_members(const std::string& group_id) const {
  std::vector<SpaceId> out;
  for (const auto& s : spaces)
    if (s.group == group_id) out.push_back(SpaceId{s.index});
  return out;
}

void Edition::index_groups() {
  group_spaces.assign(groups.size(), {});
  group_sets.assign(groups.size(), {});
  for (auto& s : spaces) {
    s.group_index = -1;
    for (std::size_t g = 0; g < groups.size(); ++g)
      if (!s.group.empty() && groups[g].id == s.group) s.group_index = static_cast<int>(g);
    if (s.group_index < 0) continue;
    group_spaces[static_cast<std::size_t>(s.group_index)].push_back(SpaceId{s.index});
    // A board past kMaxBoardSpaces has no sets: Game::start refuses it.
    if (s.index >= 0 && s.index < kMaxBoardSpaces)
      group_sets[static_cast<std::size_t>(s.group_index)].insert(SpaceId{s.index});
  }
}

std::optional<SpaceId> Edition::space_by_name(const std::string& space_name) const {
  std::string wanted = lower(space_name);
  for (const auto& s : spaces)
    if (lower(s.name) == wanted) return SpaceId{s.index};
  return std::nullopt;
}

std::expected<Rules, std::string> Edition::rules_with(const std::map<std::string, bool>& chosen) const {
  Rules out = rules;
  for (const auto& [option_name, on] : chosen) {
    auto it =
        std::find_if(options.begin(), options.end(), [&](const Option& o) { return o.name == option_name; });
    if (it == options.end()) {
      std::string known;
      for (const auto& o : options) known += (known.empty() ? "" : ", ") + o.name;
      return std::unexpected(fmt::format("unknown option '{}' for edition '{}' (it has: {})", option_name, id,
                                         known.empty() ? "none" : known));
    }
    (void)on;
  }
  for (const auto& o : options) {
    auto chosen_it = chosen.find(o.name);
    bool on = chosen_it != chosen.end() ? chosen_it->second : o.default_on;
    if (!on) continue;
    for (const auto& [field_name, value] : o.overrides) set_rule(out, *find_rule_field(field_name), value);
  }
  return out;
}

std::string Words::count_houses(int n) const {
  if (n == 0) return "no " + houses;
  return n == 1 ? "1 " + house : fmt::format("{} {}", n, houses);
}

std::string Edition::format_money(Money amount) const {
  bool negative = amount < 0;
  Money v = (negative ? -amount : amount) * currency.unit;
  std::string digits;
  if (currency.mk) {
    // 15,000,000 -> 15M; 2,500,000 -> 2.5M; 260,000 -> 260K
    if (v >= 1'000'000) {
      Money whole = v / 1'000'000, rest = v % 1'000'000;
      digits = std::to_string(whole);
      if (rest) {
        std::string frac = fmt::format("{:06d}", rest);
        while (!frac.empty() && frac.back() == '0') frac.pop_back();
        digits += "." + frac;
      }
      digits += "M";
    } else if (v >= 1000) {
      Money whole = v / 1000, rest = v % 1000;
      digits = std::to_string(whole);
      if (rest) {
        std::string frac = fmt::format("{:03d}", rest);
        while (!frac.empty() && frac.back() == '0') frac.pop_back();
        digits += "." + frac;
      }
      digits += "K";
    } else {
      digits = std::to_string(v);
    }
  } else {
    std::string raw = std::to_string(v);
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (i > 0 && (raw.size() - i) % 3 == 0) digits += ',';
      digits += raw[i];
    }
  }
  std::string s = currency.symbol_after ? digits + currency.symbol : currency.symbol + digits;
  return negative ? "-" + s : s;
}

namespace {

int resolve_space(const Reader& r, const toml::table& t, std::string_view key,
                  const std::vector<Space>& spaces, int board_size, bool required) {
  const toml::node* n = t.get(key);
  if (!n) {
    if (required) r.fail(&t, 0, std::string(key), "this effect needs a space (its number or its name)");
    return -1;
  }
  if (n->is_integer()) {
    long long v = *n->value<long long>();
    if (v < 0 || v >= board_size)
      r.fail(n, 0, std::string(key),
             fmt::format("space {} does not exist: the board has spaces 0 to {}", v, board_size - 1));
    return static_cast<int>(v);
  }
  if (n->is_string()) {
    std::string wanted = lower(*n->value<std::string>());
    int found = -1;
    for (const auto& s : spaces)
      if (lower(s.name) == wanted) {
        if (found >= 0)
          r.fail(n, 0, std::string(key),
                 fmt::format("spaces {} and {} are both named '{}': give the space by its number", found,
                             s.index, s.name));
        found = s.index;
      }
    if (found >= 0) return found;
    r.fail(n, 0, std::string(key),
           fmt::format("no space is named '{}' on this board", *n->value<std::string>()));
  }
  r.fail(n, 0, std::string(key), "expected a space number or a space name");
}

Effect parse_effect(const Reader& r, const toml::node& node, const std::vector<Space>& spaces, int board_size,
                    const std::vector<std::string>& deck_ids, const std::vector<Group>& groups) {
  const toml::table* t = node.as_table();
  if (!t) r.fail(&node, 0, "effect", "expected an effect table such as { effect = \"pay\", amount = 50 }");
  Effect e;
  std::string name = r.string(*t, "effect", "", true);
  auto it = std::find_if(effect_names().begin(), effect_names().end(),
                         [&](const auto& p) { return p.first == name; });
  if (it == effect_names().end()) {
    std::string known;
    for (const auto& p : effect_names()) known += (known.empty() ? "" : ", ") + std::string(p.first);
    r.fail(t->get("effect"), 0, "effect", fmt::format("unknown effect '{}' (known: {})", name, known));
  }
  e.kind = it->second;
  e.amount = r.integer(*t, "amount", 0);
  e.percent = r.small_integer(*t, "percent", 0);
  e.steps = r.small_integer(*t, "steps", 0);
  e.multiplier = r.small_integer(*t, "multiplier", 1);
  e.dice_multiplier = r.small_integer(*t, "dice_multiplier", 0);
  e.per_house = r.integer(*t, "per_house", 0);
  e.per_hotel = r.integer(*t, "per_hotel", 0);
  e.salary = r.boolean(*t, "salary", true);
  bool needs_space = e.kind == Effect::Kind::advance_to || e.kind == Effect::Kind::move_to;
  e.space = resolve_space(r, *t, "space", spaces, board_size, needs_space);
  if (e.kind == Effect::Kind::draw) {
    const std::string deck = r.string(*t, "deck", "", true);
    auto known = std::find(deck_ids.begin(), deck_ids.end(), deck);
    if (known == deck_ids.end())
      r.fail(t->get("deck"), 0, "deck", fmt::format("no deck '{}' is defined in this edition", deck));
    e.deck = DeckId{static_cast<int>(known - deck_ids.begin())};
  }
  if (e.kind == Effect::Kind::advance_to_nearest) {
    e.group = r.string(*t, "group", "", true);
    if (std::none_of(groups.begin(), groups.end(), [&](const Group& g) { return g.id == e.group; }))
      r.fail(t->get("group"), 0, "group", fmt::format("group '{}' does not exist in this edition", e.group));
  }
  if ((e.kind == Effect::Kind::tax_choice || e.kind == Effect::Kind::tax_percent_cash) &&
      (e.percent <= 0 || e.percent > 100))
    r.fail(t, 0, "percent", "a percentage tax needs percent between 1 and 100");
  if (e.kind == Effect::Kind::move_by && e.steps == 0)
    r.fail(t, 0, "steps", "move_by needs steps (negative to go back)");
  return e;
}

std::vector<Effect> parse_effects(const Reader& r, const toml::table& t, std::string_view key,
                                  const std::vector<Space>& spaces, int board_size,
                                  const std::vector<std::string>& deck_ids,
                                  const std::vector<Group>& groups) {
  std::vector<Effect> out;
  const toml::node* n = t.get(key);
  if (!n) return out;
  const toml::array* arr = n->as_array();
  if (!arr) r.fail(n, 0, std::string(key), "expected a list of effect tables");
  for (const auto& item : *arr) out.push_back(parse_effect(r, item, spaces, board_size, deck_ids, groups));
  return out;
}

// A board may have no jail (FINANCE, Parker Brothers, has none), but then nothing may send a token there: no
// go_to_jail or get_out_of_jail effect, and three doubles never jail, whichever options are on.
void require_jail_where_used(const Reader& r, const toml::node* spaces_node, const Edition& ed) {
  if (ed.jail_space) return;
  auto sends_to_jail = [](const std::vector<Effect>& effects) {
    return std::any_of(effects.begin(), effects.end(), [](const Effect& e) {
      return e.kind == Effect::Kind::go_to_jail || e.kind == Effect::Kind::get_out_of_jail;
    });
  };
  std::string why;
  if (ed.rules.three_doubles_to_jail) why = "three_doubles_to_jail is on (set it to false)";
  for (const auto& o : ed.options) {
    auto it = o.overrides.find("three_doubles_to_jail");
    if (it != o.overrides.end() && it->second != 0)
      why = fmt::format("option '{}' sets three_doubles_to_jail", o.name);
  }
  for (const auto& sp : ed.spaces)
    if (sends_to_jail(sp.on_land)) why = fmt::format("space '{}' sends a token to jail", sp.name);
  for (const auto& d : ed.decks)
    for (const auto& c : d.cards)
      if (sends_to_jail(c.effects)) why = fmt::format("card '{}' concerns the jail", c.id);
  if (!why.empty())
    r.fail(spaces_node, 0, "space", fmt::format("the board needs one space with type = \"jail\": {}", why));
}

// A problem to report with the others (the loader's checks of meaning collect them all).
EditionError problem_at(const toml::node* node, const toml::node* fallback, std::string key,
                        std::string message, const std::string& file) {
  const toml::node* at = node ? node : fallback;
  std::string where = at && at->source().path ? *at->source().path : file;
  int line = at ? static_cast<int>(at->source().begin.line) : 0;
  return EditionError{std::move(where), line, std::move(key), std::move(message)};
}

// Reports every problem at once, in the order of the file (the edition extended first).
[[noreturn]] void fail_with_all(std::vector<EditionError> problems) {
  std::stable_sort(problems.begin(), problems.end(), [](const EditionError& a, const EditionError& b) {
    return a.file != b.file ? a.file < b.file : a.line < b.line;
  });
  EditionError first = std::move(problems.front());
  first.more.assign(std::make_move_iterator(problems.begin() + 1), std::make_move_iterator(problems.end()));
  throw edition_files::Fail{std::move(first)};
}

Edition build_edition(const toml::table& root, const std::string& file) {
  Reader r(file);
  std::vector<EditionError> problems;
  auto problem_at = [&](const toml::node* node, const toml::node* fallback, std::string key,
                        std::string message) {
    return ::bb::rules::problem_at(node, fallback, std::move(key), std::move(message), file);
  };
  Edition ed;
  ed.source_file = file;
  ed.id = r.string(root, "id", "", true);
  ed.name = r.string(root, "name", ed.id);
  ed.notes = r.string(root, "notes", "");

  if (const toml::node* cn = root.get("currency")) {
    const toml::table* c = cn->as_table();
    if (!c) r.fail(cn, 0, "currency", "expected a [currency] table");
    ed.currency.symbol = r.string(*c, "symbol", "$");
    ed.currency.symbol_after = r.boolean(*c, "symbol_after", false);
    ed.currency.unit = r.integer(*c, "unit", 1);
    ed.currency.mk = r.boolean(*c, "mk", false);
    if (ed.currency.unit <= 0) r.fail(c->get("unit"), 0, "unit", "the unit must be 1 or more");
  }

  if (const toml::node* wn = root.get("words")) {
    const toml::table* w = wn->as_table();
    if (!w) r.fail(wn, 0, "words", "expected a [words] table, such as house = \"Quinn's house\"");
    std::pair<std::string_view, std::string*> fields[] = {{"house", &ed.words.house},
                                                          {"houses", &ed.words.houses},
                                                          {"hotel", &ed.words.hotel},
                                                          {"hotels", &ed.words.hotels},
                                                          {"jail", &ed.words.jail}};
    for (const auto& [key, value] : *w) {
      auto it = std::find_if(std::begin(fields), std::end(fields),
                             [&](const auto& f) { return f.first == key.str(); });
      if (it == std::end(fields))
        r.fail(&value, 0, std::string(key.str()), "unknown word (known: house, houses, hotel, hotels, jail)");
      *it->second = r.string(*w, key.str(), "");
      if (it->second->empty()) r.fail(&value, 0, std::string(key.str()), "a word cannot be empty");
    }
  }

  if (const toml::node* rn = root.get("rules")) {
    const toml::table* rt = rn->as_table();
    if (!rt) r.fail(rn, 0, "rules", "expected a [rules] table");
    for (const auto& [key, value] : *rt) {
      const RuleField* field = find_rule_field(key.str());
      if (!field)
        r.fail(&value, 0, std::string(key.str()), "unknown rule switch (see docs/editions.md for the list)");
      bool is_bool = std::holds_alternative<bool Rules::*>(*field);
      if (is_bool && !value.is_boolean()) r.fail(&value, 0, std::string(key.str()), "expected true or false");
      if (!is_bool && !value.is_integer())
        r.fail(&value, 0, std::string(key.str()), "expected a whole number");
      if (!is_bool)
        if (auto bad = edition_checks::rule_value_problem(key.str(), *value.value<long long>())) {
          problems.push_back(problem_at(&value, rt, std::string(key.str()), *bad));
          continue;
        }
      set_rule(ed.rules, *field, is_bool ? (*value.value<bool>() ? 1 : 0) : *value.value<long long>());
    }
  }

  if (const toml::node* on = root.get("option")) {
    const toml::table* ot = on->as_table();
    if (!ot) r.fail(on, 0, "option", "expected [option.NAME] tables");
    for (const auto& [name, value] : *ot) {
      const toml::table* o = value.as_table();
      if (!o) r.fail(&value, 0, std::string(name.str()), "expected an [option.NAME] table");
      Option opt;
      opt.name = std::string(name.str());
      opt.description = r.string(*o, "description", "");
      opt.default_on = r.boolean(*o, "default", false);
      if (const toml::node* sn = o->get("set")) {
        const toml::table* st = sn->as_table();
        if (!st) r.fail(sn, 0, "set", "expected a table of rule switches, such as { houses_for_hotel = 3 }");
        for (const auto& [key, v] : *st) {
          const RuleField* field = find_rule_field(key.str());
          if (!field)
            r.fail(&v, Reader::line_of(*sn), std::string(key.str()), "unknown rule switch in option");
          const bool is_bool = std::holds_alternative<bool Rules::*>(*field);
          if (is_bool && v.is_boolean())
            opt.overrides[std::string(key.str())] = *v.value<bool>() ? 1 : 0;
          else if (!is_bool && v.is_integer()) {
            if (auto bad = edition_checks::rule_value_problem(key.str(), *v.value<long long>()))
              problems.push_back(problem_at(&v, st, std::string(key.str()), *bad));
            else
              opt.overrides[std::string(key.str())] = *v.value<long long>();
          } else
            r.fail(&v, Reader::line_of(*sn), std::string(key.str()),
                   is_bool ? "expected true or false" : "expected a whole number");
        }
      }
      ed.options.push_back(std::move(opt));
    }
  }
  // Switches that only make sense together, in the edition's rules and with each option on.
  {
    const toml::node* rules_node = root.get("rules");
    const toml::table* rules_table = rules_node ? rules_node->as_table() : nullptr;
    for (const auto& bad : edition_checks::rules_problems(ed.rules))
      problems.push_back(
          problem_at(rules_table ? rules_table->get(bad.key) : nullptr, rules_node, bad.key, bad.message));
    for (const auto& opt : ed.options) {
      Rules with_option = ed.rules;
      for (const auto& [field_name, value] : opt.overrides)
        set_rule(with_option, *find_rule_field(field_name), value);
      const toml::node* set_node = root.at_path("option")[opt.name]["set"].node();
      for (const auto& bad : edition_checks::rules_problems(with_option))
        if (opt.overrides.contains(bad.key))
          problems.push_back(
              problem_at(set_node && set_node->as_table() ? set_node->as_table()->get(bad.key) : nullptr,
                         set_node, bad.key, fmt::format("with option '{}': {}", opt.name, bad.message)));
    }
    // The rent tables are counted from max_houses: a wrong max_houses is reported alone, not on every rent.
    if (std::any_of(problems.begin(), problems.end(),
                    [](const EditionError& e) { return e.key == "max_houses"; }))
      fail_with_all(std::move(problems));
  }

  if (const toml::node* gn = root.get("group")) {
    const toml::array* ga = gn->as_array();
    if (!ga) r.fail(gn, 0, "group", "expected [[group]] tables");
    for (const auto& item : *ga) {
      const toml::table* g = item.as_table();
      if (!g) r.fail(&item, 0, "group", "expected a [[group]] table");
      Group grp;
      grp.id = r.string(*g, "id", "", true);
      grp.name = r.string(*g, "name", grp.id);
      grp.colour = r.string(*g, "colour", "#808080");
      ed.groups.push_back(std::move(grp));
    }
  }

  std::vector<std::string> deck_ids;
  const toml::array* deck_array = nullptr;
  if (const toml::node* dn = root.get("deck")) {
    deck_array = dn->as_array();
    if (!deck_array) r.fail(dn, 0, "deck", "expected [[deck]] tables");
    for (const auto& item : *deck_array) {
      const toml::table* d = item.as_table();
      if (!d) r.fail(&item, 0, "deck", "expected a [[deck]] table");
      deck_ids.push_back(r.string(*d, "id", "", true));
    }
  }

  const toml::node* sn = root.get("space");
  if (!sn) r.fail(&root, 1, "space", "an edition needs its spaces as [[space]] tables in board order");
  const toml::array* sa = sn->as_array();
  if (!sa) r.fail(sn, 0, "space", "expected [[space]] tables");
  int board_size = static_cast<int>(sa->size());
  if (board_size < 4) r.fail(sn, 0, "space", "a board needs at least 4 spaces");
  // First pass: names and kinds, so effects may refer to any space by name.
  for (const auto& item : *sa) {
    const toml::table* s = item.as_table();
    if (!s) r.fail(&item, 0, "space", "expected a [[space]] table");
    Space sp;
    sp.index = static_cast<int>(ed.spaces.size());
    sp.line = Reader::line_of(item);
    sp.name = r.string(*s, "name", "", true);
    ed.spaces.push_back(std::move(sp));
  }
  for (std::size_t i = 0; i < sa->size(); ++i) {
    const toml::table& s = *(*sa)[i].as_table();
    Space& sp = ed.spaces[i];
    std::string type = r.string(s, "type", "", true);
    if (type == "property")
      sp.kind = Space::Kind::property;
    else if (type == "railroad")
      sp.kind = Space::Kind::railroad;
    else if (type == "utility")
      sp.kind = Space::Kind::utility;
    else if (type == "action")
      sp.kind = Space::Kind::action;
    else if (type == "start" || type == "jail" || type == "corner")
      sp.kind = Space::Kind::corner;
    else
      r.fail(
          s.get("type"), 0, "type",
          fmt::format(
              "unknown space type '{}' (expected property, railroad, utility, action, start, jail or corner)",
              type));
    sp.is_start = type == "start";
    sp.is_jail = type == "jail";
    if (sp.is_start) ed.start_space = SpaceId{sp.index};
    if (sp.is_jail) ed.jail_space = SpaceId{sp.index};
    bool ownable = sp.kind == Space::Kind::property || sp.kind == Space::Kind::railroad ||
                   sp.kind == Space::Kind::utility;
    if (ownable) {
      sp.group = r.string(s, "group", "", true);
      if (!ed.group(sp.group))
        r.fail(
            s.get("group"), 0, "group",
            fmt::format("group '{}' does not exist: add a [[group]] with id = \"{}\"", sp.group, sp.group));
      sp.price = r.integer(s, "price", 0, true);
      if (sp.price <= 0) r.fail(s.get("price"), 0, "price", "a price must be more than 0");
      sp.mortgage = r.integer(s, "mortgage", sp.price / 2);
      sp.house_cost = r.integer(s, "house_cost", 0);
    }
    if (sp.kind == Space::Kind::property) {
      if (s.get("rent_doubling")) {
        sp.rent.kind = RentRule::Kind::doubling;
        sp.rent.amounts = {r.integer(s, "rent_doubling", 0)};
        if (sp.house_cost == 0) sp.house_cost = sp.price;
      } else {
        sp.rent.kind = RentRule::Kind::table;
        sp.rent.amounts = r.amounts(s, "rent");
        std::size_t want =
            static_cast<std::size_t>(ed.rules.max_houses) + 1 + (ed.rules.hotels_enabled ? 1 : 0);
        if (sp.rent.amounts.size() != want)
          r.fail(s.get("rent") ? s.get("rent") : &s, 0, "rent",
                 fmt::format("expected {} amounts (no houses, 1 to {} houses{}), found {}", want,
                             ed.rules.max_houses, ed.rules.hotels_enabled ? ", a hotel" : "",
                             sp.rent.amounts.size()));
        if (sp.house_cost <= 0) r.fail(&s, 0, "house_cost", "a property with houses needs a house_cost");
      }
    } else if (sp.kind == Space::Kind::railroad) {
      sp.rent.kind = RentRule::Kind::by_count;
      sp.rent.amounts = r.amounts(s, "rent");
      if (sp.rent.amounts.empty())
        r.fail(&s, 0, "rent", "a railroad needs rent by the number owned, such as [25, 50, 100, 200]");
    } else if (sp.kind == Space::Kind::utility) {
      sp.rent.kind = RentRule::Kind::dice;
      sp.rent.amounts = r.amounts(s, "rent_dice");
      if (sp.rent.amounts.empty())
        r.fail(&s, 0, "rent_dice", "a utility needs dice multipliers by the number owned, such as [4, 10]");
    }
    sp.on_land = parse_effects(r, s, "on_land", ed.spaces, board_size, deck_ids, ed.groups);
  }
  // Railroad and utility rent tables must cover every member of their group.
  for (const auto& sp : ed.spaces) {
    if (sp.rent.kind == RentRule::Kind::by_count || sp.rent.kind == RentRule::Kind::dice) {
      std::size_t members = ed.group_members(sp.group).size();
      if (sp.rent.amounts.size() != members)
        r.fail(nullptr, sp.line, sp.rent.kind == RentRule::Kind::dice ? "rent_dice" : "rent",
               fmt::format("'{}': expected {} amounts, one per {} owned, found {}", sp.name, members,
                           sp.group, sp.rent.amounts.size()));
    }
  }
  ed.index_groups();

  if (deck_array) {
    for (const auto& item : *deck_array) {
      const toml::table& d = *item.as_table();
      Deck deck;
      deck.id = r.string(d, "id", "", true);
      deck.name = r.string(d, "name", deck.id);
      const toml::node* cn = d.get("card");
      if (!cn) r.fail(&d, 0, "card", "a deck needs its cards as [[deck.card]] tables");
      const toml::array* ca = cn->as_array();
      if (!ca) r.fail(cn, 0, "card", "expected [[deck.card]] tables");
      for (const auto& citem : *ca) {
        const toml::table* c = citem.as_table();
        if (!c) r.fail(&citem, 0, "card", "expected a [[deck.card]] table");
        Card card;
        card.id = r.string(*c, "id", "", true);
        card.text = r.string(*c, "text", "");
        card.copies = r.small_integer(*c, "copies", 1);
        card.effects = parse_effects(r, *c, "effects", ed.spaces, board_size, deck_ids, ed.groups);
        if (card.effects.empty())
          r.fail(c, 0, "effects", fmt::format("card '{}' does nothing: give it effects", card.id));
        deck.cards.push_back(std::move(card));
      }
      ed.decks.push_back(std::move(deck));
    }
  }
  for (auto& bad : edition_checks::meaning_problems(ed, root, file)) problems.push_back(std::move(bad));
  if (!problems.empty()) fail_with_all(std::move(problems));
  require_jail_where_used(r, sn, ed);
  return ed;
}

}  // namespace

std::expected<Edition, EditionError> parse_edition(std::string_view toml_text, const std::string& file) {
  try {
    toml::table root = parse_toml(toml_text, file);
    if (root.get("extends"))
      throw edition_files::Fail{
          EditionError{file, static_cast<int>(root.get("extends")->source().begin.line), "extends",
                       "an edition that extends another is read from its file (load_edition), which "
                       "finds the one it extends"}};
    return build_edition(root, file);
  } catch (const edition_files::Fail& f) {
    return std::unexpected(f.error);
  }
}

std::expected<Edition, EditionError> load_edition(const std::string& id_or_path,
                                                  const std::vector<std::string>& search_dirs) {
  namespace fs = std::filesystem;
  std::vector<fs::path> candidates;
  if (id_or_path.find('/') != std::string::npos || id_or_path.ends_with(".toml")) {
    candidates.emplace_back(id_or_path);
  } else {
    for (const auto& dir : search_dirs) candidates.push_back(fs::path(dir) / (id_or_path + ".toml"));
  }
  for (const auto& path : candidates) {
    if (!fs::exists(path)) continue;
    try {
      return build_edition(read_edition_tree(path.string(), search_dirs, 0), path.string());
    } catch (const edition_files::Fail& f) {
      return std::unexpected(f.error);
    }
  }
  std::string where;
  for (const auto& dir : search_dirs) where += (where.empty() ? "" : ", ") + dir;
  if (id_or_path.find('/') != std::string::npos || id_or_path.ends_with(".toml"))
    return std::unexpected(EditionError{
        "edition", 0, "",
        fmt::format("no edition file at '{}': check the path (or give an edition id)", id_or_path)});
  return std::unexpected(EditionError{
      "edition", 0, "",
      fmt::format(
          "no such edition '{}': looked for {}.toml in {}; give the id of an edition there or the path "
          "of an edition file",
          id_or_path, id_or_path, where.empty() ? "no edition folders" : where)});
}

}  // namespace bb::rules
