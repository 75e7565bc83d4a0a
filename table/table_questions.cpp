// The table's own questions: asking, answering, and the payments that wait for a tap.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "table/table_state.h"

namespace bb::table {
namespace {
using QK = display::TableQuestion::Kind;

// "3,4" -> {3, 4}
std::optional<std::pair<int, int>> parse_dice(std::string_view text) {
  const auto comma = text.find(',');
  if (comma == std::string_view::npos) return std::nullopt;
  int d1 = 0, d2 = 0;
  const auto a = text.substr(0, comma), b = text.substr(comma + 1);
  if (std::from_chars(a.data(), a.data() + a.size(), d1).ec != std::errc{} ||
      std::from_chars(b.data(), b.data() + b.size(), d2).ec != std::errc{})
    return std::nullopt;
  return std::pair{d1, d2};
}

// An answer's value holds what its option asked for, in order, separated by ';' ("3,4;1234": dice, PIN).
std::vector<std::string> split_value(const std::string& value) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const auto semi = value.find(';', start);
    out.push_back(value.substr(start, semi == std::string::npos ? std::string::npos : semi - start));
    if (semi == std::string::npos) return out;
    start = semi + 1;
  }
}

// "2" of a "player:2" answer -> the seat, when it is one of `players`.
std::optional<rules::PlayerId> seat_option(std::string_view text, std::size_t players) {
  int number = -1;
  if (std::from_chars(text.data(), text.data() + text.size(), number).ec != std::errc{} || number < 0 ||
      static_cast<std::size_t>(number) >= players)
    return std::nullopt;
  return rules::PlayerId{number};
}

bool refuse(Reaction& r, std::string message) {
  r.messages.push_back(std::move(message));
  r.cues.push_back(display::Cue::refused);
  return false;
}
}  // namespace

void set_payment_options(display::TableQuestion& q, bool reader) {
  if (q.kind != QK::confirm_payment && q.kind != QK::house_payment) return;
  // With a working reader the payer's card answers; otherwise the screen does (the banker's PIN for the
  // bank).
  q.options.clear();
  if (!reader || q.banker)
    q.options.push_back({"confirm", q.banker ? "Banker: enter the PIN" : "Confirm", false, q.banker});
  if (q.kind == QK::house_payment) q.options.push_back({"cancel", "Cancel", false, false});
}

OpenQuestion* Table::State::find(QK kind, std::optional<rules::PlayerId> player) {
  for (auto& q : questions)
    if (q.shown.kind == kind && (!player || q.token_player == player || q.shown.player == player)) return &q;
  return nullptr;
}

void Table::State::close(const std::string& question_id) {
  std::erase_if(questions, [&](const OpenQuestion& q) { return q.shown.id == question_id; });
}

void Table::State::ask(Reaction& r, OpenQuestion q) {
  q.shown.id = fmt::format("q{}", next_question++);
  set_payment_options(q.shown, reader);
  r.question = q.shown;
  r.snapshot_changed = true;
  questions.push_back(std::move(q));
}

void Table::State::payments_to_confirm(Reaction& r, const std::vector<rules::Posting>& postings) {
  const auto* g = game();
  if (!g) return;
  const auto& confirmed = g->state().confirmed_postings;
  for (const auto& p : postings) {
    if (std::find(confirmed.begin(), confirmed.end(), p.seq) != confirmed.end()) continue;
    std::optional<rules::PlayerId> payer;
    if (p.from.player() && settings.payer_confirms_payments)
      payer = p.from.player();
    else if (p.from.is_bank() && p.to.player() && !settings.automatic_bank_payments)
      payer = p.to.player();  // money from the bank: its receiver acknowledges it
    if (!payer) continue;
    OpenQuestion q;
    q.paid = UnconfirmedPayment{p.from, p.to, p.amount, g->memo_text(p), p.seq};
    q.shown.kind = QK::confirm_payment;
    q.shown.player = payer;
    q.shown.amount = p.amount;
    q.shown.title = p.from.is_bank() ? "Money from the bank" : "A payment to confirm";
    q.shown.text =
        p.from.is_bank()
            ? fmt::format("The bank pays {} {} ({})", name(p.to), money(p.amount), g->memo_text(p))
            : fmt::format("{} pays {} {} ({})", name(p.from), name(p.to), money(p.amount), g->memo_text(p));
    ask(r, std::move(q));
  }
}

void Table::State::pick_card_question(Reaction& r) {
  const auto* g = game();
  const auto& pending = g->state().pending.front();
  if (!pending.deck) return;
  const auto* deck = &g->edition().decks[*pending.deck];
  OpenQuestion q;
  q.shown.kind = QK::pick_card;
  q.shown.title = fmt::format("{} draws a {} card", name(pending.player), deck->name);
  q.shown.text = settings.draw_mode == DrawMode::stickers
                     ? fmt::format("Tap the {} card on the reader, or pick it here", deck->name)
                     : fmt::format("Which {} card did {} draw?", deck->name, name(pending.player));
  std::vector<std::string> ids;
  for (const auto& c : deck->cards)
    if (std::find(ids.begin(), ids.end(), c.id) == ids.end()) {
      ids.push_back(c.id);
      q.shown.options.push_back({"card:" + c.id, c.text.empty() ? c.id : c.text, false, false});
    }
  q.shown.options.push_back({"table_draws", "Let the table draw", false, false});
  ask(r, std::move(q));
}

void Table::State::confirm_payment(Reaction& r, OpenQuestion& q, const std::string& id,
                                   const std::string& authorised_by) {
  const std::string question_id = q.shown.id;
  if (q.shown.kind == QK::confirm_payment) {
    // Stored, so a game resumed after a crash does not ask again; the tap's own id makes a re-delivered tap
    // harmless (it finds its input stored).
    const std::string text = q.shown.text;
    if (q.paid && q.paid->posting > 0 &&
        !record(r, rules::ConfirmPayment{q.paid->posting},
                {id, id.starts_with("touch") ? "touch" : "card", {}, {}}, false))
      return;
    r.messages.push_back(fmt::format("Confirmed: {}", text));
    r.cues.push_back(display::Cue::payment);
    r.snapshot_changed = true;
    close(question_id);
    return;
  }
  const auto payment = *q.payment;  // house_payment
  if (payment.from.is_bank() && authorised_by.empty()) {
    refuse(r, "A payment from the bank needs the banker's card or PIN");
    return;
  }
  ledger::InputMeta meta{id, authorised_by.empty() || authorised_by == "pin" ? "touch" : "card",
                         authorised_by, payment.reason};
  const std::string text = q.shown.text;
  if (record(r, payment, meta, false)) {
    close(question_id);
    r.messages.push_back(fmt::format("Paid: {}", text));
    r.cues.push_back(display::Cue::payment);
  }
}

Reaction Table::State::house_payment(const display::RequestHousePayment& p) {
  Reaction r;
  const auto* g = game();
  if (!g) {
    refuse(r, "No game is running: start one on the setup screen");
    return r;
  }
  const std::size_t n = g->state().players.size();
  auto valid = [n](rules::Account a) { return a.is_bank() || a.player()->index() < n; };
  if (!valid(p.from) || !valid(p.to) || p.from == p.to) {
    refuse(r, "A house-rule payment goes between two different players, or a player and the bank");
    return r;
  }
  if (p.amount <= 0) {
    refuse(r, "Enter the amount of the house-rule payment");
    return r;
  }
  if (p.reason.empty()) {
    refuse(r, "Say what the house-rule payment is for (\"Free Parking jackpot\")");
    return r;
  }
  OpenQuestion q;
  q.payment = rules::HousePayment{p.from, p.to, p.amount, p.reason};
  q.shown.kind = QK::house_payment;
  q.shown.player = p.from.player();
  q.shown.banker = p.from.is_bank();
  q.shown.amount = p.amount;
  q.shown.title = fmt::format("House rule: {}", p.reason);
  q.shown.text = fmt::format("{} pays {} {} ({})", p.from.is_bank() ? std::string("The bank") : name(p.from),
                             name(p.to), money(p.amount), p.reason);
  ask(r, std::move(q));
  return r;
}

void Table::State::settled_by_family(Reaction& r, rules::PlayerId player,
                                     std::optional<rules::SpaceId> space) {
  // The camera's question about the token is answered: the tracker takes the answer (TokenTracker::settle).
  if (camera && space) r.camera_settled = CameraSettled{player, *space};
}

Reaction Table::State::answer(const display::AnswerQuestion& a, const std::string& id) {
  Reaction r;
  auto it = std::find_if(questions.begin(), questions.end(),
                         [&](const auto& q) { return q.shown.id == a.question; });
  if (it == questions.end()) {
    refuse(r, "That question was answered already");
    return r;
  }
  const auto opt = std::find_if(it->shown.options.begin(), it->shown.options.end(),
                                [&](const auto& o) { return o.key == a.option; });
  if (opt == it->shown.options.end()) {
    refuse(r, fmt::format("'{}' is not an answer to \"{}\"", a.option, it->shown.title));
    return r;
  }
  const auto values = split_value(a.value);
  std::size_t next_value = 0;
  std::optional<std::pair<int, int>> dice;
  if (opt->needs_dice) {
    dice = parse_dice(next_value < values.size() ? values[next_value++] : std::string());
    if (!dice) {
      refuse(r, "Enter both dice");
      return r;
    }
  }
  if (opt->needs_pin) {
    const std::string pin = next_value < values.size() ? values[next_value++] : std::string();
    if (!settings.banker_pin_ok || !settings.banker_pin_ok(pin)) {
      refuse(r, "Wrong PIN: the banker must confirm this");
      return r;
    }
  }
  OpenQuestion q = *it;
  const std::string qid = q.shown.id;
  switch (q.shown.kind) {
    case QK::camera_mismatch: {
      // Asked about a token, so it names one.
      const rules::PlayerId p = q.token_player.value();
      if (a.option == "move_token") {
        r.messages.push_back(fmt::format("Move {} to {}", token_name(p), space_name(q.shown.expected)));
        close(qid);  // the camera sees it arrive (and the dice settle a doubt then): nothing settled yet
      } else if (a.option == "camera_wrong") {
        if (p.index() < expected.size()) expected[p].reset();
        r.messages.push_back(
            fmt::format("The dice stand: {} is on {}", token_name(p), space_name(q.shown.expected)));
        close(qid);
        settled_by_family(r, p, q.shown.expected);
      } else {  // enter_dice: the throw recorded was wrong; the banker takes it back and the right one goes
                // in
        const auto* g = game();
        if (g->inputs().empty() || !std::holds_alternative<rules::Roll>(g->inputs().back())) {
          refuse(r, "Something was recorded after that throw: undo it on the Ledger screen first");
          return r;
        }
        const std::string reason =
            fmt::format("the dice were wrong: {} and {} entered", dice->first, dice->second);
        if (!record(r, rules::Undo{}, {id + ":undo", "touch", "pin", reason}, false)) return r;
        questions.clear();
        record(r, rules::Roll{dice->first, dice->second}, {id + ":roll", "touch", {}, {}}, true);
      }
      break;
    }
    case QK::token_moved:
      if (a.option == "move_token")
        r.messages.push_back(fmt::format("Put {} back on {}", token_name(q.token_player.value()),
                                         space_name(q.shown.expected)));
      close(qid);
      // It never left ("The camera is wrong"): it stands where the game has it. One to put back is seen
      // going back.
      if (a.option == "camera_wrong") settled_by_family(r, q.token_player.value(), q.shown.expected);
      break;
    case QK::register_card:
      if (a.option == "ignore") {
        close(qid);
      } else if (a.option.starts_with("deck:")) {  // which card of that deck carries this sticker?
        const auto* deck = game()->edition().deck(a.option.substr(5));
        if (!deck) break;
        OpenQuestion which;
        which.uid = q.uid;
        which.shown.kind = QK::register_card;
        which.shown.title = fmt::format("Which {} card is it?", deck->name);
        which.shown.text = fmt::format("Card {} will draw this card whenever it is tapped", q.uid);
        std::vector<std::string> ids;
        for (const auto& c : deck->cards)
          if (std::find(ids.begin(), ids.end(), c.id) == ids.end()) {
            ids.push_back(c.id);
            which.shown.options.push_back(
                {fmt::format("sticker:{}:{}", deck->id, c.id), c.text.empty() ? c.id : c.text, false, false});
          }
        which.shown.options.push_back({"ignore", "Ignore it", false, false});
        close(qid);
        ask(r, std::move(which));
      } else if (a.option.starts_with("sticker:")) {
        const auto rest = a.option.substr(8);
        const auto colon = rest.find(':');
        const CardRole role{CardRole::Kind::deck_card, std::nullopt, rest.substr(0, colon),
                            rest.substr(colon + 1)};
        if (registry.find(q.uid)) {
          refuse(r, fmt::format("Card {} is registered already", q.uid));
          return r;
        }
        if (!record(r, rules::RegisterCard{q.uid, std::nullopt, role.deck, role.card}, {id, "touch", {}, {}},
                    false))
          return r;
        if (auto ok = registry.add(q.uid, role, {}); !ok) {
          refuse(r, ok.error());
          return r;
        }
        settings.cards.push_back({q.uid, role});
        r.cards_changed = true;
        r.messages.push_back(fmt::format("Card {} is now the {} card {}", q.uid, role.deck, role.card));
        close(qid);
      } else {
        CardRole role{CardRole::Kind::banker, std::nullopt, {}, {}};
        std::string owner = "the banker";
        if (a.option.starts_with("player:")) {
          // The option's seat was offered by this table (unknown_card); one not seated is refused.
          const auto seat = seat_option(a.option.substr(7), game()->state().players.size());
          if (!seat) {
            refuse(r, fmt::format("'{}' names no player at this table", a.option));
            return r;
          }
          role = {CardRole::Kind::player, seat, {}, {}};
          owner = name(*seat);
        }
        if (registry.find(q.uid)) {
          refuse(r, fmt::format("Card {} is registered already", q.uid));
          return r;
        }
        // Stored with the game, so a resumed game knows the card again.
        if (!record(r, rules::RegisterCard{q.uid, role.player, {}, {}}, {id, "touch", {}, {}}, false))
          return r;
        if (auto ok = registry.add(q.uid, role, owner); !ok) {
          refuse(r, ok.error());
          return r;
        }
        settings.cards.push_back({q.uid, role, role.kind == CardRole::Kind::player ? owner : std::string()});
        r.cards_changed = true;
        r.messages.push_back(role.kind == CardRole::Kind::banker
                                 ? fmt::format("Card {} is now the banker's card", q.uid)
                                 : fmt::format("Card {} is now {}'s card", q.uid, owner));
        close(qid);
      }
      break;
    case QK::house_payment:
      if (a.option == "cancel") {
        r.messages.push_back("House-rule payment cancelled");
        close(qid);
      } else {
        confirm_payment(r, *it, id, q.shown.banker ? "pin" : std::string());
      }
      break;
    case QK::confirm_payment:
      confirm_payment(r, *it, id, {});
      break;
    case QK::pick_card: {
      const auto* g = game();
      if (g->state().pending.empty() || g->state().pending.front().kind != rules::QuestionKind::draw) {
        close(qid);
        break;
      }
      const rules::DeckId deck = *g->state().pending.front().deck;
      std::optional<std::string> card;
      if (a.option.starts_with("card:")) card = a.option.substr(5);
      if (record(r, rules::Draw{deck, card}, {id, "touch", {}, {}}, true)) {
        close(qid);
        follow_up(r, id);
      }
      break;
    }
    case QK::learn_tokens:
      answer_learning(r, a.option, qid);
      break;
  }
  r.snapshot_changed = true;
  return r;
}

}  // namespace bb::table
