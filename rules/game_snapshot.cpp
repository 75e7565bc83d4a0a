// Game::snapshot and Game::restore: the engine's whole state as JSON, so that a keeper of a long game (the
// ledger) can resume it without replaying every input. Pointers into the edition (the effect a pending step
// will run, the card it came from) are written as indexes and found again in the same edition.
#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <nlohmann/json.hpp>

#include "rules/engine.h"
#include "rules/game.h"

namespace bb::rules {

using nlohmann::json;

namespace {

// A player's Get Out of Jail cards are written by deck, each as "<deck id>_cards" ("chance_cards",
// "chest_cards"), and read back from the same keys: the decks are the edition's, so the snapshot's keys are
// too.
std::string held_cards_key(const Deck& deck) { return deck.id + "_cards"; }

json player_json(const Edition& ed, const PlayerState& p) {
  json j{{"name", p.name},
         {"token", p.token},
         {"card", p.card},
         {"cash", p.cash},
         {"position", p.position.number()},
         {"in_jail", p.in_jail},
         {"jail_attempts", p.jail_attempts},
         {"bankrupt", p.bankrupt},
         {"passed_start", p.passed_start},
         {"insured", p.insured},
         {"insured_card", p.insured_card},
         {"unclaimed_salary", p.unclaimed_salary}};
  for (DeckId d : ed.decks.ids()) j[held_cards_key(ed.decks[d])] = p.jail_cards[d];
  return j;
}

PlayerState player_from(const Edition& ed, const json& j) {
  PlayerState p;
  p.name = j.at("name").get<std::string>();
  p.token = j.at("token").get<std::string>();
  p.card = j.at("card").get<std::string>();
  p.cash = j.at("cash").get<Money>();
  p.position = SpaceId{j.at("position").get<int>()};
  p.in_jail = j.at("in_jail").get<bool>();
  p.jail_attempts = j.at("jail_attempts").get<int>();
  for (DeckId d : ed.decks.ids()) p.jail_cards[d] = j.at(held_cards_key(ed.decks[d])).get<int>();
  p.bankrupt = j.at("bankrupt").get<bool>();
  p.passed_start = j.at("passed_start").get<bool>();
  p.insured = j.at("insured").get<bool>();
  p.insured_card = j.at("insured_card").get<bool>();
  p.unclaimed_salary = j.at("unclaimed_salary").get<Money>();
  return p;
}

// Players and accounts as the snapshot spells them (rules/ids.h): a seat number, -2 for nobody, -1 for the
// bank. Read back checked against the table, so a damaged snapshot never names a player who is not there.
PlayerId seat_from(const json& j, std::size_t players) {
  const int number = j.get<int>();
  if (number < 0 || static_cast<std::size_t>(number) >= players)
    throw std::out_of_range(fmt::format("player {} is not at this table of {}", number, players));
  return PlayerId{number};
}
std::optional<PlayerId> nobody_or_seat_from(const json& j, std::size_t players) {
  if (j.get<int>() == player_wire(std::nullopt)) return std::nullopt;
  return seat_from(j, players);
}
Account account_from(const json& j, std::size_t players) {
  if (Account::from_wire(j.get<int>()) == Account::bank()) return Account::bank();
  return seat_from(j, players);
}
std::vector<PlayerId> seats_from(const json& j, std::size_t players) {
  std::vector<PlayerId> seats;
  for (const auto& seat : j) seats.push_back(seat_from(seat, players));
  return seats;
}
std::vector<int> seat_numbers(const std::vector<PlayerId>& seats) {
  std::vector<int> numbers;
  for (PlayerId p : seats) numbers.push_back(p.number());
  return numbers;
}

// Options are stored as the spec spells them (the format of kSnapshotFormat 1) and parsed back on restore.
json question_json(const Game& g, const Question& q) {
  return json{{"player", q.player.number()},
              {"kind", static_cast<int>(q.kind)},
              {"options", g.option_names(q)},
              {"space", space_wire(q.space)},
              {"amount", q.amount},
              {"percent", q.percent},
              {"creditor", q.creditor.wire()},
              {"deck", q.deck ? g.edition().decks[*q.deck].id : std::string{}},
              {"reason", q.reason},
              {"memo", static_cast<int>(q.memo)},
              {"card", q.card}};
}

template <typename Enum>
Enum enum_from(const json& j, Enum last, const char* what) {
  int v = j.get<int>();
  if (v < 0 || v > static_cast<int>(last)) throw std::out_of_range(fmt::format("{} {} is unknown", what, v));
  return static_cast<Enum>(v);
}

Question question_from(const Edition& ed, const json& j, std::size_t players) {
  Question q;
  q.player = seat_from(j.at("player"), players);
  q.kind = enum_from(j.at("kind"), QuestionKind::draft, "question kind");
  for (const auto& name : j.at("options").get<std::vector<std::string>>()) {
    if (q.kind == QuestionKind::draft) {
      const Group* set = ed.group(name);
      if (!set) throw std::out_of_range(fmt::format("the draft offers '{}', which is not a group", name));
      q.options.push_back({Answer::take_set, static_cast<int>(set - ed.groups.data())});
    } else if (auto answer = parse_answer(name)) {
      q.options.push_back({*answer});
    } else {
      throw std::out_of_range(fmt::format("'{}' is not an answer to a question", name));
    }
  }
  q.space = space_from_wire(j.at("space").get<int>());
  q.amount = j.at("amount").get<Money>();
  q.percent = j.at("percent").get<int>();
  q.creditor = account_from(j.at("creditor"), players);
  if (const auto deck = j.at("deck").get<std::string>(); !deck.empty()) {
    q.deck = ed.deck_named(deck);
    if (!q.deck) throw std::out_of_range(fmt::format("the question's deck '{}' is not the edition's", deck));
  }
  q.reason = j.at("reason").get<std::string>();
  q.memo = enum_from(j.at("memo"), Memo::partnership, "memo");
  q.card = j.at("card").get<std::string>();
  return q;
}

// Where an effect lives in the edition: on a space ("space", s, e) or on a card ("card", deck, card, e).
json effect_ref(const Edition& ed, const Step& step) {
  if (step.effect == nullptr) return nullptr;
  if (step.card != nullptr) {
    for (std::size_t d = 0; d < ed.decks.size(); ++d)
      for (std::size_t c = 0; c < ed.decks[d].cards.size(); ++c) {
        const Card& card = ed.decks[d].cards[c];
        if (&card != step.card) continue;
        for (std::size_t e = 0; e < card.effects.size(); ++e)
          if (&card.effects[e] == step.effect) return json::array({"card", d, c, e});
      }
  } else {
    for (std::size_t s = 0; s < ed.spaces.size(); ++s)
      for (std::size_t e = 0; e < ed.spaces[s].on_land.size(); ++e)
        if (&ed.spaces[s].on_land[e] == step.effect) return json::array({"space", s, e});
  }
  assert(false && "a pending step points at an effect outside its edition");
  return nullptr;
}

template <typename T>
const T& element(const std::vector<T>& v, const json& index, const char* what) {
  auto i = index.get<std::size_t>();
  if (i >= v.size()) throw std::out_of_range(fmt::format("{} {} is not in this edition", what, i));
  return v[i];
}

json step_json(const Edition& ed, const Step& s) {
  return json::array({static_cast<int>(s.kind), static_cast<int>(s.roll), s.player.number(), s.to.wire(),
                      space_wire(s.space), s.steps, s.multiplier, s.dice_multiplier, s.salary, s.from_dice,
                      s.amount, static_cast<int>(s.memo), effect_ref(ed, s)});
}

Step step_from(const Edition& ed, const json& j, std::size_t players) {
  if (!j.is_array() || j.size() != 13) throw std::out_of_range("a pending step has the wrong shape");
  Step s;
  s.kind = enum_from(j[0], Step::Kind::auction_lot, "step kind");
  s.roll = enum_from(j[1], Step::Roll::jail_attempt, "step roll");
  s.player = seat_from(j[2], players);
  s.to = account_from(j[3], players);
  s.space = space_from_wire(j[4].get<int>());
  s.steps = j[5].get<int>();
  s.multiplier = j[6].get<int>();
  s.dice_multiplier = j[7].get<int>();
  s.salary = j[8].get<bool>();
  s.from_dice = j[9].get<bool>();
  s.amount = j[10].get<Money>();
  s.memo = enum_from(j[11], Memo::partnership, "memo");
  const json& ref = j[12];
  if (!ref.is_null()) {
    const std::string where = ref.at(0).get<std::string>();
    if (where == "card") {
      const Deck& deck = element(ed.decks, ref.at(1), "deck");
      const Card& card = element(deck.cards, ref.at(2), "card");
      s.card = &card;
      s.effect = &element(card.effects, ref.at(3), "card effect");
    } else if (where == "space") {
      const Space& space = element(ed.spaces, ref.at(1), "space");
      s.effect = &element(space.on_land, ref.at(2), "space effect");
    } else {
      throw std::out_of_range(fmt::format("an effect on '{}' is unknown", where));
    }
  }
  return s;
}

// Which postings each input in effect made, found again in the journal (the engine keeps this as it goes; a
// snapshot need not carry it). A posting names the input that made it; an undo's compensating postings name
// the input they take back, so an input's postings are the last run of its own after its last undo.
std::expected<std::vector<std::pair<std::size_t, std::size_t>>, std::string> postings_by_input(
    const std::vector<Posting>& journal, std::size_t input_count) {
  const std::size_t none = journal.size() + 1;
  std::vector<std::pair<std::size_t, std::size_t>> ranges(input_count, {none, none});
  for (std::size_t k = 0; k < journal.size(); ++k) {
    const Posting& p = journal[k];
    if (p.input < 0) continue;  // the setup's
    const auto i = static_cast<std::size_t>(p.input);
    if (i >= ranges.size()) ranges.resize(i + 1, {none, none});  // an input since undone
    auto& [begin, end] = ranges[i];
    if (p.memo == Memo::undo) {
      begin = end = none;
    } else if (begin != none && end == k) {
      end = k + 1;
    } else {
      begin = k;
      end = k + 1;
    }
  }
  for (std::size_t i = input_count; i < ranges.size(); ++i)
    if (ranges[i].first != none)
      return std::unexpected(
          fmt::format("the journal holds postings of input {}, after the snapshot's last", i));
  ranges.resize(input_count);
  for (auto& [begin, end] : ranges)
    if (begin == none) begin = end = journal.size();  // it made no postings
  return ranges;
}

}  // namespace

std::string Game::snapshot() const {
  const GameState& st = state_;
  const Edition& ed = *edition_;
  json state;
  state["players"] = json::array();
  for (const auto& p : st.players) state["players"].push_back(player_json(ed, p));
  state["spaces"] = json::array();
  for (const auto& s : st.spaces) {
    json space = json::array({player_wire(s.owner), s.houses, s.hotel, s.mortgaged});
    if (s.withdrawn) space.push_back(true);  // FINANCE (1932): a fifth field only where a lease left the game
    state["spaces"].push_back(std::move(space));
  }
  state["bank_houses"] = st.bank_houses;
  state["bank_hotels"] = st.bank_hotels;
  state["current"] = st.current.number();
  state["pending"] = json::array();
  for (const auto& q : st.pending) state["pending"].push_back(question_json(*this, q));
  if (st.auction) {
    const Auction& a = *st.auction;
    state["auction"] = json::array(
        {static_cast<int>(a.item), space_wire(a.space), player_wire(a.high_bidder), a.high_bid, a.timer_s});
  } else {
    state["auction"] = nullptr;
  }
  state["dice"] = json::array({st.last_d1, st.last_d2});
  state["doubles_in_row"] = st.doubles_in_row;
  state["bankruptcies"] = st.bankruptcies;
  state["turns"] = st.turns;
  state["ended"] = st.ended;
  state["winner"] = player_wire(st.winner);
  state["winners"] = seat_numbers(st.winners);
  state["free_rides"] = json::array();
  for (const auto& r : st.free_rides)
    state["free_rides"].push_back(json::array({r.holder.number(), r.owner.number(), r.group, r.rides}));
  if (st.early_sale_turn >= 0) state["early_sale_turn"] = st.early_sale_turn;
  if (!st.partnerships.empty()) {
    state["partnerships"] = json::array();
    for (const auto& f : st.partnerships)
      state["partnerships"].push_back(
          json::array({f.holder.number(), f.partner.number(), f.group, f.share_percent}));
  }
  if (!st.table_cards.empty()) {
    state["table_cards"] = json::array();
    for (const auto& c : st.table_cards)
      state["table_cards"].push_back(json::array({c.uid, player_wire(c.player), c.deck, c.card}));
  }
  if (!st.confirmed_postings.empty()) state["confirmed_postings"] = st.confirmed_postings;
  state["house_credits"] = st.house_credits;
  state["draft_picks"] = seat_numbers(st.draft_picks);
  state["hotel_credits"] = st.hotel_credits;

  json decks = json::array();
  for (const auto& d : decks_) decks.push_back(d.order());
  json steps = json::array();
  // Stored next step first (steps_ keeps the next step last).
  for (auto it = steps_.rbegin(); it != steps_.rend(); ++it) steps.push_back(step_json(*edition_, *it));
  json out{{"format", kSnapshotFormat},
           {"edition", edition_->id},
           {"inputs", input_count()},
           {"postings", posting_count()},
           {"signature", fmt::format("{:016x}", signature())},
           {"rng", rng_},
           {"input_index", input_index_},
           {"extra_roll_blocked", extra_roll_blocked_},
           {"turn_doubles", turn_doubles_},
           {"decks", std::move(decks)},
           {"steps", std::move(steps)},
           {"state", std::move(state)}};
  return out.dump();
}

std::expected<Game, std::string> Game::restore(std::shared_ptr<const Edition> edition, const Setup& setup,
                                               std::string_view snapshot, std::vector<Posting> journal,
                                               std::optional<std::vector<Input>> history) {
  // A fresh start checks the setup against the edition and gives the rules in force; the rest is replaced.
  auto started = Game::start(std::move(edition), setup);
  if (!started) return std::unexpected(started.error());
  Game g = std::move(*started);
  const Edition& ed = *g.edition_;
  json j = json::parse(snapshot, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::unexpected("the snapshot is not a JSON object");
  try {
    if (j.at("format").get<int>() != kSnapshotFormat) {
      return std::unexpected(fmt::format("the snapshot has format {}, this engine writes format {}",
                                         j.at("format").get<int>(), kSnapshotFormat));
    }
    if (j.at("edition").get<std::string>() != ed.id) {
      return std::unexpected(fmt::format("the snapshot is of edition '{}', the game of '{}'",
                                         j.at("edition").get<std::string>(), ed.id));
    }
    const auto input_count = j.at("inputs").get<std::size_t>();
    if (j.at("postings").get<std::size_t>() != journal.size()) {
      return std::unexpected(fmt::format("the snapshot was taken after {} postings; {} postings were given",
                                         j.at("postings").get<std::size_t>(), journal.size()));
    }
    if (history && history->size() != input_count) {
      return std::unexpected(fmt::format("the snapshot was taken after {} inputs; {} inputs were given",
                                         input_count, history->size()));
    }
    const json& sj = j.at("state");
    const std::size_t seats = setup.players.size();
    GameState st;
    for (const auto& p : sj.at("players")) st.players.push_back(player_from(ed, p));
    if (st.players.size() != setup.players.size())
      return std::unexpected("the snapshot's players are not the setup's players");
    for (std::size_t i = 0; i < st.players.size(); ++i)
      if (st.players[i].name != setup.players[i].name)
        return std::unexpected(fmt::format("the snapshot's player {} is '{}', the setup's '{}'", i,
                                           st.players[i].name, setup.players[i].name));
    for (const auto& s : sj.at("spaces")) {
      st.spaces.push_back(SpaceState{nobody_or_seat_from(s.at(0), seats), s.at(1).get<int>(),
                                     s.at(2).get<bool>(), s.at(3).get<bool>(),
                                     s.size() > 4 && s.at(4).get<bool>()});
    }
    if (st.spaces.size() != ed.spaces.size())
      return std::unexpected("the snapshot's board is not the edition's board");
    st.bank_houses = sj.at("bank_houses").get<int>();
    st.bank_hotels = sj.at("bank_hotels").get<int>();
    st.current = seat_from(sj.at("current"), seats);
    for (const auto& q : sj.at("pending")) st.pending.push_back(question_from(ed, q, seats));
    if (const json& a = sj.at("auction"); !a.is_null()) {
      st.auction = Auction{enum_from(a.at(0), Auction::Item::hotel, "auction item"),
                           space_from_wire(a.at(1).get<int>()), nobody_or_seat_from(a.at(2), seats),
                           a.at(3).get<Money>(), a.at(4).get<int>()};
    }
    st.last_d1 = sj.at("dice").at(0).get<int>();
    st.last_d2 = sj.at("dice").at(1).get<int>();
    st.doubles_in_row = sj.at("doubles_in_row").get<int>();
    st.bankruptcies = sj.at("bankruptcies").get<int>();
    st.turns = sj.at("turns").get<int>();
    st.ended = sj.at("ended").get<bool>();
    st.winner = nobody_or_seat_from(sj.at("winner"), seats);
    // Snapshots written before shared wins existed name the one winner only.
    if (sj.contains("winners"))
      st.winners = seats_from(sj.at("winners"), seats);
    else if (st.winner)
      st.winners = {*st.winner};
    for (const auto& r : sj.at("free_rides")) {
      st.free_rides.push_back(GameState::FreeRide{seat_from(r.at(0), seats), seat_from(r.at(1), seats),
                                                  r.at(2).get<int>(), r.at(3).get<int>()});
    }
    if (sj.contains("early_sale_turn")) st.early_sale_turn = sj.at("early_sale_turn").get<int>();
    if (sj.contains("partnerships"))
      for (const auto& f : sj.at("partnerships"))
        st.partnerships.push_back(GameState::Partnership{seat_from(f.at(0), seats), seat_from(f.at(1), seats),
                                                         f.at(2).get<int>(), f.at(3).get<int>()});
    if (sj.contains("table_cards"))
      for (const auto& c : sj.at("table_cards"))
        st.table_cards.push_back({c.at(0).get<std::string>(), nobody_or_seat_from(c.at(1), seats),
                                  c.at(2).get<std::string>(), c.at(3).get<std::string>()});
    if (sj.contains("confirmed_postings"))
      st.confirmed_postings = sj.at("confirmed_postings").get<std::vector<std::int64_t>>();
    auto credits = [&](const char* key) {
      auto counts = sj.at(key).get<std::vector<int>>();
      if (counts.size() != seats) throw std::out_of_range(fmt::format("{} are not one per player", key));
      return ById<PlayerId, int>(counts.begin(), counts.end());
    };
    st.house_credits = credits("house_credits");
    if (sj.contains("draft_picks")) st.draft_picks = seats_from(sj.at("draft_picks"), seats);
    st.hotel_credits = credits("hotel_credits");
    st.postings = std::move(journal);

    std::vector<DeckState> decks;
    for (const auto& d : j.at("decks")) decks.push_back(DeckState{d.get<std::vector<int>>()});
    if (decks.size() != ed.decks.size()) return std::unexpected("the snapshot's decks are not the edition's");
    for (std::size_t d = 0; d < decks.size(); ++d)
      for (std::size_t i = 0; i < decks[d].size(); ++i)
        if (int c = decks[d][i]; c < 0 || c >= static_cast<int>(ed.decks[d].cards.size()))
          return std::unexpected(
              fmt::format("the snapshot's deck {} holds card {}, not in the edition", d, c));
    std::vector<Step> steps;
    for (const auto& s : j.at("steps")) steps.push_back(step_from(ed, s, seats));
    std::vector<std::pair<std::size_t, std::size_t>> ranges;
    if (history) {
      auto found = postings_by_input(st.postings, input_count);
      if (!found) return std::unexpected(found.error());
      ranges = std::move(*found);
    }

    g.state_ = std::move(st);
    g.recount_owned_lots();
    g.decks_ = std::move(decks);
    std::reverse(steps.begin(), steps.end());  // the next step last
    g.steps_ = std::move(steps);
    g.postings_by_input_ = std::move(ranges);
    if (history) {
      g.inputs_ = std::move(*history);
      g.history_offset_ = 0;
    } else {
      g.inputs_.clear();
      g.history_offset_ = input_count;
    }
    g.rng_ = j.at("rng").get<std::uint64_t>();
    g.input_index_ = j.at("input_index").get<int>();
    g.extra_roll_blocked_ = j.at("extra_roll_blocked").get<bool>();
    g.turn_doubles_ = j.at("turn_doubles").get<bool>();
    if (auto problems = g.invariant_violations(); !problems.empty())
      return std::unexpected(fmt::format("the restored game is inconsistent: {}", problems.front()));
    if (fmt::format("{:016x}", g.signature()) != j.at("signature").get<std::string>())
      return std::unexpected("the restored game does not match the snapshot's signature");
  } catch (const json::exception& e) {
    return std::unexpected(fmt::format("the snapshot is malformed: {}", e.what()));
  } catch (const std::out_of_range& e) {
    return std::unexpected(fmt::format("the snapshot is malformed: {}", e.what()));
  }
  return g;
}

}  // namespace bb::rules
