#include "display/setup_screen.h"

#include <fmt/format.h>

#include <algorithm>

#include "display/frame_builder.h"
#include "display/palette.h"
#include "display/ui_context.h"
#include "display/widgets.h"

namespace bb::display {
namespace {
const std::vector<std::string> kTokens = {"car", "dog", "hat", "boot", "ship", "thimble", "iron", "cat"};
constexpr std::size_t kMaxPlayers = 8;

std::string humanise(const std::string& id) {
  std::string s = id;
  for (auto& c : s)
    if (c == '_') c = ' ';
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}
}  // namespace

void SetupScreen::register_player(UiContext& ui, const std::string& card) {
  if (players_.size() >= kMaxPlayers) {
    ui.say("The table is full");
    return;
  }
  std::vector<int> free;
  for (int c = 0; c < Palette::kPlayerColours; ++c)
    if (std::none_of(players_.begin(), players_.end(), [c](const auto& p) { return p.colour == c; }))
      free.push_back(c);
  std::vector<std::string> tokens;
  for (const auto& t : kTokens)
    if (std::none_of(players_.begin(), players_.end(), [&t](const auto& p) { return p.token == t; }))
      tokens.push_back(t);
  ui.open_dialog(std::make_unique<PlayerDialog>(
      card, free, tokens, [this](PlayerDialog::Result r) { players_.push_back(std::move(r)); }));
}

bool SetupScreen::on_card(const std::string& uid, std::optional<rules::PlayerId> player, UiContext& ui) {
  if (std::any_of(players_.begin(), players_.end(), [&uid](const auto& p) { return p.card == uid; })) {
    ui.say("That card is already registered");
    return true;
  }
  (void)player;
  register_player(ui, uid);
  return true;
}

void SetupScreen::build(FrameBuilder& fb, UiContext& ui) {
  const auto& l = fb.layout();
  fb.fill({0, 0, l.width, l.height}, Palette::background);
  const Rect body = Widgets::top_bar(fb, ui, "New game");
  const auto& editions = ui.snapshot().editions;
  const int col_w = (l.width - 4 * l.pad) / 3;
  const int top = body.y + l.pad;
  const int bottom = l.height - l.pad;
  // Editions.
  const Rect ecol{l.pad, top, col_w, bottom - top};
  fb.fill(ecol, Palette::panel);
  fb.text({ecol.x + l.s(6), ecol.y, ecol.w - l.s(12), l.s(32)}, "Edition", FontFace::bold, l.font_body,
          Palette::muted);
  edition_ = std::clamp(edition_, 0, std::max(0, static_cast<int>(editions.size()) - 1));
  // Buttons a third taller where a name needs a third line (the narrow columns of a portrait screen).
  const int tall_h = l.button_h * 3 / 2;
  const int edition_h =
      std::ranges::all_of(
          editions, [&](const auto& ed) { return fb.label_fits(ecol.w - l.s(12), l.button_h, ed->name); })
          ? l.button_h
          : tall_h;
  int y = ecol.y + l.s(34);
  for (int i = 0; i < static_cast<int>(editions.size()) && y + edition_h <= ecol.bottom(); ++i) {
    const auto& ed = *editions[static_cast<std::size_t>(i)];
    fb.button(fmt::format("setup.edition.{}", i), {ecol.x + l.s(6), y, ecol.w - l.s(12), edition_h}, ed.name,
              i == edition_ ? Palette::primary : Palette::panel_light, [this, i] {
                if (edition_ != i) options_.clear();
                edition_ = i;
              });
    y += edition_h + l.pad;
  }
  if (editions.empty())
    fb.paragraph({ecol.x + l.s(6), y, ecol.w - l.s(12), l.s(120)},
                 "No editions found: check the editions folder", FontFace::regular, l.font_small,
                 Palette::highlight);
  // House rules.
  const Rect ocol{2 * l.pad + col_w, top, col_w, bottom - top};
  fb.fill(ocol, Palette::panel);
  fb.text({ocol.x + l.s(6), ocol.y, ocol.w - l.s(12), l.s(32)}, "House rules", FontFace::bold, l.font_body,
          Palette::muted);
  if (!editions.empty()) {
    const auto& ed = *editions[static_cast<std::size_t>(edition_)];
    const int pager_h = l.target;
    const int option_h = std::ranges::all_of(ed.options,
                                             [&](const auto& opt) {
                                               return fb.label_fits(ocol.w - l.s(12), l.button_h,
                                                                    "\u2610 " + humanise(opt.name));
                                             })
                             ? l.button_h
                             : tall_h;
    const int rows = std::max(1, (ocol.h - l.s(34) - pager_h - l.pad) / (option_h + l.pad));
    const int pages = (static_cast<int>(ed.options.size()) + rows - 1) / rows;
    option_page_ = std::clamp(option_page_, 0, std::max(0, pages - 1));
    y = ocol.y + l.s(34);
    for (int k = 0; k < rows; ++k) {
      const int i = option_page_ * rows + k;
      if (i >= static_cast<int>(ed.options.size())) break;
      const auto& opt = ed.options[static_cast<std::size_t>(i)];
      const bool on = options_.contains(opt.name) ? options_[opt.name] : opt.default_on;
      const std::string name = opt.name;
      const bool def = opt.default_on;
      fb.button("setup.option." + name, {ocol.x + l.s(6), y, ocol.w - l.s(12), option_h},
                (on ? "\u2611 " : "\u2610 ") + humanise(name), on ? Palette::accept : Palette::panel_light,
                [this, name, def] {
                  const bool cur = options_.contains(name) ? options_[name] : def;
                  options_[name] = !cur;
                });
      y += option_h + l.pad;
    }
    if (ed.options.empty())
      fb.text({ocol.x + l.s(6), y, ocol.w - l.s(12), l.s(30)}, "This edition has none", FontFace::regular,
              l.font_small, Palette::muted);
    if (pages > 1)
      Widgets::pager(fb, "setup.options.page",
                     {ocol.x + l.s(6), ocol.bottom() - pager_h - l.s(4), ocol.w - l.s(12), pager_h},
                     option_page_, pages);
  }
  // Players.
  const Rect pcol{3 * l.pad + 2 * col_w, top, col_w, bottom - top};
  fb.fill(pcol, Palette::panel);
  fb.text({pcol.x + l.s(6), pcol.y, pcol.w - l.s(12), l.s(32)}, "Players: tap a new card", FontFace::bold,
          l.font_body, Palette::muted);
  y = pcol.y + l.s(34);
  const int actions_h = 2 * l.button_h + l.pad + (ui.snapshot().unfinished_game ? l.button_h + l.pad : 0);
  const int row = l.s(34);
  for (std::size_t i = 0; i < players_.size() && y + row <= pcol.bottom() - actions_h - l.pad; ++i) {
    const auto& p = players_[i];
    fb.fill({pcol.x + l.s(6), y + l.s(4), l.s(24), row - l.s(8)}, Palette::player(p.colour));
    fb.text({pcol.x + l.s(36), y, pcol.w - l.s(42), row}, fmt::format("{} ({})", p.name, p.token),
            FontFace::bold, l.font_small, Palette::text);
    y += row;
  }
  int by = pcol.bottom() - actions_h;
  fb.button(
      "setup.add", {pcol.x + l.s(6), by, pcol.w - l.s(12), l.button_h}, "Add player by hand",
      Palette::panel_light, [this, &ui] { register_player(ui, ""); }, players_.size() < kMaxPlayers,
      "At most eight players");
  by += l.button_h + l.pad;
  fb.button(
      "setup.start", {pcol.x + l.s(6), by, pcol.w - l.s(12), l.button_h}, "Start the game", Palette::accept,
      [this, &ui] {
        StartGame start;
        start.setup.edition = ui.snapshot().editions[static_cast<std::size_t>(edition_)]->id;
        start.setup.options = options_;
        for (const auto& p : players_) {
          start.setup.players.push_back({p.name, p.token, p.card, {}});
          start.colours.push_back(p.colour);
        }
        ui.emit(std::move(start));
        players_.clear();
        ui.go(ScreenId::home);
      },
      players_.size() >= 2 && !editions.empty(), "Register at least two players");
  if (ui.snapshot().unfinished_game) {
    by += l.button_h + l.pad;
    fb.button("setup.resume", {pcol.x + l.s(6), by, pcol.w - l.s(12), l.button_h}, "Resume last game",
              Palette::primary, [&ui] {
                ui.emit(ResumeGame{});
                ui.go(ScreenId::home);
              });
  }
}

}  // namespace bb::display
