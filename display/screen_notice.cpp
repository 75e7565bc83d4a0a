#include "display/screen_notice.h"

#include <algorithm>

#include "display/frame_builder.h"
#include "display/palette.h"

namespace bb::display {

Frame frame_with_notice(const Frame& last, const Layout& layout, TextMeasure& measure,
                        const ScreenNotice& notice) {
  Frame frame(last.width(), last.height());
  frame.ops = last.ops;
  frame.images = last.images;
  FrameBuilder b(frame, layout, measure);
  // Above a dialog the last picture may show (layer 1).
  b.set_layer(2);
  if (last.ops.empty()) b.fill({0, 0, last.width(), last.height()}, Palette::background);
  b.fill({0, 0, last.width(), last.height()}, Palette::shade);
  const int pad = layout.pad * 2;
  const int w = std::min(last.width() - 2 * layout.pad, layout.s(640));
  const int title_h = measure.measure("Hg", FontFace::bold, layout.font_large).h + layout.pad;
  // As tall as the body needs, up to most of the screen.
  const int line_h = measure.measure("Hg", FontFace::regular, layout.font_body).h;
  const int max_h = last.height() - 2 * layout.pad;
  const int body_lines = std::max(3, (max_h - title_h - 3 * pad) / std::max(1, line_h));
  Rect box{(last.width() - w) / 2, 0, w, 0};
  Rect body{box.x + pad, 0, w - 2 * pad, body_lines * line_h};
  // Lay the body out once off the picture to learn its height, then for real.
  Frame probe(last.width(), last.height());
  FrameBuilder measure_only(probe, layout, measure);
  const int used =
      measure_only.paragraph(body, notice.body, FontFace::regular, layout.font_body, Palette::text);
  box.h = std::min(max_h, pad + title_h + pad / 2 + used + pad);
  box.y = (last.height() - box.h) / 2;
  b.fill(box, Palette::panel);
  b.fill({box.x, box.y, layout.s(8), box.h}, Palette::danger);
  b.outline(box, Palette::danger, 3);
  b.text({box.x + pad, box.y + pad, w - 2 * pad, title_h}, notice.title, FontFace::bold, layout.font_large,
         Palette::text);
  body.y = box.y + pad + title_h + pad / 2;
  body.h = box.y + box.h - pad - body.y;
  b.paragraph(body, notice.body, FontFace::regular, layout.font_body, Palette::text);
  return frame;
}

}  // namespace bb::display
