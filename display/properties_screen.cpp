#include "display/properties_screen.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "display/frame_builder.h"
#include "display/house_payment_flow.h"
#include "display/palette.h"
#include "display/ui_context.h"
#include "display/widgets.h"
#include "display/wording.h"

namespace bb::display {
namespace {

// Group order as the edition lists its groups, then board order within a group.
std::vector<rules::SpaceId> owned_by_group(const rules::Game& game, rules::PlayerId player) {
  std::vector<rules::SpaceId> out;
  const auto& ed = game.edition();
  const auto& st = game.state();
  auto group_rank = [&ed](const std::string& g) {
    for (std::size_t i = 0; i < ed.groups.size(); ++i)
      if (ed.groups[i].id == g) return static_cast<int>(i);
    return static_cast<int>(ed.groups.size());
  };
  for (rules::SpaceId s : st.spaces.ids())
    if (s.index() < ed.spaces.size() && st.spaces[s].owner == player) out.push_back(s);
  std::stable_sort(out.begin(), out.end(), [&](rules::SpaceId a, rules::SpaceId b) {
    return group_rank(ed.spaces[a].group) < group_rank(ed.spaces[b].group);
  });
  return out;
}

std::string buildings(const rules::Game& game, const rules::SpaceState& s) {
  if (s.mortgaged) return "mortgaged";
  if (s.hotel || s.houses > 0) return Wording::buildings(game, s.houses, s.hotel);
  return "";
}

}  // namespace

void PropertiesScreen::build(FrameBuilder& fb, UiContext& ui) {
  const auto& l = fb.layout();
  fb.fill({0, 0, l.width, l.height}, Palette::background);
  const Rect body = Widgets::top_bar(fb, ui, "Property", false);
  const auto* game = ui.snapshot().game;
  if (!game) return;
  const auto& st = game->state();
  const auto& snap = ui.snapshot();
  const int n = static_cast<int>(st.players.size());
  if (const auto focused = ui.focused_player()) {
    if (focused != player_) selected_.reset(), page_ = 0, refusal_.clear();
    player_ = focused;
    ui.focus_player(std::nullopt);
  }
  if (!player_ || player_->number() >= n)
    player_ = rules::PlayerId{std::clamp(st.current.number(), 0, std::max(0, n - 1))};

  // Player tabs.
  const int tab_h = l.button_h;
  const int tab_w = (l.width - (n + 1) * l.pad) / std::max(1, n);
  for (rules::PlayerId seat : st.players.ids()) {
    const int i = seat.number();
    const Rect r{l.pad + i * (tab_w + l.pad), body.y + l.pad, tab_w, tab_h};
    const bool on = seat == player_;
    fb.button(fmt::format("props.player.{}", i), r, st.players[seat].name,
              on ? Widgets::player_colour(snap, seat) : Palette::panel, [this, seat] {
                player_ = seat;
                selected_.reset();
                page_ = 0;
                refusal_.clear();
              });
    if (on) fb.outline(r.inset(-3), Palette::text, l.s(3));
  }
  const int top = body.y + l.pad + tab_h + l.pad;
  const rules::PlayerId player = *player_;
  const auto owned = owned_by_group(*game, player);
  if (selected_ && std::find(owned.begin(), owned.end(), *selected_) == owned.end()) selected_.reset();

  // The list.
  const int list_w = l.width * 55 / 100;
  const int row_h = l.row_h + l.s(2);
  const int pager_h = l.target;
  const int rows = std::max(1, (l.height - top - pager_h - 2 * l.pad) / (row_h + l.s(4)));
  const int pages = (static_cast<int>(owned.size()) + rows - 1) / rows;
  page_ = std::clamp(page_, 0, std::max(0, pages - 1));
  const auto& ed = game->edition();
  if (owned.empty())
    fb.text({l.pad, top, list_w, l.s(40)}, fmt::format("{} owns no property", st.players[player].name),
            FontFace::regular, l.font_body, Palette::muted);
  for (int i = 0; i < rows; ++i) {
    const int k = page_ * rows + i;
    if (k >= static_cast<int>(owned.size())) break;
    const rules::SpaceId s = owned[static_cast<std::size_t>(k)];
    const auto& sp = ed.spaces[s];
    const auto& ss = st.spaces[s];
    const Rect r{l.pad, top + i * (row_h + l.s(4)), list_w, row_h};
    fb.fill(r, s == selected_ ? Palette::panel_light : Palette::panel);
    const auto* g = ed.group(sp.group);
    fb.fill({r.x, r.y, l.s(14), r.h}, g ? Palette::parse_hex(g->colour) : Palette::muted);
    const std::string status = buildings(*game, ss);
    const int status_w = l.s(120);
    fb.text({r.x + l.s(22), r.y, r.w - l.s(30) - status_w, r.h}, sp.name, FontFace::bold, l.font_body,
            ss.mortgaged ? Palette::muted : Palette::text);
    fb.text({r.right() - status_w - l.s(8), r.y, status_w, r.h}, status, FontFace::regular, l.font_small,
            ss.mortgaged ? Palette::highlight : Palette::text, Align::right);
    if (s == selected_) fb.outline(r, Palette::highlight, l.s(3));
    fb.area(fmt::format("props.space.{}", s.number()), r, [this, s] {
      selected_ = s;
      refusal_.clear();
    });
  }
  if (pages > 1)
    Widgets::pager(fb, "props.page", {l.pad, l.height - l.pad - pager_h, list_w, pager_h}, page_, pages);

  // The selected property and what can be done with it.
  const Rect panel{list_w + 2 * l.pad, top, l.width - list_w - 3 * l.pad, l.height - top - l.pad};
  fb.fill(panel, Palette::panel);
  const int pad = l.s(10);
  if (!selected_) {
    fb.button(
        "props.house_rule", {panel.x + pad, panel.bottom() - pad - l.button_h, panel.w - 2 * pad, l.button_h},
        "House-rule payment\u2026", Palette::panel_light, [&ui, player] { start_house_payment(ui, player); });
    if (!ui.message().empty())
      fb.paragraph(panel.inset(pad), ui.message(), FontFace::bold, l.font_body, Palette::highlight);
    else if (!owned.empty())
      fb.paragraph(panel.inset(pad), "Tap a property to build, sell or mortgage", FontFace::regular,
                   l.font_body, Palette::muted);
    return;
  }
  const rules::SpaceId space = *selected_;
  const auto& sp = ed.spaces[space];
  const auto& ss = st.spaces[space];
  const std::string who = game->account_name(player);
  fb.text({panel.x + pad, panel.y + pad, panel.w - 2 * pad, l.s(32)}, sp.name, FontFace::bold, l.font_large,
          Palette::text);
  std::string facts = fmt::format("Mortgage {}", Wording::money(*game, sp.mortgage));
  if (sp.house_cost > 0)
    facts = fmt::format("House {}  \u00B7  ", Wording::money(*game, sp.house_cost)) + facts;
  fb.text({panel.x + pad, panel.y + pad + l.s(34), panel.w - 2 * pad, l.s(26)}, facts, FontFace::regular,
          l.font_small, Palette::muted);

  const auto build_no = game->why_not_build(player, space);
  const auto sell_no = game->why_not_sell(player, space);
  const auto mortgage_no = game->why_not_mortgage(player, space);
  const auto lift_no = game->why_not_unmortgage(player, space);
  const bool hotel_next = ss.houses >= game->rules().max_houses && game->rules().hotels_enabled;
  const int interest = game->rules().mortgage_interest_percent;
  const rules::Money lift_cost = sp.mortgage + (sp.mortgage * interest + 99) / 100;

  const auto& words = game->edition().words;
  const std::string build_label = fmt::format("Build {}", hotel_next ? words.hotel : words.house);
  // Two buttons a row where their labels fit (a portrait screen's narrow panel: one a row).
  const int half_w = (panel.w - 2 * pad - l.pad) / 2;
  const bool two_cols = std::ranges::all_of(
      std::array<std::string, 4>{build_label, "Sell building", "Mortgage", "Lift mortgage"},
      [&](const std::string& label) { return fb.label_fits(half_w, l.button_h, label); });
  const int cols = two_cols ? 2 : 1;
  const int bw = two_cols ? half_w : panel.w - 2 * pad;
  const int by = panel.y + pad + l.s(68);
  int placed = 0;
  auto action = [&](const std::string& id, const std::string& label,
                    const std::optional<std::string>& why_not, Confirmation c) {
    const int col = placed % cols, row = placed / cols;
    ++placed;
    const Rect r{panel.x + pad + col * (bw + l.pad), by + row * (l.button_h + l.pad), bw, l.button_h};
    fb.button(
        id, r, label, Palette::accept, [&ui, c] { ui.confirm(c); }, !why_not.has_value(),
        why_not.value_or(""));
    // A refused action still catches the finger, to show the rules' reason in the panel.
    fb.frame().targets.back().refusal = why_not.value_or("");
  };
  action("props.build", build_label, build_no,
         {fmt::format("{}: build a {} on {} for {}?", who, hotel_next ? words.hotel : words.house, sp.name,
                      Wording::money(*game, sp.house_cost)),
          "Build", player, ApplyInput{rules::Build{player, space}, {}, std::nullopt, {}}, nullptr});
  // The sale question says what is sold on every lot and for how much before anything is posted; a sale
  // that takes the group's hotels at once goes out confirmed for the whole group.
  const auto sale = game->sale_plan(player, space);
  Confirmation sell_request{"", "Sell", player, ApplyInput{rules::Sell{player, space}, {}, std::nullopt, {}},
                            nullptr};
  if (sale) {
    sell_request.question = Wording::sale_question(*game, *sale);
    sell_request.details = Wording::sale_lines(*game, *sale);
    sell_request.action.input = rules::Sell{player, space, sale->changes_other_lots()};
  }
  action("props.sell", "Sell building", sell_no, sell_request);
  action("props.mortgage", "Mortgage", mortgage_no,
         {fmt::format("{}: mortgage {} for {}?", who, sp.name, Wording::money(*game, sp.mortgage)),
          "Mortgage", player, ApplyInput{rules::Mortgage{player, space}, {}, std::nullopt, {}}, nullptr});
  action("props.lift", "Lift mortgage", lift_no,
         {fmt::format("{}: lift the mortgage on {} for {}?", who, sp.name, Wording::money(*game, lift_cost)),
          "Lift", player, ApplyInput{rules::Unmortgage{player, space}, {}, std::nullopt, {}}, nullptr});

  // Why the rules refuse, for the most likely wish: building, else lifting a mortgage.
  std::string why = ui.message();
  if (why.empty()) {
    if (ss.mortgaged && lift_no)
      why = "Lift: " + *lift_no;
    else if (!ss.mortgaged && build_no && sp.house_cost > 0)
      why = "Build: " + *build_no;
  }
  if (!why.empty()) {
    const int ry = by + (4 / cols) * (l.button_h + l.pad);
    fb.paragraph({panel.x + pad, ry, panel.w - 2 * pad, panel.bottom() - ry - pad}, why, FontFace::bold,
                 l.font_body, Palette::highlight);
  }
}

}  // namespace bb::display
