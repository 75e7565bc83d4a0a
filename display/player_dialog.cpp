#include "display/player_dialog.h"

#include <fmt/format.h>

#include <algorithm>

#include "display/frame_builder.h"
#include "display/palette.h"
#include "display/ui_context.h"
#include "display/widgets.h"

namespace bb::display {

PlayerDialog::PlayerDialog(std::string card, std::vector<int> free_colours, std::vector<std::string> tokens,
                           std::function<void(Result)> on_done)
    : colours_(std::move(free_colours)), tokens_(std::move(tokens)), on_done_(std::move(on_done)) {
  result_.card = std::move(card);
  if (!colours_.empty()) result_.colour = colours_.front();
  if (!tokens_.empty()) result_.token = tokens_.front();
}

void PlayerDialog::build(FrameBuilder& fb, UiContext& ui) {
  if (naming_)
    build_name(fb, ui);
  else
    build_looks(fb, ui);
}

void PlayerDialog::build_name(FrameBuilder& fb, UiContext& ui) {
  const auto& l = fb.layout();
  const Rect p = Widgets::dialog(fb, l.width - 2 * l.s(8), l.height - 2 * l.s(8));
  const int pad = l.s(10);
  const Rect field{p.x + pad, p.y + pad, p.w - 2 * pad, l.s(52)};
  fb.fill(field, Palette::background);
  fb.text(field.inset(l.s(6)), result_.name.empty() ? "Type your name" : result_.name + "_", FontFace::bold,
          l.font_large, result_.name.empty() ? Palette::muted : Palette::text);
  static const char* rows[3] = {"QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM"};
  const int key_w = (p.w - 2 * pad - 9 * l.s(4)) / 10;
  const int by = p.bottom() - pad - l.button_h;
  const int key_h = std::min(l.s(80), (by - field.bottom() - 2 * pad) / 3 - l.s(4));
  int y = field.bottom() + pad;
  for (int r = 0; r < 3; ++r) {
    const std::string row = rows[r];
    const int indent = r * key_w / 2;
    for (std::size_t i = 0; i < row.size(); ++i) {
      char c = row[i];
      if (!shift_) c = static_cast<char>(c - 'A' + 'a');
      const std::string k(1, c);
      const Rect kr{p.x + pad + indent + static_cast<int>(i) * (key_w + l.s(4)), y, key_w, key_h};
      fb.button(
          fmt::format("name.key.{}", row[i]), kr, k, Palette::panel_light,
          [this, k] {
            if (result_.name.size() < 24) result_.name += k;
            shift_ = false;
          },
          true, {}, l.font_large);
    }
    y += key_h + l.s(4);
  }
  const int w = (p.w - 2 * pad - 3 * l.pad) / 4;
  fb.button("name.cancel", {p.x + pad, by, w, l.button_h}, "Cancel", Palette::panel_light,
            [&ui] { ui.close_dialog(); });
  fb.button("name.space", {p.x + pad + (w + l.pad), by, w, l.button_h}, "Space", Palette::panel_light,
            [this] {
              if (!result_.name.empty() && result_.name.back() != ' ' && result_.name.size() < 24)
                result_.name += ' ';
              shift_ = true;
            });
  fb.button("name.back", {p.x + pad + 2 * (w + l.pad), by, w, l.button_h}, "\u232B Delete",
            Palette::panel_light, [this] {
              if (!result_.name.empty()) result_.name.pop_back();
              shift_ = result_.name.empty() || result_.name.back() == ' ';
            });
  fb.button(
      "name.next", {p.x + pad + 3 * (w + l.pad), by, w, l.button_h}, "Next \u25B6", Palette::accept,
      [this] {
        while (!result_.name.empty() && result_.name.back() == ' ') result_.name.pop_back();
        naming_ = false;
      },
      !result_.name.empty(), "Type a name first");
}

void PlayerDialog::build_looks(FrameBuilder& fb, UiContext& ui) {
  const auto& l = fb.layout();
  const Rect p = Widgets::dialog(fb, l.width - 2 * l.s(8), l.height - 2 * l.s(8));
  const int pad = l.s(10);
  fb.text({p.x + pad, p.y + pad, p.w - 2 * pad, l.s(36)}, fmt::format("{}: pick a colour", result_.name),
          FontFace::bold, l.font_large, Palette::text);
  const int n = static_cast<int>(colours_.size());
  const int sw = n > 0 ? std::min(l.s(84), (p.w - 2 * pad - (n - 1) * l.pad) / n) : 0;
  int y = p.y + pad + l.s(42);
  for (int i = 0; i < n; ++i) {
    const int c = colours_[static_cast<std::size_t>(i)];
    const Rect r{p.x + pad + i * (sw + l.pad), y, sw, l.s(56)};
    fb.button(
        fmt::format("player.colour.{}", c), r, result_.colour == c ? "\u2713" : "", Palette::player(c),
        [this, c] { result_.colour = c; }, true, {}, l.font_large);
    if (result_.colour == c) fb.outline(r.inset(-3), Palette::text, 3);
  }
  y += l.s(56) + pad;
  fb.text({p.x + pad, y, p.w - 2 * pad, l.s(36)}, "and a token", FontFace::bold, l.font_large, Palette::text);
  y += l.s(40);
  const int per_row = 4;
  const int tw = (p.w - 2 * pad - (per_row - 1) * l.pad) / per_row;
  for (std::size_t i = 0; i < tokens_.size() && i < 8; ++i) {
    const auto& t = tokens_[i];
    const Rect r{p.x + pad + static_cast<int>(i % per_row) * (tw + l.pad),
                 y + static_cast<int>(i / per_row) * (l.button_h + l.pad), tw, l.button_h};
    fb.button("player.token." + t, r, t, result_.token == t ? Palette::highlight : Palette::panel_light,
              [this, t] { result_.token = t; });
  }
  const int w = (p.w - 2 * pad - l.pad) / 2;
  const int by = p.bottom() - pad - l.button_h;
  fb.button("player.back", {p.x + pad, by, w, l.button_h}, "\u25C0 Name", Palette::panel_light,
            [this] { naming_ = true; });
  fb.button("player.done", {p.x + pad + w + l.pad, by, w, l.button_h}, "Done", Palette::accept, [this, &ui] {
    auto done = on_done_;
    auto result = result_;
    ui.close_dialog();
    if (done) done(result);
  });
}

}  // namespace bb::display
