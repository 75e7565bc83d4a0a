#include "display/widgets.h"

#include <fmt/format.h>

#include <algorithm>

#include "display/palette.h"
#include "display/ui_context.h"

namespace bb::display {

Rect Widgets::top_bar(FrameBuilder& fb, UiContext& ui, const std::string& title, bool show_message) {
  const auto& l = fb.layout();
  fb.fill({0, 0, l.width, l.bar_h}, Palette::panel);
  const Rect back{l.pad / 2, l.pad / 2, l.s(128), l.bar_h - l.pad};
  fb.button("back", back, "\u25C0 Home", Palette::panel_light, [&ui] { ui.go(ScreenId::home); });
  const Rect title_box{back.right() + l.pad, 0, l.width - back.right() - 2 * l.pad, l.bar_h};
  if (show_message && !ui.message().empty()) {
    if (fb.measure().measure(ui.message(), FontFace::bold, l.font_body).w <= title_box.w)
      fb.text(title_box, ui.message(), FontFace::bold, l.font_body, Palette::highlight);
    else
      fb.paragraph({title_box.x, title_box.y + l.s(4), title_box.w, title_box.h - l.s(8)}, ui.message(),
                   FontFace::bold, l.font_small, Palette::highlight);
  } else {
    fb.text(title_box, title, FontFace::bold, l.font_large, Palette::text);
  }
  return {0, l.bar_h, l.width, l.height - l.bar_h};
}

Colour Widgets::player_colour(const Snapshot& snap, rules::PlayerId player) {
  return Palette::player(snap.colour_of(player));
}

Rect Widgets::dialog(FrameBuilder& fb, int w, int h) {
  const auto& l = fb.layout();
  fb.set_layer(1);
  fb.fill({0, 0, l.width, l.height}, Palette::shade);
  w = std::min(w, l.width - 2 * l.pad);
  h = std::min(h, l.height - 2 * l.pad);
  const Rect panel{(l.width - w) / 2, (l.height - h) / 2, w, h};
  fb.fill(panel, Palette::panel);
  fb.outline(panel, Palette::muted, 2);
  // Touches outside the dialog land on the backdrop and do nothing, rather than on the screen below.
  fb.area("dialog.backdrop.top", {0, 0, l.width, panel.y}, [] {});
  fb.area("dialog.backdrop.bottom", {0, panel.bottom(), l.width, l.height - panel.bottom()}, [] {});
  fb.area("dialog.backdrop.left", {0, panel.y, panel.x, panel.h}, [] {});
  fb.area("dialog.backdrop.right", {panel.right(), panel.y, l.width - panel.right(), panel.h}, [] {});
  return panel;
}

void Widgets::pager(FrameBuilder& fb, const std::string& id, Rect area, int& page, int pages) {
  const auto& l = fb.layout();
  pages = std::max(1, pages);
  page = std::clamp(page, 0, pages - 1);
  const int bw = std::max(l.target, area.h);
  int* p = &page;
  fb.button(
      id + ".prev", {area.x, area.y, bw, area.h}, "\u25B2", Palette::panel_light,
      [p] { *p = std::max(0, *p - 1); }, page > 0, "This is the first page");
  fb.button(
      id + ".next", {area.right() - bw, area.y, bw, area.h}, "\u25BC", Palette::panel_light,
      [p, pages] { *p = std::min(pages - 1, *p + 1); }, page + 1 < pages, "This is the last page");
  fb.text({area.x + bw, area.y, area.w - 2 * bw, area.h}, fmt::format("{} / {}", page + 1, pages),
          FontFace::regular, l.font_small, Palette::muted, Align::centre);
}

void Widgets::player_badge(FrameBuilder& fb, Rect square, const Snapshot& snap, rules::PlayerId player) {
  const Colour c = player_colour(snap, player);
  fb.fill(square, c);
  std::string letter = "?";
  if (snap.game && player.index() < snap.game->state().players.size()) {
    const auto& ps = snap.game->state().players[player];
    const std::string& src = ps.token.empty() ? ps.name : ps.token;
    if (!src.empty())
      letter = std::string(1, static_cast<char>(std::toupper(static_cast<unsigned char>(src[0]))));
  }
  fb.text(square, letter, FontFace::bold, square.h * 2 / 3, Palette::text_on(c), Align::centre, square.h / 3);
}

}  // namespace bb::display
