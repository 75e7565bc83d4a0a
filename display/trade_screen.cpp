#include "display/trade_screen.h"

#include <fmt/format.h>

#include <algorithm>

#include "display/frame_builder.h"
#include "display/keypad_dialog.h"
#include "display/palette.h"
#include "display/ui_context.h"
#include "display/widgets.h"
#include "display/wording.h"

namespace bb::display {

namespace {

// The next player after `from` in seat order (wrapping) who is still in the game and is not `other`; `from`
// itself when there is none. A bankrupt player has nothing to trade and no card that may agree.
rules::PlayerId next_trader(const rules::GameState& st, rules::PlayerId from, rules::PlayerId other) {
  const int n = static_cast<int>(st.players.size());
  for (int step = 1; step <= n; ++step) {
    const rules::PlayerId p{(from.number() + step) % n};
    if (p != other && !st.players[p].bankrupt) return p;
  }
  return from;
}

bool in_game(const rules::GameState& st, std::optional<rules::PlayerId> p) {
  return p && p->index() < st.players.size() && !st.players[*p].bankrupt;
}

}  // namespace

void TradeScreen::changed() { agreed_[0] = agreed_[1] = false; }

rules::Trade TradeScreen::current() const {
  rules::Trade t;
  // build() chose both before anything asks for the trade.
  t.from = players_[0].value();
  t.to = players_[1].value();
  t.give = offers_[0];
  t.get = offers_[1];
  return t;
}

void TradeScreen::agree(UiContext& ui, int side) {
  agreed_[side] = true;
  if (!(agreed_[0] && agreed_[1])) return;
  ui.emit(ApplyInput{current(), {}, std::nullopt, {}});
  ui.cue(Cue::payment);
  ui.say("Trade sent to the bank");
  offers_[0] = offers_[1] = {};
  changed();
}

bool TradeScreen::on_card(const std::string& /*uid*/, std::optional<rules::PlayerId> player, UiContext& ui) {
  for (int side = 0; side < 2; ++side)
    if (player && player == players_[side]) {
      agree(ui, side);
      return true;
    }
  ui.say("Only the two traders' cards agree to this trade");
  return true;
}

void TradeScreen::build(FrameBuilder& fb, UiContext& ui) {
  const auto& l = fb.layout();
  fb.fill({0, 0, l.width, l.height}, Palette::background);
  const Rect body = Widgets::top_bar(fb, ui, "Trade");
  const auto* game = ui.snapshot().game;
  if (!game) return;
  const int n = static_cast<int>(game->state().players.size());
  if (n < 2) return;
  if (const auto focused = ui.focused_player()) {
    if (players_[0] != focused) changed(), offers_[0] = offers_[1] = {};
    players_[0] = focused;
    ui.focus_player(std::nullopt);
  }
  const auto& st = game->state();
  if (!in_game(st, players_[0])) players_[0] = st.current;
  if (!in_game(st, players_[1]) || players_[1] == players_[0])
    players_[1] = next_trader(st, *players_[0], *players_[0]);
  const int w = (l.width - 3 * l.pad) / 2;
  const int bottom = l.height - l.pad;
  int top = body.y + l.pad;
  if (ui.snapshot().chances) {
    const Rect strip{l.pad, top, l.width - 2 * l.pad, l.row_h};
    build_advice(fb, ui, strip);
    top += strip.h + l.pad;
  }
  build_side(fb, ui, 0, l.pad, top, w, bottom);
  build_side(fb, ui, 1, 2 * l.pad + w, top, w, bottom);
}

void TradeScreen::build_advice(FrameBuilder& fb, UiContext& ui, Rect strip) {
  const auto& l = fb.layout();
  const auto& st = ui.snapshot().game->state();
  const ChancesView& odds = *ui.snapshot().chances;
  const rules::Trade trade = current();
  const bool empty = offers_[0].cash == 0 && offers_[0].spaces.empty() && offers_[0].cards == 0 &&
                     offers_[1].cash == 0 && offers_[1].spaces.empty() && offers_[1].cards == 0;
  // Ask for the trade to be weighed until the snapshot says it is being weighed (the daemon forgets a
  // trade when the position changes: it is asked again, once per snapshot); the answer comes back there.
  const bool answered = odds.trade && same_trade(odds.trade->trade, trade);
  if (!empty && !answered &&
      (!weighed_ || !same_trade(*weighed_, trade) || weighed_version_ != ui.snapshot().version)) {
    weighed_ = trade;
    weighed_version_ = ui.snapshot().version;
    ui.emit(WeighTrade{trade});
  }
  std::string line;
  if (empty) {
    auto chance = [&](rules::PlayerId p) {
      const auto pi = p.index();
      return fmt::format("{} {}", st.players[p].name, pi < odds.now.size() ? odds.now[pi].text : "\u2026");
    };
    line = fmt::format("Chance of winning now: {}, {}", chance(trade.from), chance(trade.to));
  } else if (answered) {
    const auto& advice = *odds.trade;
    line = !advice.refused.empty() ? "As it stands: " + advice.refused
           : advice.summary.empty()
               ? std::string("Weighing this trade\u2026")
               : fmt::format("With this trade: {}  ({} playouts{})", advice.summary,
                             Wording::count(advice.playouts), advice.refining ? ", more coming" : "");
  } else {
    line = "Weighing this trade\u2026";
  }
  fb.fill(strip, Palette::panel);
  fb.text({strip.x + l.s(8), strip.y, strip.w - l.s(16), strip.h}, line, FontFace::regular, l.font_small,
          Palette::text, Align::left, l.s(11));
}

void TradeScreen::build_side(FrameBuilder& fb, UiContext& ui, int side, int x, int top, int w, int bottom) {
  const auto& l = fb.layout();
  const auto& game = *ui.snapshot().game;
  const auto& st = game.state();
  const rules::PlayerId me = players_[side].value();
  const rules::PlayerId other = players_[1 - side].value();
  const auto& snap = ui.snapshot();
  fb.fill({x, top, w, bottom - top}, Palette::panel);
  const int pad = l.s(6);
  const int inner = w - 2 * pad;
  int y = top + pad;
  // Who: tap to change to the next player not on the other side.
  fb.button(fmt::format("trade.{}.player", side), {x + pad, y, inner, l.button_h},
            fmt::format("{} gives \u25BE", st.players[me].name), Widgets::player_colour(snap, me),
            [this, &ui, side, me, other] {
              players_[side] = next_trader(ui.snapshot().game->state(), me, other);
              offers_[side] = {};
              pages_[side] = 0;
              changed();
            });
  y += l.button_h + pad;
  // Cash, typed on the keypad.
  const int half = (inner - pad) / 2;
  rules::Offer* offer = &offers_[side];
  fb.button(fmt::format("trade.{}.cash", side), {x + pad, y, half, l.button_h},
            "Cash " + Wording::money(game, offer->cash), Palette::primary, [this, &ui, side, me] {
              KeypadDialog::Request req;
              req.title = fmt::format("Cash {} gives", ui.snapshot().game->account_name(me));
              req.on_amount = [this, side](rules::Money m) {
                offers_[side].cash = m;
                changed();
              };
              ui.open_dialog(std::make_unique<KeypadDialog>(std::move(req)));
            });
  // Get Out of Jail cards.
  const int held = st.players[me].cards();
  // Beside the cash where its two buttons keep a finger's width, else on a row of its own (portrait).
  const bool own_row = (half - pad) / 3 < l.target;
  if (own_row) y += l.button_h + pad;
  const int cards_w = own_row ? inner : half;
  const int cw = (cards_w - pad) / 3;
  const int cx = own_row ? x + pad : x + pad + half + pad;
  fb.button(
      fmt::format("trade.{}.cards.less", side), {cx, y, cw, l.button_h}, "\u2212", Palette::panel_light,
      [this, side] {
        offers_[side].cards = std::max(0, offers_[side].cards - 1);
        changed();
      },
      offer->cards > 0, "No jail cards offered");
  fb.text({cx + cw, y, cards_w - 2 * cw, l.button_h}, fmt::format("{} jail", offer->cards), FontFace::regular,
          l.font_small, Palette::text, Align::centre, l.s(12));
  fb.button(
      fmt::format("trade.{}.cards.more", side), {cx + cards_w - cw, y, cw, l.button_h}, "+",
      Palette::panel_light,
      [this, side] {
        ++offers_[side].cards;
        changed();
      },
      offer->cards < held, "No more Get Out of Jail cards to give");
  y += l.button_h + pad;
  // Properties, as toggles.
  std::vector<rules::SpaceId> owned;
  for (rules::SpaceId s : st.spaces.ids())
    if (st.spaces[s].owner == me) owned.push_back(s);
  const int agree_top = bottom - pad - l.button_h;
  const int pager_h = l.target;
  const int rows = std::max(1, (agree_top - pad - pager_h - pad - y) / (l.row_h + pad));
  const int pages = (static_cast<int>(owned.size()) + rows - 1) / rows;
  for (int i = 0; i < rows; ++i) {
    const int k = pages_[side] * rows + i;
    if (k >= static_cast<int>(owned.size())) break;
    const rules::SpaceId s = owned[static_cast<std::size_t>(k)];
    const auto& sp = game.edition().spaces[s];
    const bool in = std::find(offer->spaces.begin(), offer->spaces.end(), s) != offer->spaces.end();
    const Rect r{x + pad, y + i * (l.row_h + pad), inner, l.row_h};
    fb.button(fmt::format("trade.{}.space.{}", side, s.number()), r, (in ? "\u2713 " : "") + sp.name,
              in ? Palette::accept : Palette::panel_light, [this, side, s] {
                auto& v = offers_[side].spaces;
                auto it = std::find(v.begin(), v.end(), s);
                if (it == v.end())
                  v.push_back(s);
                else
                  v.erase(it);
                changed();
              });
    if (const auto* g = game.edition().group(sp.group))
      fb.fill({r.x, r.y, l.s(8), r.h}, Palette::parse_hex(g->colour));
  }
  if (owned.empty())
    fb.text({x + pad, y, inner, l.row_h}, "No property", FontFace::regular, l.font_body, Palette::muted);
  if (pages > 1)
    Widgets::pager(fb, fmt::format("trade.{}.page", side),
                   {x + pad, agree_top - pad - pager_h, inner, pager_h}, pages_[side], pages);
  // Agreement.
  const bool empty_trade = offers_[0].cash == 0 && offers_[0].spaces.empty() && offers_[0].cards == 0 &&
                           offers_[1].cash == 0 && offers_[1].spaces.empty() && offers_[1].cards == 0;
  const std::string who = st.players[me].name;
  fb.button(
      fmt::format("trade.{}.agree", side), {x + pad, agree_top, inner, l.button_h},
      agreed_[side] ? who + " agreed \u2713" : who + " agrees",
      agreed_[side] ? Palette::accept : Palette::danger, [this, &ui, side] { agree(ui, side); },
      !empty_trade && !agreed_[side],
      empty_trade ? "Add cash, property or a card to the trade first" : "Already agreed");
}

}  // namespace bb::display
