#include "table/table.h"

#include <fmt/format.h>

#include <algorithm>

#include "table/table_state.h"

namespace bb::table {

bool is_storage_failure(const ledger::LedgerError& e) {
  using K = ledger::LedgerError::Kind;
  return e.kind == K::storage_full || e.kind == K::io || e.kind == K::damaged || e.kind == K::diverged;
}

Table::State::State(GameStore& s, TableSettings t) : store(s), settings(std::move(t)) {
  for (const auto& c : settings.cards)
    if (c.role.kind != CardRole::Kind::player) (void)registry.add(c.uid, c.role, "");
}

std::string Table::State::name(rules::Account account) const {
  if (account.is_bank()) return "the bank";
  const auto* g = game();
  return g ? g->account_name(account) : fmt::format("player {}", account.player()->number() + 1);
}

std::string Table::State::name(std::optional<rules::PlayerId> player) const {
  return player ? name(*player) : std::string("?");
}

std::string Table::State::space_name(std::optional<rules::SpaceId> space) const {
  const auto* g = game();
  if (!g || !space || space->number() < 0 || space->index() >= g->edition().spaces.size()) return "?";
  return g->edition().spaces[*space].name;
}

std::string Table::State::money(rules::Money amount) const {
  const auto* g = game();
  return g ? g->edition().format_money(amount) : fmt::format("{}", amount);
}

std::string Table::State::token_name(rules::PlayerId player) const {
  const auto* g = game();
  if (!g || player.index() >= g->state().players.size()) return "token";
  const auto& p = g->state().players[player];
  return p.token.empty() ? fmt::format("{}'s token", p.name) : fmt::format("the {}", p.token);
}

// Seats the current game's players: their cards from the setup, fresh expected and seen positions.
void Table::State::seat_players() {
  registry.clear_players();
  const auto* g = game();
  const std::size_t n = g ? g->state().players.size() : 0;
  expected.assign(n, std::nullopt);
  seen.assign(n, std::nullopt);
  learned.clear();
  unwatched.clear();
  learning = false;
  one_at_a_time = false;
  prompting.reset();
  questions.clear();
  if (!g) return;
  for (rules::PlayerId seat : g->state().players.ids()) {
    const auto& p = g->setup().players[seat.index()];
    if (!p.card.empty()) (void)registry.add(p.card, {CardRole::Kind::player, seat, {}, {}}, p.name);
    for (const auto& c : settings.cards)
      if (c.role.kind == CardRole::Kind::player && c.owner == p.name)
        (void)registry.add(c.uid, {CardRole::Kind::player, seat, {}, {}}, p.name);
  }
  // The cards registered at the table during this game, stored with it (RegisterCard): a resumed game knows
  // them again.
  for (const auto& c : g->state().table_cards) {
    if (registry.find(c.uid)) continue;
    if (c.player && c.player->index() < n) {
      const auto& owner = g->setup().players[c.player->index()].name;
      (void)registry.add(c.uid, {CardRole::Kind::player, c.player, {}, {}}, owner);
      if (std::none_of(settings.cards.begin(), settings.cards.end(),
                       [&](const RegisteredCard& k) { return k.uid == c.uid; }))
        settings.cards.push_back({c.uid, {CardRole::Kind::player, c.player, {}, {}}, owner});
    } else {
      const CardRole role = c.deck.empty()
                                ? CardRole{CardRole::Kind::banker, std::nullopt, {}, {}}
                                : CardRole{CardRole::Kind::deck_card, std::nullopt, c.deck, c.card};
      (void)registry.add(c.uid, role, {});
      if (std::none_of(settings.cards.begin(), settings.cards.end(),
                       [&](const RegisteredCard& k) { return k.uid == c.uid; }))
        settings.cards.push_back({c.uid, role, {}});
    }
  }
}

// After a resume: the payments the rules made since the last throw whose payers have not confirmed them
// (no ConfirmPayment stored) are asked again.
void Table::State::ask_unconfirmed_again(Reaction& r) {
  const auto* g = game();
  if (!g || g->state().ended) return;
  auto is_roll = [](const rules::Input& in) { return std::holds_alternative<rules::Roll>(in); };
  // Restored from a snapshot taken after the last throw: the inputs since it are needed, so the game is
  // rebuilt from its whole log (rare: only such a snapshot costs the replay).
  if (!g->has_history() && std::none_of(g->inputs().begin(), g->inputs().end(), is_roll)) {
    if (!store.load_history()) return;
    g = game();
    if (!g) return;
  }
  const auto& inputs = g->inputs();
  const auto last_roll = std::find_if(inputs.rbegin(), inputs.rend(), is_roll);
  if (last_roll == inputs.rend()) return;
  const std::size_t offset = g->input_count() - inputs.size();
  const std::size_t first = static_cast<std::size_t>(inputs.rend() - last_roll) - 1;
  // Only a throw or a draw moves money nobody confirmed (the rest was confirmed on the screen).
  std::set<int> asking;
  for (std::size_t i = first; i < inputs.size(); ++i)
    if (std::holds_alternative<rules::Roll>(inputs[i]) || std::holds_alternative<rules::Draw>(inputs[i]))
      asking.insert(static_cast<int>(offset + i));
  const auto& journal = g->state().postings;
  // Postings an undo took back keep their input's number: only those after the newest undo count.
  std::int64_t after = 0;
  for (const auto& p : journal)
    if (p.memo == rules::Memo::undo) after = p.seq;
  std::vector<rules::Posting> postings;
  for (const auto& p : journal)
    if (p.seq > after && asking.contains(p.input)) postings.push_back(p);
  payments_to_confirm(r, postings);
}

bool Table::State::record(Reaction& r, const rules::Input& input, ledger::InputMeta meta,
                          bool payments_need_tap) {
  const std::string id = meta.id;
  auto rec = store.record(input, meta);
  if (!rec) {
    if (is_storage_failure(rec.error())) {
      paused = rec.error().message;
      r.paused = paused;
    } else {
      r.messages.push_back(rec.error().message);
      r.cues.push_back(display::Cue::refused);
    }
    r.snapshot_changed = true;
    return false;
  }
  paused.reset();
  r.recorded.push_back(*rec);
  r.snapshot_changed = true;
  if (rec->warning) r.messages.push_back(*rec->warning);
  if (!rec->duplicate) after_recorded(r, *rec, id, payments_need_tap);
  return true;
}

void Table::State::after_recorded(Reaction& r, const ledger::Recorded& rec, const std::string& id,
                                  bool payments_need_tap) {
  const auto* g = game();
  if (!g) return;
  for (const auto& ev : rec.events) {
    if ((ev.kind == rules::Event::Kind::moved || ev.kind == rules::Event::Kind::jailed) && ev.player &&
        ev.player->index() < expected.size())
      expected[*ev.player] = ev.to_space;
    if (ev.kind == rules::Event::Kind::undone) std::fill(expected.begin(), expected.end(), std::nullopt);
  }
  // A token the camera already sees where it must go needs nothing more.
  for (rules::PlayerId p : expected.ids())
    if (expected[p] && seen[p] == expected[p]) expected[p].reset();
  if (payments_need_tap) payments_to_confirm(r, rec.postings);
  if (rec.game_over || g->state().ended) {
    questions.clear();
    r.messages.push_back("The game is over: the standings are on the screen");
  }
  follow_up(r, id);
}

void Table::State::follow_up(Reaction& r, const std::string& id) {
  const auto* g = game();
  if (!g) return;
  const auto& st = g->state();
  // The deal timer runs while an auction with one runs.
  if (st.auction && st.auction->timer_s > 0 && deal_timer == 0) {
    deal_timer = ++deal_arms;
    r.timers.push_back({TimerId::deal, TimerRequest::Action::arm,
                        static_cast<std::uint64_t>(st.auction->timer_s) * 1000,
                        fmt::format("timer:deal:{}", deal_timer)});
  } else if (!st.auction && deal_timer != 0) {
    deal_timer = 0;
    r.timers.push_back({TimerId::deal, TimerRequest::Action::cancel, 0, {}});
  }
  // A card to draw: the table's virtual decks draw it at once; otherwise the player picks or taps it.
  if (!st.pending.empty() && st.pending.front().kind == rules::QuestionKind::draw && !st.ended) {
    if (settings.draw_mode == DrawMode::virtual_decks) {
      const rules::DeckId deck = *st.pending.front().deck;
      record(r, rules::Draw{deck, std::nullopt}, {id + ":draw", "table", {}, {}}, true);
    } else if (!find(display::TableQuestion::Kind::pick_card)) {
      pick_card_question(r);
    }
  }
}

Reaction Table::State::dice(const DiceThrown& e) {
  Reaction r;
  if (!game()) {
    r.messages.push_back("No game is running: start one on the setup screen");
    return r;
  }
  if (!e.id.empty() && store.has_input(e.id)) return r;  // this throw is stored already
  if (!questions.empty()) {
    const auto& q = questions.front().shown;
    r.messages.push_back(fmt::format("Not now: {} first", q.title));
    r.cues.push_back(display::Cue::refused);
    return r;
  }
  rules::Roll roll{e.d1, e.d2};
  const std::string source = e.device.empty() ? "dice" : e.device;
  record(r, roll, {e.id, source, {}, {}}, true);
  refresh();
  return r;
}

Reaction Table::State::apply(const display::ApplyInput& a, const std::string& id) {
  Reaction r;
  const auto* g = game();
  if (!g) {
    r.messages.push_back("No game is running: start one on the setup screen");
    return r;
  }
  if (!id.empty() && store.has_input(id)) return r;
  const bool correction =
      std::holds_alternative<rules::Undo>(a.input) || std::holds_alternative<rules::Adopt>(a.input);
  ledger::InputMeta meta{id, "touch", {}, {}};
  if (correction) {
    const bool banker =
        a.authorised_by == "pin" ||
        (registry.find(a.authorised_by) && registry.find(a.authorised_by)->kind == CardRole::Kind::banker);
    if (!banker) {
      r.messages.push_back("A correction needs the banker's card or PIN: ask the banker");
      r.cues.push_back(display::Cue::refused);
      return r;
    }
    if (a.reason.empty()) {
      r.messages.push_back("Say why: a correction is kept in the ledger with its reason");
      r.cues.push_back(display::Cue::refused);
      return r;
    }
    meta.authorised_by = a.authorised_by == "pin" ? "pin" : *CardRegistry::normalise(a.authorised_by);
    meta.reason = a.reason;
  }
  if (const auto* bid = std::get_if<rules::Bid>(&a.input)) {
    const auto& players = g->state().players;
    if (bid->player.index() < players.size() && bid->amount > players[bid->player].cash) {
      r.messages.push_back(fmt::format("{} holds only {}: bid at most that, or raise money first",
                                       name(bid->player), money(players[bid->player].cash)));
      r.cues.push_back(display::Cue::refused);
      return r;
    }
  }
  // A throw or a draw entered on the screen moves money nobody confirmed yet; the rest was confirmed on the
  // screen (by card or button) before it came here.
  const bool unconfirmed =
      std::holds_alternative<rules::Roll>(a.input) || std::holds_alternative<rules::Draw>(a.input);
  if (std::holds_alternative<rules::Roll>(a.input) && !questions.empty()) {
    r.messages.push_back(fmt::format("Not now: {} first", questions.front().shown.title));
    r.cues.push_back(display::Cue::refused);
    return r;
  }
  if (record(r, a.input, meta, unconfirmed)) {
    if (std::holds_alternative<rules::Undo>(a.input)) questions.clear();
    if (std::holds_alternative<rules::Draw>(a.input))
      if (auto* q = find(display::TableQuestion::Kind::pick_card)) {
        close(q->shown.id);
        follow_up(r, id);
      }
  }
  refresh();
  return r;
}

Reaction Table::State::start_game(const display::StartGame& start) {
  Reaction r;
  // The colours chosen on the setup screen are stored with the players, so a resumed game shows them again.
  rules::Setup setup = start.setup;
  for (std::size_t i = 0; i < setup.players.size() && i < start.colours.size(); ++i)
    setup.players[i].colour = start.colours[i];
  if (setup.players.size() < 2) {
    r.messages.push_back("A game needs at least two players: register each player's card");
    return r;
  }
  // One uid stands for one player (and never for the banker or a deck card).
  CardRegistry check;
  for (const auto& c : settings.cards)
    if (c.role.kind != CardRole::Kind::player) (void)check.add(c.uid, c.role, "");
  for (std::size_t i = 0; i < setup.players.size(); ++i) {
    const auto& p = setup.players[i];
    if (p.card.empty()) continue;
    if (auto ok =
            check.add(p.card, {CardRole::Kind::player, rules::PlayerId{static_cast<int>(i)}, {}, {}}, p.name);
        !ok) {
      r.messages.push_back(fmt::format("{} cannot have card {}: {}", p.name, p.card, ok.error()));
      r.cues.push_back(display::Cue::refused);
      return r;
    }
  }
  auto started = store.start(setup);
  if (!started) {
    if (is_storage_failure(started.error())) r.paused = paused = started.error().message;
    r.messages.push_back(started.error().message);
    return r;
  }
  paused.reset();
  seat_players();
  colours = start.colours;
  status = fmt::format("Game {} started", *started);
  r.snapshot_changed = true;
  r.cards_changed = true;
  if (camera) start_learning(r);
  follow_up(r, fmt::format("start:{}", *started));
  refresh();
  return r;
}

Reaction Table::State::resume(std::optional<ledger::GameId> which) {
  Reaction r;
  if (!which) which = store.newest_unfinished();
  if (!which) {
    status = "No unfinished game: start a new one";
    refresh();
    return r;
  }
  auto report = store.resume(*which);
  if (!report) {
    if (is_storage_failure(report.error())) r.paused = paused = report.error().message;
    r.messages.push_back(report.error().message);
    refresh();
    return r;
  }
  seat_players();
  deal_timer = 0;
  ask_unconfirmed_again(r);
  const auto* g = game();
  if (g) {
    // The colours stored with the players at setup (older games have none: index order).
    std::vector<int> stored;
    for (const auto& p : g->setup().players)
      if (p.colour >= 0) stored.push_back(p.colour);
    if (stored.size() == g->setup().players.size()) colours = stored;
  }
  if (colours.size() != expected.size()) colours.clear();  // another game's colours: index order
  status = g && g->state().ended ? fmt::format("Game {}, finished after {} inputs", *which, report->inputs)
                                 : fmt::format("Resumed game {} from input {}", *which, report->inputs);
  if (!report->differences.empty())
    status += fmt::format(" ({} difference(s) with the stored balances: ask the banker)",
                          report->differences.size());
  r.messages.push_back(status);
  r.snapshot_changed = true;
  r.cards_changed = true;
  follow_up(r, fmt::format("resume:{}:{}", *which, report->inputs));
  refresh();
  return r;
}

Reaction Table::State::screen(const ScreenIntent& e) {
  return std::visit(
      [&](const auto& in) -> Reaction {
        using T = std::decay_t<decltype(in)>;
        if constexpr (std::is_same_v<T, display::ApplyInput>) return apply(in, e.id);
        if constexpr (std::is_same_v<T, display::StartGame>) return start_game(in);
        if constexpr (std::is_same_v<T, display::ResumeGame>) return resume(std::nullopt);
        if constexpr (std::is_same_v<T, display::AnswerQuestion>) return answer(in, e.id);
        if constexpr (std::is_same_v<T, display::RequestHousePayment>) return house_payment(in);
        return Reaction{};  // sound, calibration: the daemon's, not the table's
      },
      e.intent);
}

Reaction Table::State::timer(const TimerFired& e) {
  Reaction r;
  if (e.which != TimerId::deal) return r;
  const auto* g = game();
  if (!g || deal_timer == 0 || e.id != fmt::format("timer:deal:{}", deal_timer)) return r;  // a stale timer
  deal_timer = 0;
  if (!g->state().auction) return r;
  r.messages.push_back("The deal timer rang: the auction closes");
  record(r, rules::Close{}, {e.id, "timer", {}, {}}, false);
  refresh();
  return r;
}

Reaction Table::State::device(const DeviceHealth& e) {
  Reaction r;
  auto it =
      std::find_if(devices.begin(), devices.end(), [&](const auto& d) { return d.name == e.status.name; });
  if (it == devices.end())
    devices.push_back(e.status);
  else
    *it = e.status;
  const bool ok = e.status.state == display::DeviceStatus::State::ok;
  if (e.status.kind == display::DeviceStatus::Kind::camera) {
    if (camera && !ok) {
      r.messages.push_back("The camera is gone: the dice alone decide; " + e.status.what_to_do);
      std::fill(seen.begin(), seen.end(), std::nullopt);
      // Its questions can no longer be answered by moving a token: the dice stand.
      std::erase_if(questions, [](const OpenQuestion& q) {
        using K = display::TableQuestion::Kind;
        return q.shown.kind == K::camera_mismatch || q.shown.kind == K::token_moved ||
               q.shown.kind == K::learn_tokens;
      });
      // A learning under way ends with its question (one at a time included: once the camera is back, the
      // tokens it knows are cross-checked again rather than taken for tokens being put down).
      learning = false;
      one_at_a_time = false;
      prompting.reset();
    }
    camera = ok;
  } else if (e.status.kind == display::DeviceStatus::Kind::card_reader) {
    // The service names each reader ("Card reader (RC522)", "Card reader (door)"): a tap is possible while
    // any of them works.
    reader = std::any_of(devices.begin(), devices.end(), [](const display::DeviceStatus& d) {
      return d.kind == display::DeviceStatus::Kind::card_reader &&
             d.state == display::DeviceStatus::State::ok;
    });
    for (auto& q : questions) set_payment_options(q.shown, reader);
  }
  r.snapshot_changed = true;
  refresh();
  return r;
}

void Table::State::refresh() {
  const auto* g = game();
  TableView v;
  v.game = g;
  v.game_id = store.current();
  v.expected_positions = expected;
  v.seen_positions = seen;
  v.question = questions.empty() ? std::nullopt : std::optional(questions.front().shown);
  v.cards = registry.all();
  v.devices = devices;
  v.camera = camera;
  v.status = status;
  v.paused = paused;
  v.colours = colours;
  v.learning = {
      learning, one_at_a_time, {learned.begin(), learned.end()}, {unwatched.begin(), unwatched.end()}};
  for (const auto& q : questions)
    if (q.paid) v.unconfirmed.push_back(*q.paid);
  if (g) {
    const auto& st = g->state();
    for (rules::PlayerId p : st.players.ids()) {
      const auto& ps = st.players[p];
      // Several winners share a tie (rules: the richest share the win).
      const bool won = st.ended && std::ranges::find(st.winners, p) != st.winners.end();
      v.standings.push_back({p, ps.name, ps.cash, g->worth(p), ps.bankrupt, won});
    }
    std::stable_sort(v.standings.begin(), v.standings.end(), [](const Standing& x, const Standing& y) {
      if (x.bankrupt != y.bankrupt) return !x.bankrupt;
      return x.worth > y.worth;
    });
  } else {
    v.unfinished_game = store.newest_unfinished().has_value();
  }
  Awaiting& a = v.awaiting;
  using K = Awaiting::Kind;
  if (paused) {
    a = {K::paused, std::nullopt, std::nullopt, *paused};
  } else if (!g) {
    a = {K::setup, std::nullopt, std::nullopt, "start a game on the setup screen"};
  } else if (g->state().ended) {
    a = {K::game_over, g->state().winner, std::nullopt, "the game is over"};
  } else if (!questions.empty()) {
    const auto& q = questions.front().shown;
    using QK = display::TableQuestion::Kind;
    if (q.kind == QK::learn_tokens)
      a = {K::learn_tokens, std::nullopt, std::nullopt, q.text};
    else if ((q.kind == QK::confirm_payment || q.kind == QK::house_payment) && reader)
      a = {K::tap_card, q.banker ? std::nullopt : q.player, std::nullopt, q.text};
    else
      a = {K::answer_question, q.player, q.space, q.text};
  } else if (g->state().auction) {
    a = {K::bids, std::nullopt, g->state().auction->space, "bids by card tap or keypad"};
  } else if (!g->state().pending.empty() && g->state().pending.front().kind != rules::QuestionKind::roll) {
    const auto& q = g->state().pending.front();
    a = {K::rules_question, q.player, q.space, std::string(rules::question_name(q.kind))};
  } else {
    a = {K::throw_dice, g->state().pending.empty() ? g->state().current : g->state().pending.front().player,
         std::nullopt, "throw the dice"};
    if (camera)
      for (rules::PlayerId p : expected.ids())
        if (expected[p]) {
          a = {K::move_token, p, expected[p], "move the token"};
          break;
        }
  }
  view = std::move(v);
}

Table::Table(GameStore& store, TableSettings settings)
    : s_(std::make_unique<State>(store, std::move(settings))) {
  s_->refresh();
}
Table::~Table() = default;

Reaction Table::start_up() { return s_->resume(std::nullopt); }

Reaction Table::reload_settings(TableSettings fresh) {
  auto named = [&fresh](const std::string& uid) {
    return std::any_of(fresh.cards.begin(), fresh.cards.end(),
                       [&uid](const RegisteredCard& c) { return c.uid == uid; });
  };
  for (const auto& old : s_->settings.cards) {
    if (named(old.uid)) continue;
    if (old.role.kind == CardRole::Kind::banker) {
      s_->registry.remove(old.uid);
      continue;
    }
    fresh.cards.push_back(old);  // registered at the table: kept
  }
  for (const auto& c : fresh.cards) {
    if (c.role.kind == CardRole::Kind::player) continue;  // players' cards come with their game
    if (s_->registry.find(c.uid) == c.role) continue;
    s_->registry.remove(c.uid);
    (void)s_->registry.add(c.uid, c.role, "");
  }
  s_->settings = std::move(fresh);
  s_->refresh();
  Reaction r;
  r.snapshot_changed = true;
  return r;
}

Reaction Table::open_game(ledger::GameId game) {
  Reaction r = s_->resume(game);
  s_->refresh();
  return r;
}

Reaction Table::learn_tokens_again() {
  Reaction r;
  const auto* g = s_->game();
  if (!g || g->state().ended || !s_->camera || s_->learning) return r;
  s_->start_learning(r, true);
  r.snapshot_changed = true;
  s_->refresh();
  return r;
}

Reaction Table::restore_learning(const TokenLearning& kept) {
  Reaction r;
  const auto* g = s_->game();
  if (!g || g->state().ended) return r;
  s_->restore_learning(r, kept);
  r.snapshot_changed = true;
  s_->refresh();
  return r;
}

Reaction Table::handle(const Event& event) {
  Reaction r = std::visit(
      [&](const auto& e) -> Reaction {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, DiceThrown>) return s_->dice(e);
        if constexpr (std::is_same_v<T, CardTapped>) return s_->card(e);
        if constexpr (std::is_same_v<T, TokenReport>) return s_->token(e);
        if constexpr (std::is_same_v<T, ScreenIntent>) return s_->screen(e);
        if constexpr (std::is_same_v<T, TimerFired>) return s_->timer(e);
        if constexpr (std::is_same_v<T, DeviceHealth>) return s_->device(e);
      },
      event);
  s_->refresh();
  if (r.question) r.snapshot_changed = true;
  return r;
}

const TableView& Table::view() const { return s_->view; }

void Table::fill(display::Snapshot& snapshot) const {
  const auto& v = s_->view;
  snapshot.game = v.game;
  snapshot.table_question = v.question;
  snapshot.expected_positions = v.expected_positions;
  snapshot.seen_positions = v.seen_positions;
  if (!v.devices.empty()) snapshot.devices = v.devices;
  snapshot.table_status = v.paused ? *v.paused : v.status;
  snapshot.unfinished_game = v.unfinished_game;
  if (!v.colours.empty()) snapshot.colours = v.colours;
}

const CardRegistry& Table::cards() const { return s_->registry; }
const TableSettings& Table::settings() const { return s_->settings; }
std::vector<ledger::GameSummary> Table::games() { return s_->store.list(); }

std::vector<std::string> Table::invariant_violations() const {
  std::vector<std::string> out;
  const auto* g = s_->game();
  const int n = g ? static_cast<int>(g->state().players.size()) : 0;
  const int board = g ? static_cast<int>(g->edition().spaces.size()) : 0;
  for (const auto& c : s_->registry.all())
    if (c.role.kind == CardRole::Kind::player && (!c.role.player || c.role.player->number() >= n))
      out.push_back(fmt::format("card {} belongs to player {}, who is not seated", c.uid,
                                rules::player_wire(c.role.player)));
  for (rules::PlayerId p : s_->expected.ids())
    if (s_->expected[p] && s_->expected[p]->number() >= board)
      out.push_back(fmt::format("player {} is expected on space {}, off the board", p.number(),
                                s_->expected[p]->number()));
  for (const auto& q : s_->questions)
    if ((q.shown.player && q.shown.player->number() >= n) || q.shown.id.empty())
      out.push_back(fmt::format("question '{}' is malformed", q.shown.title));
  if (s_->expected.size() != static_cast<std::size_t>(n))
    out.push_back("expected positions not one per player");
  return out;
}

}  // namespace bb::table
