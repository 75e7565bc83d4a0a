#include "display/choice_dialog.h"

#include <fmt/format.h>

#include <algorithm>

#include "display/frame_builder.h"
#include "display/palette.h"
#include "display/ui_context.h"
#include "display/widgets.h"

namespace bb::display {

void ChoiceDialog::build(FrameBuilder& fb, UiContext& ui) {
  const auto& l = fb.layout();
  const Rect p = Widgets::dialog(fb, l.width - 2 * l.s(40), l.height - 2 * l.s(16));
  const int pad = l.s(12);
  fb.text({p.x + pad, p.y + pad, p.w - 2 * pad, l.s(36)}, title_, FontFace::bold, l.font_large,
          Palette::text);
  const int top = p.y + pad + l.s(44);
  const int bottom = p.bottom() - pad - l.button_h - l.pad;
  // Two choices a row where their labels fit, else one a row, on taller buttons if a label needs a third
  // line (a portrait screen, the long lists of ship lines).
  const int half_w = (p.w - 2 * pad - l.pad) / 2, full_w = p.w - 2 * pad;
  auto all_fit = [&](int w, int h) {
    return std::ranges::all_of(choices_, [&](const auto& c) {
      return fb.label_fits(
          w, h, c.label, 0,
          c.swatch.a != 0 ? FrameBuilder::LabelRoom::beside_swatch : FrameBuilder::LabelRoom::whole_button);
    });
  };
  const int cols = all_fit(half_w, l.button_h) ? 2 : 1;
  const int cw = cols == 2 ? half_w : full_w;
  const int ch = cols == 2 || all_fit(full_w, l.button_h) ? l.button_h : l.button_h * 3 / 2;
  const int rows = std::max(1, (bottom - top + l.pad) / (ch + l.pad));
  const int per_page = rows * cols;
  const int pages = (static_cast<int>(choices_.size()) + per_page - 1) / per_page;
  page_ = std::clamp(page_, 0, std::max(0, pages - 1));
  for (int i = 0; i < per_page; ++i) {
    const int index = page_ * per_page + i;
    if (index >= static_cast<int>(choices_.size())) break;
    const auto& c = choices_[static_cast<std::size_t>(index)];
    const Rect r{p.x + pad + (i % cols) * (cw + l.pad), top + (i / cols) * (ch + l.pad), cw, ch};
    auto choose = on_choose_;
    auto tap = [choose, index, &ui] {
      ui.close_dialog();
      if (choose) choose(index);
    };
    const std::string id = fmt::format("choice.{}", index);
    if (c.swatch.a != 0)
      fb.swatch_button(id, r, c.swatch, c.label, Palette::panel_light, tap);
    else
      fb.button(id, r, c.label, Palette::panel_light, tap);
  }
  const Rect cancel{p.x + pad, p.bottom() - pad - l.button_h, l.s(160), l.button_h};
  fb.button("choice.cancel", cancel, "Cancel", Palette::panel_light, [&ui] { ui.close_dialog(); });
  if (pages > 1)
    Widgets::pager(fb, "choice.page",
                   {cancel.right() + l.pad, cancel.y, p.right() - pad - cancel.right() - l.pad, l.button_h},
                   page_, pages);
}

}  // namespace bb::display
