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
  const int ty = body.y + l.pad;
  const bool odds = ui.snapshot().chances != nullptr;
  if (!odds && tab_ == Tab::chances) tab_ = Tab::worth;
  auto colour = [this](Tab t) { return tab_ == t ? Palette::primary : Palette::panel; };
  const int tabs = odds ? 3 : 2;
  // Three tabs on a portrait screen (480 wide) share its width rather than leave it.
  const int tw = std::min(l.s(200), (l.width - (tabs + 1) * l.pad) / tabs);
  int tx = l.width - tabs * (tw + l.pad);
  fb.button("charts.worth", {tx, ty, tw, l.button_h}, "Worth", colour(Tab::worth),
            [this] { tab_ = Tab::worth; });
  tx += tw + l.pad;
  if (odds) {
    fb.button("charts.chances", {tx, ty, tw, l.button_h}, "Chances", colour(Tab::chances),
              [this] { tab_ = Tab::chances; });
    tx += tw + l.pad;
  }
  fb.button("charts.heat", {tx, ty, tw, l.button_h}, "Where they landed", colour(Tab::heat),
            [this] { tab_ = Tab::heat; });
  const Rect area{l.pad, ty + l.button_h + l.pad, l.width - 2 * l.pad,
                  l.height - ty - l.button_h - 2 * l.pad};
  switch (tab_) {
    case Tab::heat:
      build_heat(fb, ui, area);
      break;
    case Tab::chances:
      build_chances(fb, ui, area);
      break;
    case Tab::worth:
      build_worth(fb, ui, area);
      break;
  }
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
    for (rules::PlayerId p : game.state().players.ids()) now.push_back(game.worth(p));
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
    const Colour c = Widgets::player_colour(snap, rules::PlayerId{p});
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
    fb.fill({legend.x, y + l.s(4), l.s(8), row - l.s(8)}, Widgets::player_colour(snap, rules::PlayerId{p}));
    fb.text({legend.x + l.s(14), y, legend.w - l.s(14), row / 2},
            st.players[static_cast<std::size_t>(p)].name, FontFace::bold, l.font_small, Palette::text,
            Align::left, l.s(12));
    std::string worth = Wording::money(game, last[static_cast<std::size_t>(p)]);
    // A player put out has no chance to show (the Chances tab says "out"; a "<0.1%" there read as a hope).
    if (snap.chances && static_cast<std::size_t>(p) < snap.chances->now.size() &&
        !st.players[static_cast<std::size_t>(p)].bankrupt)
      worth += "  \u00B7  " + snap.chances->now[static_cast<std::size_t>(p)].text;
    fb.text({legend.x + l.s(14), y + row / 2, legend.w - l.s(14), row / 2}, worth, FontFace::regular,
            l.font_small, Palette::muted, Align::left, l.s(12));
  }
}

void ChartsScreen::build_chances(FrameBuilder& fb, UiContext& ui, Rect area) {
  const auto& l = fb.layout();
  const auto& snap = ui.snapshot();
  const auto& st = snap.game->state();
  const ChancesView& odds = *snap.chances;
  const int n = static_cast<int>(st.players.size());
  const int legend_w = l.s(220);
  const Rect chart{area.x + l.s(60), area.y + l.s(12), area.w - legend_w - l.s(90), area.h - l.s(64)};
  fb.fill(area, Palette::panel);
  for (int k = 0; k <= 4; ++k) {
    const int y = chart.bottom() - chart.h * k / 4;
    fb.line(chart.x, y, chart.right(), y, Palette::panel_light);
    fb.text({area.x + l.s(4), y - l.s(11), l.s(52), l.s(22)}, fmt::format("{}%", 25 * k), FontFace::regular,
            l.s(14), Palette::muted, Align::right, l.s(11));
  }
  // The points: each settled turn's estimate, then the position now.
  std::vector<ChancesView::Point> points = odds.over_game;
  if (!odds.now.empty()) {
    ChancesView::Point now{st.turns, {}};
    for (const auto& c : odds.now) now.estimate.push_back(c.estimate);
    // A point of a turn not yet played (after an undo) gives way to the position now.
    while (!points.empty() && points.back().turn >= now.turn) points.pop_back();
    points.push_back(std::move(now));
  }
  const int first_turn = points.empty() ? 0 : points.front().turn;
  const int last_turn = points.empty() ? 0 : points.back().turn;
  auto px = [&](int turn) {
    return last_turn > first_turn ? chart.x + static_cast<int>(static_cast<long long>(chart.w) *
                                                               (turn - first_turn) / (last_turn - first_turn))
                                  : chart.right();
  };
  auto py = [&](double p) { return chart.bottom() - static_cast<int>(chart.h * std::clamp(p, 0.0, 1.0)); };
  const std::string caption = points.size() > 1 ? fmt::format("turn {} to turn {}", first_turn, last_turn)
                              : odds.now.empty()
                                  ? std::string("working out the chances\u2026")
                                  : fmt::format("turn {}: the line grows turn by turn", last_turn);
  fb.text({chart.x, chart.bottom() + l.s(6), chart.w, l.s(24)}, caption, FontFace::regular, l.font_small,
          Palette::muted, Align::centre);
  std::string basis = "played out by the bots on a thread beside the table";
  if (st.ended)
    basis = "the game is over";
  else if (!odds.now.empty())
    basis = fmt::format("from {} playouts with the bots{}; the bar is the 95% margin",
                        Wording::count(odds.playouts), odds.refining ? ", more coming" : "");
  fb.text({chart.x, chart.bottom() + l.s(30), chart.w, l.s(24)}, basis, FontFace::regular, l.font_small,
          Palette::muted, Align::centre, l.s(11));
  const std::size_t stride = std::max<std::size_t>(1, points.size() / std::max(1, chart.w / 3));
  for (int p = 0; p < n; ++p) {
    const auto pi = static_cast<std::size_t>(p);
    const Colour c = Widgets::player_colour(snap, rules::PlayerId{p});
    std::size_t prev = 0;
    for (std::size_t i = 1; i < points.size(); ++i) {
      if (i % stride != 0 && i + 1 != points.size()) continue;
      const auto& a = points[prev];
      const auto& b = points[i];
      if (pi < a.estimate.size() && pi < b.estimate.size())
        fb.line(px(a.turn), py(a.estimate[pi]), px(b.turn), py(b.estimate[pi]), c, 3);
      prev = i;
    }
    // Now: the 95% interval as a bar at the right end.
    if (pi < odds.now.size()) {
      const auto& now = odds.now[pi];
      const int bx = chart.right() + l.s(6) + p * l.s(5);
      fb.fill({bx, py(now.high), l.s(4), std::max(l.s(2), py(now.low) - py(now.high))}, c);
    }
  }
  // Legend, best chance first.
  std::vector<int> order(static_cast<std::size_t>(n));
  for (int p = 0; p < n; ++p) order[static_cast<std::size_t>(p)] = p;
  auto chance_of = [&](int p) {
    return static_cast<std::size_t>(p) < odds.now.size() ? odds.now[static_cast<std::size_t>(p)].estimate
                                                         : 0.0;
  };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return chance_of(a) > chance_of(b); });
  const Rect legend{area.right() - legend_w, area.y + l.s(8), legend_w - l.s(8), area.h - l.s(16)};
  const int row = std::min(l.s(56), legend.h / std::max(1, n));
  for (int k = 0; k < n; ++k) {
    const int p = order[static_cast<std::size_t>(k)];
    const auto pi = static_cast<std::size_t>(p);
    const int y = legend.y + k * row;
    fb.fill({legend.x, y + l.s(4), l.s(8), row - l.s(8)}, Widgets::player_colour(snap, rules::PlayerId{p}));
    fb.text({legend.x + l.s(14), y, legend.w - l.s(14), row / 2}, st.players[pi].name, FontFace::bold,
            l.font_small, Palette::text, Align::left, l.s(12));
    const std::string chance = st.players[pi].bankrupt ? std::string("out")
                               : pi < odds.now.size()  ? odds.now[pi].text
                                                       : std::string("\u2026");
    fb.text({legend.x + l.s(14), y + row / 2, legend.w - l.s(14), row / 2}, chance, FontFace::regular,
            l.font_small, Palette::muted, Align::left, l.s(12));
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
  std::vector<rules::SpaceId> order;
  order.reserve(counts.size());
  for (rules::SpaceId s : rules::IdRange<rules::SpaceId>{counts.size()}) order.push_back(s);
  std::stable_sort(order.begin(), order.end(),
                   [&](rules::SpaceId a, rules::SpaceId b) { return counts[a.index()] > counts[b.index()]; });
  const Rect side_panel{area.x + side + l.pad, area.y, area.w - side - l.pad, area.h};
  fb.fill(side_panel, Palette::panel);
  fb.text({side_panel.x + l.s(8), side_panel.y + l.s(4), side_panel.w - l.s(16), l.s(30)}, "Most visited",
          FontFace::bold, l.font_body, Palette::text);
  int y = side_panel.y + l.s(38);
  for (std::size_t k = 0; k < order.size() && k < 8 && y + l.s(28) <= side_panel.bottom(); ++k) {
    const rules::SpaceId s = order[k];
    if (counts[s.index()] == 0) break;
    fb.text({side_panel.x + l.s(8), y, side_panel.w - l.s(16), l.s(28)},
            fmt::format("{}  {}", counts[s.index()], Wording::space_name(*snap.game, s)), FontFace::regular,
            l.font_small, Palette::text, Align::left, l.s(12));
    y += l.s(28);
  }
}

}  // namespace bb::display
