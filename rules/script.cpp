#include "rules/script.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>

#include "rules/game.h"
#include "rules/input_limits.h"
#include "rules/json_input.h"

namespace bb::rules {

using nlohmann::json;

namespace {

using Fail = std::unexpected<std::string>;

std::expected<json, std::string> parse_json(std::string_view line) {
  return json_input::parse_object_line(line);
}

std::expected<PlayerId, std::string> player_field(const json& j, const char* key,
                                                  const std::vector<std::string>& names) {
  auto it = j.find(key);
  if (it == j.end()) return Fail(fmt::format("missing field '{}' (a player's name)", key));
  if (!it->is_string()) return Fail(fmt::format("field '{}' must be a player's name in quotes", key));
  std::string wanted = it->get<std::string>();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == wanted) return PlayerId{static_cast<int>(i)};
  std::string known;
  for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
  return Fail(fmt::format("no player is named '{}' (players: {})", wanted, known));
}

std::expected<SpaceId, std::string> space_value(const json& v, const Edition& edition,
                                                std::string_view field) {
  if (v.is_number()) {
    auto s = json_input::integer_in(v, field, "the board's spaces", 0,
                                    static_cast<long long>(edition.spaces.size()) - 1);
    if (!s) return Fail(s.error());
    return SpaceId{static_cast<int>(*s)};
  }
  if (v.is_string()) {
    if (auto s = edition.space_by_name(v.get<std::string>())) return *s;
    return Fail(fmt::format("no space is named '{}'", v.get<std::string>()));
  }
  return Fail("a space is given by its number (or its name)");
}

std::expected<SpaceId, std::string> space_field(const json& j, const char* key, const Edition& edition) {
  auto it = j.find(key);
  if (it == j.end()) return Fail(fmt::format("missing field '{}' (a space number)", key));
  return space_value(*it, edition, key);
}

std::expected<Money, std::string> money_field(const json& j, const char* key, bool required) {
  auto it = j.find(key);
  if (it == j.end()) {
    if (required) return Fail(fmt::format("missing field '{}' (an amount)", key));
    return 0;
  }
  auto amount = json_input::integer_in(*it, key, "an amount", -kMaxMoney, kMaxMoney);
  if (!amount) return Fail(amount.error());
  return Money{*amount};
}

std::expected<Offer, std::string> offer_field(const json& j, const char* key, const Edition& edition) {
  Offer o;
  auto it = j.find(key);
  if (it == j.end()) return o;
  if (!it->is_object())
    return Fail(fmt::format("field '{}' must be an object such as {{\"cash\": 100, \"spaces\": [1]}}", key));
  if (auto bad = json_input::unknown_field(*it, {"cash", "spaces", "cards", "free_rides"},
                                           fmt::format("a trade's \"{}\"", key)))
    return Fail(*bad);
  auto cash = money_field(*it, "cash", false);
  if (!cash) return Fail(cash.error());
  o.cash = *cash;
  if (auto sp = it->find("spaces"); sp != it->end()) {
    if (!sp->is_array()) return Fail(fmt::format("'{}.spaces' must be a list of space numbers", key));
    for (const auto& v : *sp) {
      auto s = space_value(v, edition, fmt::format("{}.spaces", key));
      if (!s) return Fail(s.error());
      o.spaces.push_back(*s);
    }
  }
  if (auto c = it->find("cards"); c != it->end()) {
    auto cards =
        json_input::integer_in(*c, fmt::format("{}.cards", key), "Get Out of Jail cards", 0, kMaxJailCards);
    if (!cards) return Fail(cards.error());
    o.cards = static_cast<int>(*cards);
  }
  if (auto fr = it->find("free_rides"); fr != it->end()) {
    if (!fr->is_array())
      return Fail(fmt::format("'{}.free_rides' must be a list of {{\"group\": ID, \"rides\": N}}", key));
    for (const auto& g : *fr) {
      if (!g.is_object() || !g.contains("group") || !g["group"].is_string() || !g.contains("rides") ||
          !g["rides"].is_number_integer())
        return Fail(fmt::format("'{}.free_rides' entries are {{\"group\": ID, \"rides\": N}}", key));
      if (auto bad =
              json_input::unknown_field(g, {"group", "rides"}, fmt::format("a '{}.free_rides' entry", key)))
        return Fail(*bad);
      FreeRideGrant grant;
      for (std::size_t i = 0; i < edition.groups.size(); ++i)
        if (edition.groups[i].id == g["group"].get<std::string>()) grant.group = static_cast<int>(i);
      if (grant.group < 0)
        return Fail(fmt::format("no group '{}' in this edition", g["group"].get<std::string>()));
      auto rides = json_input::integer_in(g["rides"], fmt::format("{}.free_rides.rides", key), "free rides",
                                          0, kMaxFreeRides);
      if (!rides) return Fail(rides.error());
      grant.rides = static_cast<int>(*rides);
      o.free_rides.push_back(grant);
    }
  }
  return o;
}

json offer_json(const Offer& o, const Edition& edition) {
  json j = json::object();
  j["cash"] = o.cash;
  j["spaces"] = o.spaces;
  j["cards"] = o.cards;
  if (!o.free_rides.empty()) {
    json rides = json::array();
    for (const auto& g : o.free_rides)
      rides.push_back({{"group", g.group >= 0 && g.group < static_cast<int>(edition.groups.size())
                                     ? edition.groups[static_cast<std::size_t>(g.group)].id
                                     : std::string("?")},
                       {"rides", g.rides}});
    j["free_rides"] = rides;
  }
  return j;
}

}  // namespace

std::expected<Setup, std::string> parse_setup(std::string_view line) {
  auto parsed = parse_json(line);
  if (!parsed) return Fail(parsed.error());
  auto it = parsed->find("setup");
  if (it == parsed->end() || !it->is_object())
    return Fail("the first line must be the setup: {\"setup\": {\"edition\": ..., \"players\": [...]}}");
  if (auto bad = json_input::unknown_field(*parsed, {"setup"}, "the setup line")) return Fail(*bad);
  const json& s = *it;
  if (auto bad = json_input::unknown_field(s, {"edition", "players", "options", "seed"}, "\"setup\""))
    return Fail(*bad);
  Setup setup;
  if (!s.contains("edition") || !s["edition"].is_string())
    return Fail("setup needs \"edition\": an edition id or path");
  setup.edition = s["edition"].get<std::string>();
  if (!s.contains("players") || !s["players"].is_array())
    return Fail("setup needs \"players\": a list in turn order");
  for (const auto& p : s["players"]) {
    PlayerSetup ps;
    if (p.is_string()) {
      ps.name = p.get<std::string>();
    } else if (p.is_object() && p.contains("name") && p["name"].is_string()) {
      ps.name = p["name"].get<std::string>();
      if (auto bad = json_input::unknown_field(p, {"name", "token", "card", "deeds", "colour"},
                                               fmt::format("player '{}'", ps.name)))
        return Fail(*bad);
      auto token = json_input::optional_string(p, "token", "");
      if (!token) return Fail(fmt::format("player '{}': {}", ps.name, token.error()));
      ps.token = *token;
      auto card = json_input::optional_string(p, "card", "");
      if (!card) return Fail(fmt::format("player '{}': {}", ps.name, card.error()));
      ps.card = *card;
      if (p.contains("deeds")) {
        if (!p["deeds"].is_array()) return Fail("a player's \"deeds\" must be a list of space numbers");
        for (const auto& d : p["deeds"]) {
          // The edition, read after the setup, checks each deed against its board.
          auto deed = json_input::integer_in(d, "deeds", "a space number", 0, kMaxBoardSpaces - 1);
          if (!deed) return Fail(fmt::format("player '{}': {}", ps.name, deed.error()));
          ps.deeds.push_back(SpaceId{static_cast<int>(*deed)});
        }
      }
      if (p.contains("colour")) {
        if (!p["colour"].is_number_integer() || p["colour"].get<int>() < 0)
          return Fail("a player's \"colour\" must be a palette index: 0 or more");
        ps.colour = p["colour"].get<int>();
      }
    } else {
      return Fail("each player needs a \"name\"");
    }
    setup.players.push_back(std::move(ps));
    if (setup.players.size() > static_cast<std::size_t>(kMaxPlayers))
      return Fail(fmt::format("\"players\" lists more than {}: a game has at most {} players", kMaxPlayers,
                              kMaxPlayers));
  }
  if (s.contains("options")) {
    if (!s["options"].is_object())
      return Fail("\"options\" must be an object of switches, such as {\"short_game\": true}");
    for (const auto& [k, v] : s["options"].items()) {
      if (!v.is_boolean()) return Fail(fmt::format("option '{}' must be true or false", k));
      setup.options[k] = v.get<bool>();
    }
  }
  if (s.contains("seed")) {
    const json& seed = s["seed"];
    if (seed.is_number_unsigned())
      setup.seed = seed.get<std::uint64_t>();
    else if (seed.is_number_integer() && seed.get<std::int64_t>() >= 0)
      setup.seed = static_cast<std::uint64_t>(seed.get<std::int64_t>());
    else
      return Fail(fmt::format("field 'seed': {} is not a seed (a whole number, 0 to {})", seed.dump(),
                              std::numeric_limits<std::uint64_t>::max()));
  }
  return setup;
}

std::optional<std::string> input_line_id(std::string_view line) {
  auto parsed = parse_json(line);
  if (!parsed) return std::nullopt;
  auto it = parsed->find("id");
  if (it == parsed->end()) return std::nullopt;
  if (it->is_string()) return it->get<std::string>();
  return it->dump();
}

std::expected<Input, std::string> parse_input(std::string_view line, const std::vector<std::string>& names,
                                              const Edition& edition) {
  auto parsed = parse_json(line);
  if (!parsed) return Fail(parsed.error());
  const json& j = *parsed;
  auto t_it = j.find("t");
  if (t_it == j.end() && j.contains("setup"))
    return Fail(
        "a second setup line: a script has one setup, on its first line (start a new script for a new game)");
  if (t_it == j.end() || !t_it->is_string())
    return Fail("each input needs \"t\", the kind of input (roll, choose, ...)");
  std::string t = t_it->get<std::string>();
  auto player = [&](const char* key = "player") { return player_field(j, key, names); };
  // Every kind of line has "t" and may carry "id" (a source's idempotency id, ledger/script_replay.h).
  const std::string line_kind = fmt::format("a {} line", t);
  auto unknown = [&](std::initializer_list<std::string_view> fields) {
    return json_input::unknown_field(j, fields, line_kind);
  };
  if (t == "roll") {
    if (auto bad = unknown({"t", "id", "dice"})) return Fail(*bad);
    auto d = j.find("dice");
    if (d == j.end() || !d->is_array() || d->size() != 2 || !(*d)[0].is_number_integer() ||
        !(*d)[1].is_number_integer())
      return Fail("a roll needs \"dice\": [d1, d2]");
    auto d1 = json_input::integer_in((*d)[0], "dice", "a die shows", 1, kMaxDie);
    if (!d1) return Fail(d1.error());
    auto d2 = json_input::integer_in((*d)[1], "dice", "a die shows", 1, kMaxDie);
    if (!d2) return Fail(d2.error());
    return Roll{static_cast<int>(*d1), static_cast<int>(*d2)};
  }
  if (t == "choose") {
    if (auto bad = unknown({"t", "id", "player", "option"})) return Fail(*bad);
    auto p = player();
    if (!p) return Fail(p.error());
    if (!j.contains("option") || !j["option"].is_string())
      return Fail("choose needs \"option\", one of the question's options");
    const std::string text = j["option"].get<std::string>();
    auto option = edition.option_named(text);
    if (!option)
      return Fail(fmt::format(
          "'{}' is not an answer: choose one of the options the pending question lists (buy, auction, "
          "pay_fixed, pay_percent, pay_fine, use_card, roll, use_throw, throw_again, lift, keep, or in a "
          "draft a set's group id)",
          text));
    return Choose{*p, *option};
  }
  if (t == "bid") {
    if (auto bad = unknown({"t", "id", "player", "amount"})) return Fail(*bad);
    auto p = player();
    if (!p) return Fail(p.error());
    auto a = money_field(j, "amount", true);
    if (!a) return Fail(a.error());
    return Bid{*p, *a};
  }
  if (t == "close" || t == "end" || t == "undo") {
    if (auto bad = unknown({"t", "id"})) return Fail(*bad);
    if (t == "close") return Close{};
    if (t == "end") return End{};
    return Undo{};
  }
  if (t == "draw") {
    if (auto bad = unknown({"t", "id", "deck", "card"})) return Fail(*bad);
    if (!j.contains("deck") || !j["deck"].is_string())
      return Fail(fmt::format("draw needs \"deck\", one of this edition's decks: {}", edition.deck_words()));
    const std::string word = j["deck"].get<std::string>();
    const std::optional<DeckId> deck = edition.deck_named(word);
    if (!deck)
      return Fail(fmt::format("'{}' is not a deck: this edition's decks are {}", word, edition.deck_words()));
    Draw d{*deck, std::nullopt};
    if (j.contains("card")) {
      if (!j["card"].is_string()) return Fail("\"card\" must be a card id in quotes");
      d.card = j["card"].get<std::string>();
    }
    return d;
  }
  if (t == "build" || t == "sell" || t == "mortgage" || t == "unmortgage") {
    if (auto bad = t == "build"  ? unknown({"t", "id", "player", "space", "hotel"})
                   : t == "sell" ? unknown({"t", "id", "player", "space", "group"})
                                 : unknown({"t", "id", "player", "space"}))
      return Fail(*bad);
    auto p = player();
    if (!p) return Fail(p.error());
    auto s = space_field(j, "space", edition);
    if (!s) return Fail(s.error());
    if (t == "build") {
      auto hotel = json_input::optional_bool(j, "hotel", false);
      if (!hotel) return Fail(hotel.error());
      return Build{*p, *s, *hotel};
    }
    if (t == "sell") {
      if (j.contains("group") && !j["group"].is_boolean())
        return Fail("\"group\" must be true or false (true confirms a sale that changes other lots too)");
      return Sell{*p, *s, j.value("group", false)};
    }
    if (t == "mortgage") return Mortgage{*p, *s};
    return Unmortgage{*p, *s};
  }
  if (t == "trade") {
    if (auto bad = unknown({"t", "id", "from", "to", "give", "get"})) return Fail(*bad);
    auto from = player("from");
    if (!from) return Fail(from.error());
    auto to = player("to");
    if (!to) return Fail(to.error());
    auto give = offer_field(j, "give", edition);
    if (!give) return Fail(give.error());
    auto get = offer_field(j, "get", edition);
    if (!get) return Fail(get.error());
    return Trade{*from, *to, *give, *get};
  }
  if (t == "bankrupt") {
    if (auto bad = unknown({"t", "id", "player"})) return Fail(*bad);
    auto p = player();
    if (!p) return Fail(p.error());
    return Bankrupt{*p};
  }
  if (t == "adopt") {
    if (auto bad = unknown({"t", "id", "player", "cash", "position", "in_jail", "cards", "spaces"}))
      return Fail(*bad);
    auto p = player();
    if (!p) return Fail(p.error());
    Adopt a;
    a.player = *p;
    if (j.contains("cash")) {
      auto c = money_field(j, "cash", true);
      if (!c) return Fail(c.error());
      a.cash = *c;
    }
    if (j.contains("position")) {
      auto s = space_field(j, "position", edition);
      if (!s) return Fail(s.error());
      a.position = *s;
    }
    if (j.contains("in_jail")) {
      if (!j["in_jail"].is_boolean()) return Fail("\"in_jail\" must be true or false");
      a.in_jail = j["in_jail"].get<bool>();
    }
    if (j.contains("cards")) {
      auto cards = json_input::integer_in(j["cards"], "cards", "Get Out of Jail cards", 0, kMaxJailCards);
      if (!cards) return Fail(cards.error());
      a.cards = static_cast<int>(*cards);
    }
    if (j.contains("spaces")) {
      if (!j["spaces"].is_array()) return Fail("\"spaces\" must be a list of {\"space\": N, ...}");
      for (const auto& sj : j["spaces"]) {
        if (!sj.is_object())
          return Fail("each adopted space is an object {\"space\": N, \"houses\": H, ...}");
        if (auto bad =
                json_input::unknown_field(sj, {"space", "houses", "hotel", "mortgaged"}, "an adopted space"))
          return Fail(*bad);
        auto s = space_field(sj, "space", edition);
        if (!s) return Fail(s.error());
        AdoptSpace as;
        as.space = *s;
        if (sj.contains("houses")) {
          auto houses =
              json_input::integer_in(sj["houses"], "spaces.houses", "houses on a lot", 0, kMaxHousesOnLot);
          if (!houses) return Fail(houses.error());
          as.houses = static_cast<int>(*houses);
        }
        auto hotel = json_input::optional_bool(sj, "hotel", false);
        if (!hotel) return Fail(hotel.error());
        as.hotel = *hotel;
        auto mortgaged = json_input::optional_bool(sj, "mortgaged", false);
        if (!mortgaged) return Fail(mortgaged.error());
        as.mortgaged = *mortgaged;
        a.spaces.push_back(as);
      }
    }
    return a;
  }
  if (t == "claim") {
    if (auto bad = unknown({"t", "id", "player"})) return Fail(*bad);
    auto p = player();
    if (!p) return Fail(p.error());
    return Claim{*p};
  }
  if (t == "insure") {
    if (auto bad = unknown({"t", "id", "player", "against"})) return Fail(*bad);
    auto p = player();
    if (!p) return Fail(p.error());
    auto against_field = json_input::optional_string(j, "against", "corner");
    if (!against_field) return Fail(against_field.error());
    const std::string& against = *against_field;
    if (against != "corner" && against != "card") return Fail("\"against\" is \"corner\" or \"card\"");
    return Insure{*p, against == "card"};
  }
  if (t == "house") {
    if (auto bad = unknown({"t", "id", "from", "to", "amount", "reason"})) return Fail(*bad);
    auto account = [&](const char* key) -> std::expected<Account, std::string> {
      if (j.contains(key) && j[key].is_string() && j[key].get<std::string>() == "bank")
        return Account::bank();
      return player_field(j, key, names);
    };
    auto from = account("from");
    if (!from) return Fail(from.error());
    auto to = account("to");
    if (!to) return Fail(to.error());
    auto amount = money_field(j, "amount", true);
    if (!amount) return Fail(amount.error());
    if (!j.contains("reason") || !j["reason"].is_string())
      return Fail("house needs \"reason\", why the table agreed to it (\"Free Parking jackpot\")");
    return HousePayment{*from, *to, *amount, j["reason"].get<std::string>()};
  }
  if (t == "partner") {
    if (auto bad = unknown({"t", "id", "holder", "partner", "group", "share"})) return Fail(*bad);
    auto holder = player("holder");
    if (!holder) return Fail(holder.error());
    auto partner = player("partner");
    if (!partner) return Fail(partner.error());
    if (!j.contains("group") || !j["group"].is_string())
      return Fail("partner needs \"group\": the id of the railroads' or power companies' group");
    int group = -1;
    for (std::size_t i = 0; i < edition.groups.size(); ++i)
      if (edition.groups[i].id == j["group"].get<std::string>()) group = static_cast<int>(i);
    if (group < 0) return Fail(fmt::format("no group '{}' in this edition", j["group"].get<std::string>()));
    if (!j.contains("share"))
      return Fail("partner needs \"share\": the partner's share of the income in percent (1 to 100)");
    auto share = json_input::integer_in(j["share"], "share", "a share in percent", 1, 100);
    if (!share) return Fail(share.error());
    return Partner{*holder, *partner, group, static_cast<int>(*share)};
  }
  if (t == "card") {
    if (auto bad = unknown({"t", "id", "uid", "player", "deck", "card"})) return Fail(*bad);
    auto uid = json_input::optional_string(j, "uid", "");
    if (!uid) return Fail(uid.error());
    if (uid->empty()) return Fail("card needs \"uid\": the card's number in hex");
    RegisterCard c{*uid, std::nullopt, {}, {}};
    if (j.contains("player")) {
      auto p = player();
      if (!p) return Fail(p.error());
      c.player = *p;
    }
    auto deck = json_input::optional_string(j, "deck", "");
    if (!deck) return Fail(deck.error());
    auto card = json_input::optional_string(j, "card", "");
    if (!card) return Fail(card.error());
    c.deck = *deck;
    c.card = *card;
    return c;
  }
  if (t == "confirm") {
    if (auto bad = unknown({"t", "id", "posting"})) return Fail(*bad);
    if (!j.contains("posting")) return Fail("confirm needs \"posting\": the number of the posting confirmed");
    auto posting = json_input::integer_in(j["posting"], "posting", "a posting number", 1, 1'000'000'000);
    if (!posting) return Fail(posting.error());
    return ConfirmPayment{*posting};
  }
  if (t == "auction") {
    if (auto bad = unknown({"t", "id", "item"})) return Fail(*bad);
    auto item_field = json_input::optional_string(j, "item", "house");
    if (!item_field) return Fail(item_field.error());
    const std::string& item = *item_field;
    if (item == "lease") return AuctionLease{};
    if (item != "house" && item != "hotel")
      return Fail(
          "an auction needs \"item\": \"house\" or \"hotel\" (a building), or \"lease\" (FINANCE 1932)");
    return AuctionBuilding{item == "hotel"};
  }
  return Fail(fmt::format(
      "unknown input \"{}\" (known: roll, choose, bid, close, draw, build, sell, mortgage, unmortgage, "
      "trade, bankrupt, adopt, end, undo, auction, claim, insure, house, partner, card, confirm)",
      t));
}

std::string setup_to_json(const Setup& setup) {
  json players = json::array();
  for (const auto& p : setup.players) {
    json pj = {{"name", p.name}};
    if (!p.token.empty()) pj["token"] = p.token;
    if (!p.card.empty()) pj["card"] = p.card;
    if (!p.deeds.empty()) pj["deeds"] = p.deeds;
    if (p.colour >= 0) pj["colour"] = p.colour;
    players.push_back(pj);
  }
  json options = json::object();
  for (const auto& [k, v] : setup.options) options[k] = v;
  json j = {{"setup",
             {{"edition", setup.edition}, {"players", players}, {"options", options}, {"seed", setup.seed}}}};
  return j.dump();
}

std::string input_to_json(const Input& input, const std::vector<std::string>& names, const Edition& ed) {
  auto nm = [&](PlayerId p) {
    return p.number() >= 0 && p.index() < names.size() ? names[p.index()] : std::string("?");
  };
  json j = std::visit(
      [&](const auto& in) -> json {
        using T = std::decay_t<decltype(in)>;
        if constexpr (std::is_same_v<T, Roll>) return {{"t", "roll"}, {"dice", {in.d1, in.d2}}};
        if constexpr (std::is_same_v<T, Choose>)
          return {
              {"t", "choose"}, {"player", nm(in.player)}, {"option", std::string(ed.option_name(in.option))}};
        if constexpr (std::is_same_v<T, Bid>)
          return {{"t", "bid"}, {"player", nm(in.player)}, {"amount", in.amount}};
        if constexpr (std::is_same_v<T, Close>) return {{"t", "close"}};
        if constexpr (std::is_same_v<T, Draw>) {
          json d = {{"t", "draw"},
                    {"deck", in.deck.index() < ed.decks.size() ? ed.decks[in.deck].id : std::string("?")}};
          if (in.card) d["card"] = *in.card;
          return d;
        }
        if constexpr (std::is_same_v<T, Build>) {
          json b = {{"t", "build"}, {"player", nm(in.player)}, {"space", in.space}};
          if (in.hotel) b["hotel"] = true;
          return b;
        }
        if constexpr (std::is_same_v<T, Sell>) {
          json sj = {{"t", "sell"}, {"player", nm(in.player)}, {"space", in.space}};
          if (in.whole_group) sj["group"] = true;
          return sj;
        }
        if constexpr (std::is_same_v<T, Mortgage>)
          return {{"t", "mortgage"}, {"player", nm(in.player)}, {"space", in.space}};
        if constexpr (std::is_same_v<T, Unmortgage>)
          return {{"t", "unmortgage"}, {"player", nm(in.player)}, {"space", in.space}};
        if constexpr (std::is_same_v<T, Trade>)
          return {{"t", "trade"},
                  {"from", nm(in.from)},
                  {"to", nm(in.to)},
                  {"give", offer_json(in.give, ed)},
                  {"get", offer_json(in.get, ed)}};
        if constexpr (std::is_same_v<T, Bankrupt>) return {{"t", "bankrupt"}, {"player", nm(in.player)}};
        if constexpr (std::is_same_v<T, Adopt>) {
          json a = {{"t", "adopt"}, {"player", nm(in.player)}};
          if (in.cash) a["cash"] = *in.cash;
          if (in.position) a["position"] = *in.position;
          if (in.in_jail) a["in_jail"] = *in.in_jail;
          if (in.cards) a["cards"] = *in.cards;
          if (!in.spaces.empty()) {
            json spaces = json::array();
            for (const auto& s : in.spaces)
              spaces.push_back(
                  {{"space", s.space}, {"houses", s.houses}, {"hotel", s.hotel}, {"mortgaged", s.mortgaged}});
            a["spaces"] = spaces;
          }
          return a;
        }
        if constexpr (std::is_same_v<T, End>) return {{"t", "end"}};
        if constexpr (std::is_same_v<T, Undo>) return {{"t", "undo"}};
        if constexpr (std::is_same_v<T, AuctionBuilding>)
          return {{"t", "auction"}, {"item", in.hotel ? "hotel" : "house"}};
        if constexpr (std::is_same_v<T, AuctionLease>) return {{"t", "auction"}, {"item", "lease"}};
        if constexpr (std::is_same_v<T, Claim>) return {{"t", "claim"}, {"player", nm(in.player)}};
        if constexpr (std::is_same_v<T, Insure>)
          return {
              {"t", "insure"}, {"player", nm(in.player)}, {"against", in.against_card ? "card" : "corner"}};
        if constexpr (std::is_same_v<T, Partner>)
          return {{"t", "partner"},
                  {"holder", nm(in.holder)},
                  {"partner", nm(in.partner)},
                  {"group", in.group >= 0 && in.group < static_cast<int>(ed.groups.size())
                                ? ed.groups[static_cast<std::size_t>(in.group)].id
                                : std::to_string(in.group)},
                  {"share", in.share_percent}};
        if constexpr (std::is_same_v<T, RegisterCard>) {
          json c = {{"t", "card"}, {"uid", in.uid}};
          if (in.player) c["player"] = nm(*in.player);
          if (!in.deck.empty()) c["deck"] = in.deck;
          if (!in.card.empty()) c["card"] = in.card;
          return c;
        }
        if constexpr (std::is_same_v<T, ConfirmPayment>) return {{"t", "confirm"}, {"posting", in.posting}};
        if constexpr (std::is_same_v<T, HousePayment>)
          return {{"t", "house"},
                  {"from", in.from.is_bank() ? std::string("bank") : nm(*in.from.player())},
                  {"to", in.to.is_bank() ? std::string("bank") : nm(*in.to.player())},
                  {"amount", in.amount},
                  {"reason", in.reason}};
        return json::object();
      },
      input);
  return j.dump();
}

namespace {
json state_json(const Game& game) {
  const GameState& st = game.state();
  const Edition& ed = game.edition();
  auto account = [&](Account a) -> json { return game.account_name(a); };
  auto nobody_or_name = [&](std::optional<PlayerId> p) -> json {
    if (!p) return nullptr;
    return game.account_name(*p);
  };
  json j;
  j["edition"] = ed.id;
  j["ended"] = st.ended;
  j["winner"] = st.winner ? json(st.players[*st.winner].name) : json(nullptr);
  json winners = json::array();
  for (PlayerId w : st.winners) winners.push_back(st.players[w].name);
  j["winners"] = winners;
  j["current"] = st.ended ? json(nullptr) : json(st.players[st.current].name);
  json pending = json::array();
  for (const auto& q : st.pending) {
    json pj = {{"player", st.players[q.player].name},
               {"question", question_name(q.kind)},
               {"options", game.option_names(q)}};
    if (q.space) pj["space"] = *q.space;
    if (q.kind == QuestionKind::buy || q.kind == QuestionKind::debt || q.kind == QuestionKind::tax ||
        q.kind == QuestionKind::jail || q.kind == QuestionKind::mortgaged_transfer)
      pj["amount"] = q.amount;
    if (q.kind == QuestionKind::tax) pj["percent"] = q.percent;
    if (q.kind == QuestionKind::debt) pj["creditor"] = account(q.creditor);
    if (q.kind == QuestionKind::draw) pj["deck"] = ed.decks[*q.deck].id;
    if (!q.reason.empty()) pj["reason"] = q.reason;
    pending.push_back(pj);
  }
  j["pending"] = pending;
  if (!st.draft_picks.empty()) {
    json draft = json::array();  // who chooses a set of title deeds, in order (the first is asked now)
    for (PlayerId p : st.draft_picks) draft.push_back(st.players[p].name);
    j["draft"] = draft;
  }
  if (st.auction) {
    const Auction& a = *st.auction;
    json aj = {{"item", a.item == Auction::Item::property ? "property"
                        : a.item == Auction::Item::house  ? "house"
                                                          : "hotel"},
               {"high_bid", a.high_bid},
               {"high_bidder", nobody_or_name(a.high_bidder)}};
    if (a.space) aj["space"] = *a.space;
    if (a.timer_s > 0) aj["timer_s"] = a.timer_s;
    j["auction"] = aj;
  } else {
    j["auction"] = nullptr;
  }
  json players = json::array();
  for (PlayerId p : st.players.ids()) {
    const auto& pl = st.players[p];
    players.push_back({{"name", pl.name},
                       {"cash", pl.cash},
                       {"position", pl.position},
                       {"in_jail", pl.in_jail},
                       {"cards", pl.cards()},
                       {"bankrupt", pl.bankrupt},
                       {"worth", game.worth(p)},
                       {"unclaimed_salary", pl.unclaimed_salary}});
  }
  j["players"] = players;
  json spaces = json::array();
  for (std::size_t s = 0; s < ed.spaces.size(); ++s) {
    const Space& sp = ed.spaces[s];
    if (sp.kind != Space::Kind::property && sp.kind != Space::Kind::railroad &&
        sp.kind != Space::Kind::utility)
      continue;
    const SpaceState& ss = st.spaces[s];
    spaces.push_back({{"index", s},
                      {"name", sp.name},
                      {"owner", nobody_or_name(ss.owner)},
                      {"houses", ss.houses},
                      {"hotel", ss.hotel},
                      {"mortgaged", ss.mortgaged}});
    if (ss.withdrawn) spaces.back()["withdrawn"] = true;
  }
  j["spaces"] = spaces;
  j["bank"] = {{"houses", st.bank_houses}, {"hotels", st.bank_hotels}};
  if (!st.free_rides.empty()) {
    json rides = json::array();
    for (const auto& f : st.free_rides)
      rides.push_back({{"holder", st.players[f.holder].name},
                       {"owner", st.players[f.owner].name},
                       {"group", ed.groups[static_cast<std::size_t>(f.group)].id},
                       {"rides", f.rides}});
    j["free_rides"] = rides;
  }
  if (!st.partnerships.empty()) {
    json partnerships = json::array();
    for (const auto& f : st.partnerships)
      partnerships.push_back({{"holder", st.players[f.holder].name},
                              {"partner", st.players[f.partner].name},
                              {"group", ed.groups[static_cast<std::size_t>(f.group)].id},
                              {"share", f.share_percent}});
    j["partnerships"] = partnerships;
  }
  json postings = json::array();
  for (const auto& p : st.postings)
    postings.push_back({{"seq", p.seq},
                        {"from", account(p.from)},
                        {"to", account(p.to)},
                        {"amount", p.amount},
                        {"memo", game.memo_text(p)}});
  j["postings"] = postings;
  return j;
}
}  // namespace

std::string state_to_json(const Game& game, int indent) { return state_json(game).dump(indent); }

std::string state_summary(const Game& game) {
  const GameState& st = game.state();
  const Edition& ed = game.edition();
  std::string out;
  out += fmt::format("{}: {} inputs, {} postings, {} turns{}\n", ed.name, game.input_count(),
                     st.postings.size(), st.turns, st.ended ? ", ended" : "");
  std::vector<PlayerId> order;
  for (PlayerId p : st.players.ids()) order.push_back(p);
  std::stable_sort(order.begin(), order.end(),
                   [&](PlayerId a, PlayerId b) { return game.worth(a) > game.worth(b); });
  for (PlayerId p : order) {
    const auto& pl = st.players[p];
    int owned = 0;
    for (const auto& ss : st.spaces) owned += ss.owner == p ? 1 : 0;
    out += fmt::format("  {:<12} cash {:>10}  worth {:>10}  properties {:>2}{}{}\n", pl.name,
                       ed.format_money(pl.cash), ed.format_money(game.worth(p)), owned,
                       pl.bankrupt ? "  bankrupt" : "",
                       std::find(st.winners.begin(), st.winners.end(), p) == st.winners.end() ? ""
                       : st.winners.size() > 1 ? "  WINNER (tie)"
                                               : "  WINNER");
  }
  Money bank = 0;
  for (const auto& p : st.postings) {
    if (p.from.is_bank()) bank -= p.amount;
    if (p.to.is_bank()) bank += p.amount;
  }
  out += fmt::format(
      "  bank balance {} (the bank issues money, so it runs negative); houses {}, hotels {} in the bank\n",
      ed.format_money(bank), st.bank_houses, st.bank_hotels);
  return out;
}

}  // namespace bb::rules
