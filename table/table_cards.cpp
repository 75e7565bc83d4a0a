// The table's card taps: whose card it is, and what its tap confirms.
#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "table/table_state.h"

namespace bb::table {

Reaction Table::State::card(const CardTapped& e) {
  Reaction r;
  const auto uid = CardRegistry::normalise(e.uid);
  if (!uid) {
    r.messages.push_back(fmt::format("The reader sent '{}', which is not a card number: tap again", e.uid));
    return r;
  }
  // The same card from the same reader again at once: the reader flagged it (a Wiegand reader, which cannot
  // tell a card lying on it from a quick re-tap, within its 1.5 s) or it came within kRepeatWindowMs of the
  // last tap. It is a new tap when a payment waits for that card (a family confirming two payments in a row
  // taps twice); otherwise it is that tap again, and the screen says so once instead of dropping it silently.
  // An event delivered again whose input is stored already changes nothing.
  const bool same_card = *uid == last_uid && e.reader == last_reader;
  const bool soon = same_card && e.at_ms >= 0 && last_tap_ms >= 0 && e.at_ms >= last_tap_ms &&
                    e.at_ms - last_tap_ms < Table::kRepeatWindowMs;
  const bool repeat = (same_card && e.reader_repeat) || soon;
  if (!e.id.empty() && store.has_input(e.id)) return r;
  if (repeat && !waits_for_card(*uid)) {
    if (e.at_ms >= 0) last_tap_ms = e.at_ms;
    return already_counted(*uid);
  }
  if (e.at_ms >= 0) last_tap_ms = e.at_ms;
  last_uid = *uid;
  last_reader = e.reader;
  said_already_counted = false;
  const auto role = registry.find(*uid);
  if (!role)
    r = unknown_card(*uid);
  else if (role->kind == CardRole::Kind::player)
    r = role->player ? player_card(e, *uid, *role->player) : unknown_card(*uid);
  else if (role->kind == CardRole::Kind::banker)
    r = banker_card(e, *uid);
  else
    r = deck_card(e, *role);
  refresh();
  return r;
}

// The payment question a tap of this card answers: the first confirm_payment or house_payment asked of its
// player, or for the banker's card the first house-rule payout waiting for the banker. One place, so that
// what a repeated tap counts for (waits_for_card) and what a tap confirms (player_card, banker_card) agree.
const OpenQuestion* Table::State::payment_for(const CardRole& role) const {
  for (const auto& q : questions) {
    using K = display::TableQuestion::Kind;
    const bool payment = q.shown.kind == K::confirm_payment || q.shown.kind == K::house_payment;
    if (!payment) continue;
    if (role.kind == CardRole::Kind::player && !q.shown.banker && q.shown.player == role.player) return &q;
    if (role.kind == CardRole::Kind::banker && q.shown.banker && q.shown.kind == K::house_payment) return &q;
  }
  return nullptr;
}

OpenQuestion* Table::State::payment_for(const CardRole& role) {
  return const_cast<OpenQuestion*>(std::as_const(*this).payment_for(role));
}

bool Table::State::waits_for_card(const std::string& uid) const {
  const auto role = registry.find(uid);
  return role && payment_for(*role) != nullptr;
}

Reaction Table::State::already_counted(const std::string& uid) {
  Reaction r;
  if (said_already_counted) return r;  // said for this tap already: the card lies on a repeating reader
  said_already_counted = true;
  const auto role = registry.find(uid);
  std::string whose = "That card";
  if (role && role->kind == CardRole::Kind::player) whose = fmt::format("{}'s card", name(role->player));
  if (role && role->kind == CardRole::Kind::banker) whose = "The banker's card";
  r.messages.push_back(
      fmt::format("{}: already counted (the reader saw it again at once; nothing new waits "
                  "for it). To tap again, lift it and tap after a moment",
                  whose));
  return r;
}

Reaction Table::State::unknown_card(const std::string& uid) {
  Reaction r;
  const auto* g = game();
  if (!g || g->state().ended) {
    // The setup screen registers it as a new player's card.
    r.cards.push_back({uid, std::nullopt});
    return r;
  }
  if (paused) {
    r.messages.push_back(*paused);
    return r;
  }
  if (auto* open = find(display::TableQuestion::Kind::register_card); open && open->uid == uid) return r;
  OpenQuestion q;
  q.uid = uid;
  q.shown.kind = display::TableQuestion::Kind::register_card;
  q.shown.title = "Whose card is this?";
  q.shown.text = fmt::format("Card {} is not registered at this table", uid);
  for (rules::PlayerId p : g->state().players.ids())
    if (!g->state().players[p].bankrupt)
      q.shown.options.push_back(
          {fmt::format("player:{}", p.number()), fmt::format("{}'s card", name(p)), false, false});
  q.shown.options.push_back({"banker", "The banker's card", false, true});
  // With stickered decks, a card of a deck (which one is asked next).
  if (settings.draw_mode == DrawMode::stickers)
    for (const auto& deck : g->edition().decks)
      q.shown.options.push_back({"deck:" + deck.id, fmt::format("A {} card", deck.name), false, false});
  q.shown.options.push_back({"ignore", "Ignore it", false, false});
  ask(r, std::move(q));
  return r;
}

Reaction Table::State::player_card(const CardTapped& e, const std::string& uid, rules::PlayerId player) {
  Reaction r;
  const auto* g = game();
  if (!g) {
    r.cards.push_back(
        {uid, std::nullopt});  // a card of an earlier game: the setup screen may register it again
    return r;
  }
  if (paused) {
    r.messages.push_back(*paused);
    r.cues.push_back(display::Cue::refused);
    return r;
  }
  // The table's own questions come first: a tap answers the first payment asked of this player.
  if (auto* q = payment_for({CardRole::Kind::player, player, {}, {}})) {
    confirm_payment(r, *q, e.id, {});
    return r;
  }
  if (!questions.empty()) {
    const auto& q = questions.front().shown;
    if (q.player && q.player != player) {
      r.messages.push_back(
          fmt::format("That is {}'s card: {} must tap ({})", name(player), name(q.player), q.text));
      r.cues.push_back(display::Cue::refused);
      return r;
    }
    if (q.banker) {
      r.messages.push_back(fmt::format("That is {}'s card: the banker must tap ({})", name(player), q.text));
      r.cues.push_back(display::Cue::refused);
      return r;
    }
    if (!q.player) {
      r.messages.push_back(fmt::format("Answer on the screen first: {}", q.title));
      r.cues.push_back(display::Cue::refused);
      return r;
    }
  }
  if (g->state().players[player].bankrupt) {
    r.messages.push_back(fmt::format("{} is out of the game: their card confirms nothing", name(player)));
    r.cues.push_back(display::Cue::refused);
    return r;
  }
  if (g->state().ended) {
    r.messages.push_back("The game is over: nothing is waiting for a card");
    r.cues.push_back(display::Cue::refused);
    return r;
  }
  // Buying, bids, trades, rules questions: the screen's dialogs take the tap (they know what is open).
  r.cards.push_back({uid, player});
  return r;
}

Reaction Table::State::banker_card(const CardTapped& e, const std::string& uid) {
  Reaction r;
  if (auto* q = payment_for({CardRole::Kind::banker, std::nullopt, {}, {}})) {
    confirm_payment(r, *q, e.id, uid);
    return r;
  }
  // The screen's banker dialogs (PIN or card for a correction) take it.
  r.cards.push_back({uid, std::nullopt});
  return r;
}

Reaction Table::State::deck_card(const CardTapped& e, const CardRole& role) {
  Reaction r;
  const auto* g = game();
  const bool draw_pending =
      g && !g->state().pending.empty() && g->state().pending.front().kind == rules::QuestionKind::draw;
  if (!draw_pending) {
    r.messages.push_back("No card is to be drawn now: put it back under its deck");
    r.cues.push_back(display::Cue::refused);
    return r;
  }
  const auto& q = g->state().pending.front();
  // The sticker's deck is a word of the table's settings: read against the game's edition here.
  const std::optional<rules::DeckId> tapped = g->edition().deck_named(role.deck);
  if (!tapped || q.deck != tapped) {
    r.messages.push_back(fmt::format("That card is from the other deck: {} draws from {}", name(q.player),
                                     g->edition().decks[*q.deck].name));
    r.cues.push_back(display::Cue::refused);
    return r;
  }
  if (record(r, rules::Draw{*tapped, role.card}, {e.id, "card", {}, {}}, true)) {
    if (auto* open = find(display::TableQuestion::Kind::pick_card)) close(open->shown.id);
    follow_up(r, e.id);
  }
  return r;
}

}  // namespace bb::table
