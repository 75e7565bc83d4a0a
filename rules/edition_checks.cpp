#include "rules/edition_checks.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "rules/input_limits.h"

namespace bb::rules::edition_checks {

namespace {

struct RuleRange {
  std::string_view key;
  long long lo;
  long long hi;
  std::string_view what;
};

// The allowed range of each whole-number switch of Rules (booleans need none).
constexpr RuleRange kRuleRanges[] = {
    {"start_cash", 0, kMaxMoney, "money"},
    {"salary", 0, kMaxMoney, "money"},
    {"houses", 0, kMaxBuildingSupply, "houses in the bank"},
    {"hotels", 0, kMaxBuildingSupply, "hotels in the bank"},
    {"max_houses", 0, kMaxHousesOnLot, "houses on one lot"},
    {"houses_for_hotel", 1, kMaxHousesOnLot, "houses on each lot before a hotel"},
    {"max_properties", 0, kMaxBoardSpaces, "properties one player may own, 0 for no cap"},
    {"mortgage_interest_percent", 0, kMaxPercent, "a percentage"},
    {"jail_fine", 0, kMaxMoney, "money"},
    {"jail_turns", 0, kMaxTurnsInJail, "turns"},
    {"bid_increment", 1, kMaxMoney, "money"},
    {"pauper_cash_below", 0, kMaxMoney, "money"},
    {"jail_insurance", 0, kMaxMoney, "money"},
    {"jail_insurance_card", 0, kMaxMoney, "money"},
    {"auction_timer_min_s", 0, kMaxAuctionTimerSeconds, "seconds"},
    {"auction_timer_max_s", 0, kMaxAuctionTimerSeconds, "seconds"},
    {"deal_deeds", 0, kMaxBoardSpaces, "title deeds dealt to each player"},
    {"end_after_bankruptcies", 0, kMaxPlayers, "bankruptcies, 0 to play to the last player"},
    {"forced_move_back", 0, kMaxBoardSpaces, "spaces"},
};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// Finds the file and line of a node for a message; `fallback` when there is none.
struct Place {
  std::string file;
  int line = 0;
};
Place place_of(const toml::node* node, const Place& fallback) {
  if (!node) return fallback;
  Place p{fallback.file, static_cast<int>(node->source().begin.line)};
  if (node->source().path) p.file = *node->source().path;
  return p;
}

const toml::table* table_at(const toml::table& root, std::string_view array_key, std::size_t index) {
  const toml::node* n = root.get(array_key);
  const toml::array* a = n ? n->as_array() : nullptr;
  if (!a || index >= a->size()) return nullptr;
  return (*a)[index].as_table();
}

const toml::table* card_table(const toml::table& root, std::size_t deck, std::size_t card) {
  const toml::table* d = table_at(root, "deck", deck);
  return d ? table_at(*d, "card", card) : nullptr;
}

class Collector {
 public:
  Collector(std::string file, std::vector<EditionError>& out) : file_(std::move(file)), out_(out) {}
  // Blames `key` of `table` (the key's own line, else the table's).
  void blame(const toml::table* table, std::string_view key, std::string message) {
    Place table_place = place_of(table, {file_, 0});
    Place p = place_of(table ? table->get(key) : nullptr, table_place);
    out_.push_back(EditionError{p.file, p.line, std::string(key), std::move(message)});
  }

 private:
  std::string file_;
  std::vector<EditionError>& out_;
};

void check_money(Collector& c, const toml::table* t, std::string_view key, Money v, std::string_view what) {
  if (v < 0 || v > kMaxMoney)
    c.blame(t, key, out_of_range_message(key, std::to_string(v), what, 0, kMaxMoney));
}

void check_count(Collector& c, const toml::table* t, std::string_view key, long long v, std::string_view what,
                 long long lo, long long hi) {
  if (v < lo || v > hi) c.blame(t, key, out_of_range_message(key, std::to_string(v), what, lo, hi));
}

void check_effect(Collector& c, const toml::table* owner, std::string_view list_key, std::size_t index,
                  const Effect& e, int board_size) {
  const toml::node* list = owner ? owner->get(list_key) : nullptr;
  const toml::array* arr = list ? list->as_array() : nullptr;
  const toml::table* t = arr && index < arr->size() ? (*arr)[index].as_table() : owner;
  check_money(c, t, "amount", e.amount, "money");
  check_money(c, t, "per_house", e.per_house, "money");
  check_money(c, t, "per_hotel", e.per_hotel, "money");
  check_count(c, t, "percent", e.percent, "a percentage", 0, kMaxPercent);
  check_count(c, t, "steps", e.steps, "spaces to move, negative to go back", -(board_size - 1),
              board_size - 1);
  check_count(c, t, "multiplier", e.multiplier, "a rent multiplier", 0, kMaxMultiplier);
  check_count(c, t, "dice_multiplier", e.dice_multiplier, "a dice multiplier", 0, kMaxMultiplier);
}

// Where landing on `from` sends the token at once (move_to, advance_to, move_by, advance_to_nearest).
std::vector<int> moves_from(const Edition& ed, int from) {
  std::vector<int> out;
  const int n = static_cast<int>(ed.spaces.size());
  for (const Effect& e : ed.spaces[static_cast<std::size_t>(from)].on_land) {
    switch (e.kind) {
      case Effect::Kind::move_to:
      case Effect::Kind::advance_to:
        if (e.space >= 0 && e.space < n) out.push_back(e.space);
        break;
      case Effect::Kind::move_by:
        out.push_back((((from + e.steps) % n) + n) % n);
        break;
      case Effect::Kind::advance_to_nearest:
        for (int k = 1; k <= n; ++k) {
          const int s = (from + k) % n;
          if (ed.spaces[static_cast<std::size_t>(s)].group == e.group) {
            out.push_back(s);
            break;
          }
        }
        break;
      default:
        break;
    }
  }
  return out;
}

// A circle of spaces that send the token on to each other forever, if there is one.
std::vector<int> find_move_cycle(const Edition& ed) {
  const int n = static_cast<int>(ed.spaces.size());
  std::vector<std::vector<int>> next(static_cast<std::size_t>(n));
  for (int s = 0; s < n; ++s) next[static_cast<std::size_t>(s)] = moves_from(ed, s);
  enum class Mark { fresh, on_path, done };
  std::vector<Mark> mark(static_cast<std::size_t>(n), Mark::fresh);
  for (int root = 0; root < n; ++root) {
    if (mark[static_cast<std::size_t>(root)] != Mark::fresh) continue;
    // Iterative depth-first search: the path and, for each space on it, the next edge to follow.
    std::vector<std::pair<int, std::size_t>> path = {{root, 0}};
    mark[static_cast<std::size_t>(root)] = Mark::on_path;
    while (!path.empty()) {
      auto& [s, edge] = path.back();
      const auto& out = next[static_cast<std::size_t>(s)];
      if (edge == out.size()) {
        mark[static_cast<std::size_t>(s)] = Mark::done;
        path.pop_back();
        continue;
      }
      const int t = out[edge++];
      if (mark[static_cast<std::size_t>(t)] == Mark::on_path) {
        std::vector<int> cycle;
        auto start = std::find_if(path.begin(), path.end(), [&](const auto& p) { return p.first == t; });
        for (auto it = start; it != path.end(); ++it) cycle.push_back(it->first);
        return cycle;
      }
      if (mark[static_cast<std::size_t>(t)] == Mark::fresh) {
        mark[static_cast<std::size_t>(t)] = Mark::on_path;
        path.emplace_back(t, 0);
      }
    }
  }
  return {};
}

}  // namespace

std::optional<std::string> rule_value_problem(std::string_view key, long long value) {
  for (const auto& r : kRuleRanges)
    if (r.key == key) {
      if (value < r.lo || value > r.hi)
        return out_of_range_message(key, std::to_string(value), r.what, r.lo, r.hi);
      return std::nullopt;
    }
  return std::nullopt;
}

std::vector<RuleProblem> rules_problems(const Rules& rules) {
  std::vector<RuleProblem> out;
  if (rules.auction_timer_min_s > rules.auction_timer_max_s)
    out.push_back({"auction_timer_min_s",
                   fmt::format("the shortest auction timer ({} s) is longer than the longest ({} s)",
                               rules.auction_timer_min_s, rules.auction_timer_max_s)});
  if (rules.hotels_enabled && rules.houses_for_hotel > rules.max_houses)
    out.push_back({"houses_for_hotel",
                   fmt::format("a hotel needs {} houses on each lot, but a lot holds at most {} (max_houses)",
                               rules.houses_for_hotel, rules.max_houses)});
  return out;
}

std::vector<EditionError> meaning_problems(const Edition& ed, const toml::table& root,
                                           const std::string& file) {
  std::vector<EditionError> out;
  Collector c(file, out);
  const int board_size = static_cast<int>(ed.spaces.size());
  if (board_size > kMaxBoardSpaces)
    c.blame(&root, "space",
            fmt::format("the board has {} spaces: an edition has at most {}", board_size, kMaxBoardSpaces));
  if (const toml::node* cn = root.get("currency"))
    if (ed.currency.unit > 1'000'000)
      c.blame(cn->as_table(), "unit",
              out_of_range_message("unit", std::to_string(ed.currency.unit), "printed money per unit", 1,
                                   1'000'000));

  std::map<std::string, std::size_t> group_ids;
  for (std::size_t g = 0; g < ed.groups.size(); ++g) {
    auto [it, fresh] = group_ids.emplace(ed.groups[g].id, g);
    if (!fresh)
      c.blame(table_at(root, "group", g), "id",
              fmt::format("two [[group]] tables have id '{}': each group needs an id of its own",
                          ed.groups[g].id));
  }

  std::map<std::string, std::size_t> space_names;
  for (std::size_t i = 0; i < ed.spaces.size(); ++i) {
    const Space& sp = ed.spaces[i];
    const toml::table* t = table_at(root, "space", i);
    // Action spaces may share a name (Chance, Community Chest); a space that can be owned may not, as
    // scripts and trades find it by name (effects naming a shared name are refused where they are read).
    auto [it, fresh] = space_names.emplace(lower(sp.name), i);
    const auto ownable = [&](std::size_t s) { return ed.spaces[s].price > 0; };
    if (!fresh && (ownable(i) || ownable(it->second)))
      c.blame(t, "name",
              fmt::format("space {} is named '{}' like space {}: scripts and trades find a property by its "
                          "name, so each needs its own",
                          i, sp.name, it->second));
    check_money(c, t, "price", sp.price, "money");
    check_money(c, t, "house_cost", sp.house_cost, "money");
    if (sp.mortgage < 0 || sp.mortgage > sp.price)
      c.blame(t, "mortgage",
              fmt::format("the mortgage value {} must be 0 to the price ({})", sp.mortgage, sp.price));
    const char* rent_key = sp.rent.kind == RentRule::Kind::dice       ? "rent_dice"
                           : sp.rent.kind == RentRule::Kind::doubling ? "rent_doubling"
                                                                      : "rent";
    for (Money r : sp.rent.amounts) {
      if (sp.rent.kind == RentRule::Kind::dice)
        check_count(c, t, rent_key, r, "a dice multiplier", 0, kMaxMultiplier);
      else
        check_money(c, t, rent_key, r, "money");
    }
    for (std::size_t e = 0; e < sp.on_land.size(); ++e)
      check_effect(c, t, "on_land", e, sp.on_land[e], board_size);
  }

  if (auto cycle = find_move_cycle(ed); !cycle.empty()) {
    std::string names;
    for (int s : cycle) names += fmt::format("'{}' -> ", ed.spaces[static_cast<std::size_t>(s)].name);
    names += fmt::format("'{}'", ed.spaces[static_cast<std::size_t>(cycle.front())].name);
    c.blame(table_at(root, "space", static_cast<std::size_t>(cycle.front())), "on_land",
            fmt::format("landing here moves the token on forever: {}; end the chain on a space that does "
                        "not move it",
                        names));
  }

  std::map<std::string, std::size_t> deck_ids;
  for (std::size_t d = 0; d < ed.decks.size(); ++d) {
    const Deck& deck = ed.decks[d];
    if (auto [it, fresh] = deck_ids.emplace(deck.id, d); !fresh)
      c.blame(table_at(root, "deck", d), "id",
              fmt::format("two [[deck]] tables have id '{}': each deck needs an id of its own", deck.id));
    std::map<std::string, std::size_t> card_ids;
    long long total = 0;
    for (std::size_t k = 0; k < deck.cards.size(); ++k) {
      const Card& card = deck.cards[k];
      const toml::table* t = card_table(root, d, k);
      if (auto [it, fresh] = card_ids.emplace(card.id, k); !fresh)
        c.blame(t, "id",
                fmt::format("deck '{}' has two cards with id '{}': a drawn card is named by its id, so each "
                            "needs its own",
                            deck.id, card.id));
      check_count(c, t, "copies", card.copies, "copies of one card", 1, kMaxCardCopies);
      if (card.copies > 0) total += card.copies;
      for (std::size_t e = 0; e < card.effects.size(); ++e)
        check_effect(c, t, "effects", e, card.effects[e], board_size);
    }
    if (total > kMaxCardsInDeck)
      c.blame(table_at(root, "deck", d), "card",
              fmt::format("deck '{}' holds {} cards with their copies: a deck holds at most {}", deck.id,
                          total, kMaxCardsInDeck));
  }
  if (ed.decks.size() > static_cast<std::size_t>(kMaxDecks))
    c.blame(table_at(root, "deck", static_cast<std::size_t>(kMaxDecks)), "deck",
            fmt::format("the edition has {} decks: an edition has at most {}", ed.decks.size(), kMaxDecks));
  return out;
}

}  // namespace bb::rules::edition_checks
