#include "display/choice_dialog.h"

#include <fmt/format.h>

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
  const int rows = std::max(1, (bottom - top + l.pad) / (l.button_h + l.pad));
  const int per_page = rows * 2;
  const int pages = (static_cast<int>(choices_.size()) + per_page - 1) / per_page;
  page_ = std::clamp(page_, 0, std::max(0, pages - 1));
  const int cw = (p.w - 2 * pad - l.pad) / 2;
  for (int i = 0; i < per_page; ++i) {
    const int index = page_ * per_page + i;
    if (index >= static_cast<int>(choices_.size())) break;
    const auto& c = choices_[static_cast<std::size_t>(index)];
    const Rect r{p.x + pad + (i % 2) * (cw + l.pad), top + (i / 2) * (l.button_h + l.pad), cw, l.button_h};
    auto choose = on_choose_;
    fb.button(fmt::format("choice.{}", index), r, c.label, Palette::panel_light, [choose, index, &ui] {
      ui.close_dialog();
      if (choose) choose(index);
    });
    if (c.swatch.a != 0) fb.fill({r.x, r.y, l.s(10), r.h}, c.swatch);
  }
  const Rect cancel{p.x + pad, p.bottom() - pad - l.button_h, l.s(160), l.button_h};
  fb.button("choice.cancel", cancel, "Cancel", Palette::panel_light, [&ui] { ui.close_dialog(); });
  if (pages > 1)
    Widgets::pager(fb, "choice.page",
                   {cancel.right() + l.pad, cancel.y, p.right() - pad - cancel.right() - l.pad, l.button_h},
                   page_, pages);
}

}  // namespace bb::display
