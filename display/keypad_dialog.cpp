#include "display/keypad_dialog.h"

#include <fmt/format.h>

#include <algorithm>

#include "display/frame_builder.h"
#include "display/palette.h"
#include "display/ui_context.h"
#include "display/widgets.h"

namespace bb::display {

std::expected<rules::Money, std::string> KeypadDialog::parse(const std::string& typed,
                                                             const rules::Currency& currency) {
  if (typed.empty()) return std::unexpected("Type an amount");
  long long multiplier = 1;
  std::string digits = typed;
  if (digits.back() == 'M')
    multiplier = 1'000'000, digits.pop_back();
  else if (digits.back() == 'K')
    multiplier = 1'000, digits.pop_back();
  long long whole = 0, frac = 0, frac_scale = 1;
  bool point = false;
  for (char c : digits) {
    if (c == '.') {
      if (point) return std::unexpected("Only one decimal point");
      point = true;
    } else if (c >= '0' && c <= '9') {
      if (whole > 100'000'000'000LL) return std::unexpected("That amount is too large");
      if (point)
        frac = frac * 10 + (c - '0'), frac_scale *= 10;
      else
        whole = whole * 10 + (c - '0');
    } else {
      return std::unexpected("Unexpected key");
    }
  }
  if (point && frac_scale > 1'000) return std::unexpected("Too many decimals");
  // Printed value = (whole + frac / frac_scale) * multiplier; money = printed / unit, exactly.
  const long long printed_scaled = (whole * frac_scale + frac) * multiplier;  // printed * frac_scale
  const long long unit_scaled = currency.unit * frac_scale;
  if (unit_scaled <= 0 || printed_scaled % unit_scaled != 0) {
    if (currency.mk) return std::unexpected("Amounts go in steps of 10K");
    return std::unexpected("Whole amounts only");
  }
  return printed_scaled / unit_scaled;
}

void KeypadDialog::press(const std::string& key) {
  error_.clear();
  if (key == "back") {
    if (!typed_.empty()) typed_.pop_back();
    return;
  }
  if (key == "clear") {
    typed_.clear();
    return;
  }
  if (!typed_.empty() && (typed_.back() == 'M' || typed_.back() == 'K')) return;  // a unit ends the amount
  if (typed_.size() >= 12) return;
  typed_ += key;
}

void KeypadDialog::ok(UiContext& ui) {
  if (request_.mode == Mode::pin) {
    const std::string verdict = request_.on_pin ? request_.on_pin(typed_) : std::string{};
    if (!verdict.empty()) {
      error_ = verdict;
      typed_.clear();
      ui.cue(Cue::refused);
    }
    return;
  }
  const auto* game = ui.snapshot().game;
  const rules::Currency currency = game ? game->edition().currency : rules::Currency{};
  auto amount = parse(typed_, currency);
  if (!amount) {
    error_ = amount.error();
    ui.cue(Cue::refused);
    return;
  }
  auto done = request_.on_amount;
  ui.close_dialog();
  if (done) done(*amount);
}

bool KeypadDialog::on_card(const std::string& uid, std::optional<rules::PlayerId> /*player*/, UiContext& ui) {
  if (request_.mode != Mode::pin) return false;
  // The banker's card counts as the PIN.
  if (!ui.settings().banker_card.empty() && uid == ui.settings().banker_card) {
    if (request_.on_pin) request_.on_pin(ui.settings().card_as_pin());
    return true;
  }
  error_ = "That is not the banker's card";
  ui.cue(Cue::refused);
  return true;
}

void KeypadDialog::build(FrameBuilder& fb, UiContext& ui) {
  const auto& l = fb.layout();
  const Rect p = Widgets::dialog(fb, l.s(620), l.s(420));
  const int pad = l.s(12);
  const auto* game = ui.snapshot().game;
  const bool mk = game && game->edition().currency.mk && request_.mode == Mode::amount;

  fb.text({p.x + pad, p.y + pad, p.w - 2 * pad, l.s(32)}, request_.title, FontFace::bold, l.font_body,
          Palette::text);
  // The keys keep room beside them for the side keys (M, K, OK) on a narrow (portrait) screen.
  const int keys_w = std::min(l.s(360), p.w - 2 * pad - l.s(140));
  const Rect display{p.x + pad, p.y + pad + l.s(36), keys_w, l.s(56)};
  fb.fill(display, Palette::background);
  std::string shown;
  if (request_.mode == Mode::pin) {
    for (std::size_t i = 0; i < typed_.size(); ++i) shown += "\u25CF ";
    if (shown.empty()) shown = "PIN";
  } else {
    shown = typed_.empty() ? "0" : typed_;
    if (game && !typed_.empty()) {
      if (auto m = parse(typed_, game->edition().currency)) {
        const std::string printed = game->edition().format_money(*m);
        if (printed.find(typed_) == std::string::npos) shown += "  = " + printed;
      }
    }
  }
  fb.text(display.inset(l.s(8)), shown, FontFace::bold, l.font_huge, Palette::text, Align::right);
  if (!error_.empty())
    fb.text({display.right() + pad, display.y, p.right() - display.right() - 2 * pad, display.h}, error_,
            FontFace::bold, l.font_small, Palette::highlight, Align::left, l.s(12));

  const int key_w = (keys_w - 2 * l.pad) / 3;
  const int key_h = (p.bottom() - display.bottom() - 2 * pad - 3 * l.pad) / 4;
  const char* keys[4][3] = {{"1", "2", "3"}, {"4", "5", "6"}, {"7", "8", "9"}, {"clear", "0", "back"}};
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 3; ++c) {
      const std::string k = keys[r][c];
      const Rect kr{display.x + c * (key_w + l.pad), display.bottom() + pad + r * (key_h + l.pad), key_w,
                    key_h};
      const std::string label = k == "clear" ? "C" : k == "back" ? "\u232B" : k;
      fb.button(
          "keypad." + k, kr, label, Palette::panel_light, [this, k] { press(k); }, true, {}, l.font_large);
    }
  const Rect side{display.right() + pad, display.bottom() + pad, p.right() - display.right() - 2 * pad,
                  4 * key_h + 3 * l.pad};
  int y = side.y;
  if (mk) {
    const int w = (side.w - l.pad) / 2;
    fb.button(
        "keypad.M", {side.x, y, w, key_h}, "M", Palette::panel_light, [this] { press("M"); }, true, {},
        l.font_large);
    fb.button(
        "keypad.K", {side.x + w + l.pad, y, w, key_h}, "K", Palette::panel_light, [this] { press("K"); },
        true, {}, l.font_large);
    y += key_h + l.pad;
    fb.button(
        "keypad.point", {side.x, y, w, key_h}, ".", Palette::panel_light, [this] { press("."); }, true, {},
        l.font_large);
    y += key_h + l.pad;
  }
  const Rect cancel{side.x, side.bottom() - 2 * key_h - l.pad, side.w, key_h};
  fb.button("keypad.cancel", cancel, "Cancel", Palette::panel_light, [&ui] { ui.close_dialog(); });
  fb.button("keypad.ok", {side.x, side.bottom() - key_h, side.w, key_h}, "OK", Palette::accept,
            [this, &ui] { ok(ui); });
}

}  // namespace bb::display
