#include "display/dice_dialog.h"

#include <fmt/format.h>

#include "display/frame_builder.h"
#include "display/palette.h"
#include "display/ui_context.h"
#include "display/widgets.h"

namespace bb::display {

void DiceDialog::build(FrameBuilder& fb, UiContext& ui) {
  const auto& l = fb.layout();
  const Rect p = Widgets::dialog(fb, l.s(640), l.s(330));
  const int pad = l.s(12);
  const auto* game = ui.snapshot().game;
  const std::string who = game ? game->account_name(player_) : "";
  fb.text({p.x + pad, p.y + pad, p.w - 2 * pad, l.s(36)}, fmt::format("{}: what did the dice show?", who),
          FontFace::bold, l.font_large, Palette::text);
  const int label_w = l.s(120);
  const int key = (p.w - 2 * pad - label_w - 5 * l.pad) / 6;
  for (int die = 0; die < 2; ++die) {
    int* value = die == 0 ? &d1_ : &d2_;
    const int y = p.y + pad + l.s(48) + die * (key + l.pad);
    fb.text({p.x + pad, y, label_w, key}, die == 0 ? "First die" : "Second die", FontFace::regular,
            l.font_body, Palette::muted);
    for (int v = 1; v <= 6; ++v) {
      const Rect r{p.x + pad + label_w + (v - 1) * (key + l.pad), y, key, key};
      fb.button(
          fmt::format("dice.{}.{}", die + 1, v), r, std::to_string(v),
          *value == v ? Palette::highlight : Palette::panel_light, [value, v] { *value = v; }, true, {},
          l.font_large);
    }
  }
  const int bw = (p.w - 3 * pad) / 2;
  const Rect cancel{p.x + pad, p.bottom() - pad - l.button_h, bw, l.button_h};
  fb.button("dice.cancel", cancel, "Cancel", Palette::panel_light, [&ui] { ui.close_dialog(); });
  const bool ready = d1_ > 0 && d2_ > 0;
  fb.button(
      "dice.ok", {cancel.right() + pad, cancel.y, bw, l.button_h},
      ready ? fmt::format("Move {}", d1_ + d2_) : std::string("Move"), Palette::accept,
      [this, &ui] {
        ui.cue(Cue::tap);
        ui.close_dialog();
        if (on_dice_)
          on_dice_(d1_, d2_);
        else
          ui.emit(ApplyInput{rules::Roll{d1_, d2_}, {}, std::nullopt, {}});
      },
      ready, "Tap the number on each die first");
}

}  // namespace bb::display
