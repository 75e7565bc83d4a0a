#include "display/board_screen.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "display/board_geometry.h"
#include "display/frame_builder.h"
#include "display/palette.h"
#include "display/ui_context.h"
#include "display/widgets.h"
#include "display/wording.h"

namespace bb::display {

void BoardScreen::draw_board(FrameBuilder& fb, const Snapshot& snap, const BoardGeometry& geo,
                             const std::vector<int>* heat) {
  const auto& l = fb.layout();
  const auto& game = *snap.game;
  const auto& ed = game.edition();
  const auto& st = game.state();
  const int n = std::min(geo.spaces(), static_cast<int>(ed.spaces.size()));
  int most = 1;
  if (heat)
    for (int v : *heat) most = std::max(most, v);
  for (const rules::SpaceId s : rules::IdRange<rules::SpaceId>{static_cast<std::size_t>(n)}) {
    const auto& sp = ed.spaces[s];
    const auto& ss = st.spaces[s];
    const Rect r = geo.cell(s);
    if (heat) {
      const int v = s.index() < heat->size() ? (*heat)[s.index()] : 0;
      const Colour c = Palette::heat(static_cast<double>(v) / most);
      fb.fill(r, c);
      fb.outline(r, Palette::background, 1);
      fb.text(r, std::to_string(v), FontFace::bold, l.s(14), Palette::text_on(c), Align::centre, l.s(11));
      continue;
    }
    fb.fill(r, ss.owner ? Palette::panel_light : Palette::panel);
    fb.outline(r, Palette::background, 1);
    const int band = std::max(3, std::min(r.w, r.h) / 4);
    if (const auto* g = ed.group(sp.group); g && sp.kind == rules::Space::Kind::property)
      fb.fill(geo.band(s, band), Palette::parse_hex(g->colour));
    if (geo.corner(s)) {
      const Rect inner = r.inset(l.s(4));
      const int lines = std::min(3, 1 + static_cast<int>(std::count(sp.name.begin(), sp.name.end(), ' ')));
      const int line_h = fb.measure().measure("Hg", FontFace::regular, l.s(11)).h;
      fb.paragraph({inner.x, inner.y + std::max(0, (inner.h - lines * line_h) / 2), inner.w, inner.h},
                   sp.name, FontFace::regular, l.s(11), Palette::text, Align::centre);
    }
    if (ss.owner) {
      // The owner's colour fills the outer part of the cell, so ownership reads from across the table.
      const Colour oc = Widgets::player_colour(snap, *ss.owner);
      Rect o = r.inset(std::max(2, band / 2));
      switch (geo.side(s)) {
        case 0:
          o = {r.x + 2, r.bottom() - band - 2, r.w - 4, band};
          break;
        case 1:
          o = {r.x + 2, r.y + 2, band, r.h - 4};
          break;
        case 2:
          o = {r.x + 2, r.y + 2, r.w - 4, band};
          break;
        default:
          o = {r.right() - band - 2, r.y + 2, band, r.h - 4};
          break;
      }
      fb.fill(o, oc);
    }
    if (ss.hotel || ss.houses > 0) {
      const Rect b = geo.band(s, band);
      if (ss.hotel) {
        fb.fill(b.inset(1), {200, 30, 30});
      } else {
        const bool horizontal = b.w >= b.h;
        const int k = ss.houses;
        for (int h = 0; h < k; ++h) {
          const int len = (horizontal ? b.w : b.h) / std::max(4, k);
          const Rect hr = horizontal ? Rect{b.x + 1 + h * len, b.y + 1, len - 2, b.h - 2}
                                     : Rect{b.x + 1, b.y + 1 + h * len, b.w - 2, len - 2};
          fb.fill(hr, {30, 150, 60});
        }
      }
    }
    if (ss.mortgaged) {
      fb.fill(r.inset(band), {0, 0, 0, 150});
      fb.text(r.inset(band), "M", FontFace::bold, l.s(14), Palette::highlight, Align::centre, l.s(10));
    }
  }
  if (heat) return;
  // Tokens: where the rules put them, with a ring where the camera sees them when that differs.
  for (rules::PlayerId seat : st.players.ids()) {
    const int p = seat.number();
    const auto& ps = st.players[seat];
    const rules::SpaceId at = ps.position;
    if (ps.bankrupt || at.number() < 0 || at.number() >= n) continue;
    const Rect r = geo.cell(at);
    const int d = std::max(8, std::min(r.w, r.h) / 3);
    const int cx = r.x + (p % 3) * (r.w - d) / 2;
    const int cy = r.y + ((p / 3) % 2 == 0 ? r.h / 2 - d : r.h / 2);
    const Rect tok{std::clamp(cx, r.x, r.right() - d), std::clamp(cy, r.y, r.bottom() - d), d, d};
    fb.circle(tok.inset(-1), Palette::background);
    fb.circle(tok, Widgets::player_colour(snap, seat));
    if (seat.index() < snap.seen_positions.size()) {
      const auto seen = snap.seen_positions[seat];
      if (seen && seen->number() < n && *seen != at) {
        const Rect sr = geo.cell(*seen);
        fb.outline({sr.cx() - d / 2, sr.cy() - d / 2, d, d}, Widgets::player_colour(snap, seat), 3);
      }
    }
  }
}

void BoardScreen::build(FrameBuilder& fb, UiContext& ui) {
  const auto& l = fb.layout();
  fb.fill({0, 0, l.width, l.height}, Palette::background);
  const Rect body = Widgets::top_bar(fb, ui, "Board");
  const auto& snap = ui.snapshot();
  if (!snap.game) return;
  const auto& game = *snap.game;
  const auto& st = game.state();
  // The board as large as the body allows; the legend beside it, or under it on a portrait screen.
  const bool legend_below = l.width < body.h;
  const int side = std::min(body.h, l.width) - 2 * l.pad;
  const BoardGeometry geo({l.pad, body.y + l.pad, side, side},
                          static_cast<int>(game.edition().spaces.size()));
  draw_board(fb, snap, geo, nullptr);
  const Rect c = geo.centre();
  fb.text({c.x, c.cy() - l.s(20), c.w, l.s(40)}, game.edition().name, FontFace::bold, l.font_large,
          Palette::muted, Align::centre, l.s(12));

  // Legend: each player, where the rules and the camera put them.
  const Rect legend = legend_below
                          ? Rect{l.pad, body.y + 2 * l.pad + side, side, body.bottom() - side - 3 * l.pad}
                          : Rect{l.pad * 2 + side, body.y + l.pad, l.width - side - 3 * l.pad, side};
  fb.fill(legend, Palette::panel);
  const int line = l.s(44);
  const int cols = legend_below ? 2 : 1;
  const int col_w = legend.w / cols;
  const int rows = (static_cast<int>(st.players.size()) + cols - 1) / cols;
  for (rules::PlayerId p : st.players.ids()) {
    const auto& ps = st.players[p];
    const int pi = p.number();
    const int x = legend.x + (pi / rows) * col_w;
    const int y = legend.y + l.s(6) + (pi % rows) * line;
    Widgets::player_badge(fb, {x + l.s(8), y + l.s(6), l.s(24), l.s(24)}, snap, p);
    std::string where = ps.bankrupt ? "bankrupt" : Wording::space_name(game, ps.position);
    if (ps.in_jail) where += " (in jail)";
    // The table waits for this token to be moved there (after a throw or a card).
    if (p.index() < snap.expected_positions.size() && snap.expected_positions[p] && !ps.bankrupt)
      where = "move to " + Wording::space_name(game, snap.expected_positions[p]);
    if (p.index() < snap.seen_positions.size() && snap.seen_positions[p] &&
        snap.seen_positions[p] != ps.position)
      where += ", camera: " + Wording::space_name(game, snap.seen_positions[p]);
    fb.text({x + l.s(40), y, col_w - l.s(48), l.s(20)}, ps.name, FontFace::bold, l.font_small, Palette::text);
    fb.text({x + l.s(40), y + l.s(20), col_w - l.s(48), l.s(20)}, where, FontFace::regular, l.font_small,
            Palette::muted, Align::left, l.s(12));
  }
  const int y = legend.y + l.s(6) + rows * line + l.s(4);
  fb.text({legend.x + l.s(8), y, legend.w - l.s(16), l.s(24)},
          fmt::format("Bank: {} houses, {} hotels", st.bank_houses, st.bank_hotels), FontFace::regular,
          l.font_small, Palette::text);
}

}  // namespace bb::display
