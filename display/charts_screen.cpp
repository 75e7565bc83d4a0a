#include "display/charts_screen.h"

#include <fmt/format.h>

#include <algorithm>

#include "display/board_geometry.h"
#include "display/board_screen.h"
#include "display/frame_builder.h"
#include "display/game_history.h"
#include "display/palette.h"
#include "display/ui_context.h"
#include "display/widgets.h"
#include "display/wording.h"

namespace bb::display {

void ChartsScreen::build(FrameBuilder& fb, UiContext& ui) {
  const auto& l = fb.layout();
  fb.fill({0, 0, l.width, l.height}, Palette::background);
  const Rect body = Widgets::top_bar(fb, ui, "Charts");
  if (!ui.snapshot().game) return;
  const int tw = l.s(200);
  const int ty = body.y + l.pad;
  fb.button("charts.worth", {l.width - 2 * tw - 2 * l.pad, ty, tw, l.button_h}, "Worth",
            heat_ ? Palette::panel : Palette::primary, [this] { heat_ = false; });
  fb.button("charts.heat", {l.width - tw - l.pad, ty, tw, l.button_h}, "Where they landed",
            heat_ ? Palette::primary : Palette::panel, [this] { heat_ = true; });
  const Rect area{l.pad, ty + l.button_h + l.pad, l.width - 2 * l.pad,
                  l.height - ty - l.button_h - 2 * l.pad};
  if (heat_)
    build_heat(fb, ui, area);
  else
    build_worth(fb, ui, area);
}

void ChartsScreen::build_worth(FrameBuilder& fb, UiContext& ui, Rect area) {
  const auto& l = fb.layout();
  const auto& snap = ui.snapshot();
  const auto& game = *snap.game;
  const auto& st = game.state();
  const int n = static_cast<int>(st.players.size());
  const int legend_w = l.s(220);
  const Rect chart{area.x + l.s(90), area.y + l.s(8), area.w - legend_w - l.s(100), area.h - l.s(40)};
  fb.fill(area, Palette::panel);
  std::vector<std::vector<rules::Money>> series;
  if (snap.history && !snap.history->worth().empty())
    series = snap.history->worth();
  else {
    std::vector<rules::Money> now;
    for (int p = 0; p < n; ++p) now.push_back(game.worth(p));
    series = {now};
  }
  rules::Money top = 1;
  for (const auto& row : series)
    for (auto v : row) top = std::max(top, v);
  // A round top for the axis: 1, 2 or 5 times a power of ten.
  rules::Money step = 1;
  while (step * 10 < top) step *= 10;
  rules::Money axis = step;
  for (rules::Money m : {1, 2, 5, 10})
    if (step * m >= top) {
      axis = step * m;
      break;
    }
  for (int k = 0; k <= 4; ++k) {
    const int y = chart.bottom() - static_cast<int>(chart.h * k / 4);
    fb.line(chart.x, y, chart.right(), y, Palette::panel_light);
    fb.text({area.x + l.s(4), y - l.s(11), l.s(82), l.s(22)}, Wording::money(game, axis * k / 4),
            FontFace::regular, l.s(14), Palette::muted, Align::right, l.s(11));
  }
  const int samples = static_cast<int>(series.size());
  fb.text({chart.x, chart.bottom() + l.s(6), chart.w, l.s(24)},
          samples > 1 ? fmt::format("over {} inputs", samples - 1) : std::string("the game has just begun"),
          FontFace::regular, l.font_small, Palette::muted, Align::centre);
  auto px = [&](int i) {
    return chart.x + (samples > 1 ? static_cast<int>(static_cast<long long>(chart.w) * i / (samples - 1))
                                  : chart.w / 2);
  };
  auto py = [&](rules::Money v) { return chart.bottom() - static_cast<int>(chart.h * v / axis); };
  // Long games are thinned to about one point per two pixels: the line looks the same and draws faster.
  const int stride = std::max(1, samples / std::max(1, chart.w / 2));
  for (int p = 0; p < n; ++p) {
    const Colour c = Widgets::player_colour(snap, p);
    int prev = 0;
    for (int i = stride; i < samples; i += stride) {
      const auto& a = series[static_cast<std::size_t>(prev)];
      const auto& b = series[static_cast<std::size_t>(i)];
      if (static_cast<std::size_t>(p) < a.size() && static_cast<std::size_t>(p) < b.size())
        fb.line(px(prev), py(a[static_cast<std::size_t>(p)]), px(i), py(b[static_cast<std::size_t>(p)]), c,
                3);
      prev = i;
    }
    if (prev != samples - 1 && samples > 1) {
      const auto& a = series[static_cast<std::size_t>(prev)];
      const auto& b = series.back();
      if (static_cast<std::size_t>(p) < a.size() && static_cast<std::size_t>(p) < b.size())
        fb.line(px(prev), py(a[static_cast<std::size_t>(p)]), px(samples - 1),
                py(b[static_cast<std::size_t>(p)]), c, 3);
    }
  }
  // Legend, largest worth first.
  std::vector<int> order(static_cast<std::size_t>(n));
  for (int p = 0; p < n; ++p) order[static_cast<std::size_t>(p)] = p;
  const auto& last = series.back();
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return last[static_cast<std::size_t>(a)] > last[static_cast<std::size_t>(b)];
  });
  const Rect legend{area.right() - legend_w, area.y + l.s(8), legend_w - l.s(8), area.h - l.s(16)};
  const int row = std::min(l.s(56), legend.h / std::max(1, n));
  for (int k = 0; k < n; ++k) {
    const int p = order[static_cast<std::size_t>(k)];
    const int y = legend.y + k * row;
    fb.fill({legend.x, y + l.s(4), l.s(8), row - l.s(8)}, Widgets::player_colour(snap, p));
    fb.text({legend.x + l.s(14), y, legend.w - l.s(14), row / 2},
            st.players[static_cast<std::size_t>(p)].name, FontFace::bold, l.font_small, Palette::text,
            Align::left, l.s(12));
    fb.text({legend.x + l.s(14), y + row / 2, legend.w - l.s(14), row / 2},
            Wording::money(game, last[static_cast<std::size_t>(p)]), FontFace::regular, l.font_small,
            Palette::muted, Align::left, l.s(12));
  }
}

void ChartsScreen::build_heat(FrameBuilder& fb, UiContext& ui, Rect area) {
  const auto& l = fb.layout();
  const auto& snap = ui.snapshot();
  std::vector<int> counts(snap.game->edition().spaces.size(), 0);
  if (snap.history && snap.history->landings().size() == counts.size()) counts = snap.history->landings();
  const int side = area.h;
  const BoardGeometry geo({area.x, area.y, side, side}, static_cast<int>(counts.size()));
  BoardScreen::draw_board(fb, snap, geo, &counts);
  // The busiest spaces, in words.
  std::vector<int> order(counts.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return counts[static_cast<std::size_t>(a)] > counts[static_cast<std::size_t>(b)];
  });
  const Rect side_panel{area.x + side + l.pad, area.y, area.w - side - l.pad, area.h};
  fb.fill(side_panel, Palette::panel);
  fb.text({side_panel.x + l.s(8), side_panel.y + l.s(4), side_panel.w - l.s(16), l.s(30)}, "Most visited",
          FontFace::bold, l.font_body, Palette::text);
  int y = side_panel.y + l.s(38);
  for (std::size_t k = 0; k < order.size() && k < 8 && y + l.s(28) <= side_panel.bottom(); ++k) {
    const int s = order[k];
    if (counts[static_cast<std::size_t>(s)] == 0) break;
    fb.text({side_panel.x + l.s(8), y, side_panel.w - l.s(16), l.s(28)},
            fmt::format("{}  {}", counts[static_cast<std::size_t>(s)], Wording::space_name(*snap.game, s)),
            FontFace::regular, l.font_small, Palette::text, Align::left, l.s(12));
    y += l.s(28);
  }
}

}  // namespace bb::display
