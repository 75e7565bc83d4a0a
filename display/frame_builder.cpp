#include "display/frame_builder.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "display/palette.h"

namespace bb::display {
FrameBuilder::FrameBuilder(Frame& frame, const Layout& layout, TextMeasure& measure)
    : frame_(frame), layout_(layout), measure_(measure) {}

void FrameBuilder::fill(Rect r, Colour c) {
  DrawOp op;
  op.kind = DrawOp::Kind::fill;
  op.rect = r;
  op.colour = c;
  op.layer = layer_;
  frame_.ops.push_back(std::move(op));
}

void FrameBuilder::outline(Rect r, Colour c, int thickness) {
  DrawOp op;
  op.kind = DrawOp::Kind::outline;
  op.rect = r;
  op.colour = c;
  op.thickness = thickness;
  op.layer = layer_;
  frame_.ops.push_back(std::move(op));
}

void FrameBuilder::line(int x1, int y1, int x2, int y2, Colour c, int thickness) {
  DrawOp op;
  op.kind = DrawOp::Kind::line;
  op.rect = {x1, y1, 0, 0};
  op.x2 = x2;
  op.y2 = y2;
  op.colour = c;
  op.thickness = thickness;
  op.layer = layer_;
  frame_.ops.push_back(std::move(op));
}

void FrameBuilder::circle(Rect square, Colour c) {
  DrawOp op;
  op.kind = DrawOp::Kind::circle;
  op.rect = square;
  op.colour = c;
  op.layer = layer_;
  frame_.ops.push_back(std::move(op));
}

void FrameBuilder::image(Rect r, const Image& img, Rect source) {
  frame_.images.push_back(img);
  DrawOp op;
  op.kind = DrawOp::Kind::image;
  op.rect = r;
  op.source = source;
  op.image = static_cast<int>(frame_.images.size()) - 1;
  op.layer = layer_;
  frame_.ops.push_back(std::move(op));
}

std::string FrameBuilder::ellipsize(const std::string& s, FontFace face, int px, int width) {
  if (measure_.measure(s, face, px).w <= width) return s;
  static const std::string dots = "\u2026";
  std::vector<std::size_t> cuts;  // byte offsets of character starts
  for (std::size_t i = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) cuts.push_back(i);
  auto fits = [&](std::size_t n) {
    std::string head = s.substr(0, cuts[n]);
    while (!head.empty() && head.back() == ' ') head.pop_back();
    return measure_.measure(head + dots, face, px).w <= width;
  };
  std::size_t lo = 0, hi = cuts.size() - 1;  // fits(lo) is assumed; search the longest that fits
  if (!fits(0)) return {};
  while (lo < hi) {
    const std::size_t mid = (lo + hi + 1) / 2;
    if (fits(mid))
      lo = mid;
    else
      hi = mid - 1;
  }
  std::string head = s.substr(0, cuts[lo]);
  while (!head.empty() && head.back() == ' ') head.pop_back();
  return head + dots;
}

TextSize FrameBuilder::text(Rect box, const std::string& s, FontFace face, int px, Colour c, Align align,
                            int min_px) {
  if (s.empty() || box.w <= 0 || box.h <= 0) return {};
  if (min_px <= 0) min_px = std::max(layout_.s(13), px * 3 / 4);
  min_px = std::min(min_px, px);
  int size = px;
  TextSize ts = measure_.measure(s, face, size);
  // Shrink in small steps: the text keeps its place in the hierarchy while it fits.
  while ((ts.w > box.w || ts.h > box.h) && size > min_px) {
    size = std::max(min_px, size - std::max(1, size / 10));
    ts = measure_.measure(s, face, size);
  }
  std::string shown = s;
  if (ts.h > box.h) return {};
  if (ts.w > box.w) {
    shown = ellipsize(s, face, size, box.w);
    if (shown.empty()) return {};
    ts = measure_.measure(shown, face, size);
  }
  DrawOp op;
  op.kind = DrawOp::Kind::text;
  op.rect = box;
  op.colour = c;
  op.text = std::move(shown);
  op.face = face;
  op.px = size;
  op.align = align;
  op.text_size = ts;
  op.layer = layer_;
  frame_.ops.push_back(std::move(op));
  return ts;
}

int FrameBuilder::paragraph(Rect box, const std::string& s, FontFace face, int px, Colour c, Align align) {
  std::vector<std::string> words;
  std::istringstream in(s);
  for (std::string w; in >> w;) words.push_back(w);
  const int line_h = measure_.measure("Hg", face, px).h;
  std::vector<std::string> lines;
  std::string current;
  for (const auto& w : words) {
    const std::string candidate = current.empty() ? w : current + " " + w;
    if (measure_.measure(candidate, face, px).w <= box.w || current.empty()) {
      current = candidate;
    } else {
      lines.push_back(current);
      current = w;
    }
  }
  if (!current.empty()) lines.push_back(current);
  const int max_lines = std::max(1, box.h / std::max(1, line_h));
  if (static_cast<int>(lines.size()) > max_lines) {
    lines.resize(static_cast<std::size_t>(max_lines));
    lines.back() += " \u2026";
  }
  int y = box.y;
  for (const auto& l : lines) {
    text({box.x, y, box.w, line_h}, l, face, px, c, align, px);
    y += line_h;
  }
  return y - box.y;
}

Target& FrameBuilder::button(const std::string& id, Rect r, const std::string& label, Colour bg,
                             std::function<void()> tap, bool enabled, const std::string& refusal, int px) {
  const Colour face_colour = enabled ? bg : Palette::disabled;
  fill(r, face_colour);
  return labelled_target(id, r, label_box(r), label, face_colour, std::move(tap), enabled, refusal, px);
}

int FrameBuilder::swatch_width() const { return layout_.s(10); }

Target& FrameBuilder::swatch_button(const std::string& id, Rect r, Colour swatch, const std::string& label,
                                    Colour bg, std::function<void()> tap, bool enabled,
                                    const std::string& refusal) {
  const Colour face_colour = enabled ? bg : Palette::disabled;
  fill(r, face_colour);
  const int sw = swatch_width();
  fill({r.x, r.y, sw, r.h}, swatch);
  return labelled_target(id, r, label_box({r.x + sw, r.y, r.w - sw, r.h}), label, face_colour, std::move(tap),
                         enabled, refusal, 0);
}

Target& FrameBuilder::labelled_target(const std::string& id, Rect r, Rect box, const std::string& label,
                                      Colour face_colour, std::function<void()> tap, bool enabled,
                                      const std::string& refusal, int px) {
  if (px <= 0) px = layout_.font_body;
  const Colour ink = enabled ? Palette::text_on(face_colour) : Palette::disabled_text;
  const int min_px = label_min_px(px);
  const auto fit = fit_label(box, label, FontFace::bold, px, min_px);
  if (fit && fit->lines.size() > 1) {
    int y = box.y + (box.h - fit->line_h * static_cast<int>(fit->lines.size())) / 2;
    for (const auto& line : fit->lines) {
      text({box.x, y, box.w, fit->line_h}, line, FontFace::bold, fit->px, ink, Align::centre, fit->px);
      y += fit->line_h;
    }
  } else {
    text(box, label, FontFace::bold, px, ink, Align::centre);  // one line, or shortened when nothing fits
  }
  Target t;
  t.id = id;
  t.rect = r;
  t.label = label;
  t.enabled = enabled;
  t.refusal = refusal;
  t.on_tap = std::move(tap);
  t.layer = layer_;
  frame_.targets.push_back(std::move(t));
  return frame_.targets.back();
}

Rect FrameBuilder::label_box(Rect button) const {
  const int inset = layout_.s(6);
  return {button.x + inset, button.y + 2, button.w - 2 * inset, button.h - 4};
}

int FrameBuilder::label_min_px(int px) const { return std::min(px, std::max(layout_.s(13), px * 3 / 4)); }

bool FrameBuilder::label_fits(int button_w, int button_h, const std::string& label, int px, LabelRoom room) {
  if (px <= 0) px = layout_.font_body;
  const int sw = room == LabelRoom::beside_swatch ? swatch_width() : 0;
  return fit_label(label_box({sw, 0, button_w - sw, button_h}), label, FontFace::bold, px, label_min_px(px))
      .has_value();
}

std::optional<FrameBuilder::LabelLines> FrameBuilder::fit_label(Rect box, const std::string& s, FontFace face,
                                                                int px, int min_px) {
  auto smaller = [&](int size) { return std::max(min_px, size - std::max(1, size / 10)); };
  for (int size = px;; size = smaller(size)) {  // one line, shrinking as text() does
    const TextSize ts = measure_.measure(s, face, size);
    if (ts.w <= box.w && ts.h <= box.h) return LabelLines{size, ts.h, {s}};
    if (size == min_px) break;
  }
  std::vector<std::string> words;
  std::istringstream in(s);
  for (std::string w; in >> w;) words.push_back(w);
  if (words.size() < 2) return std::nullopt;
  for (int size = px;; size = smaller(size)) {
    const int line_h = measure_.measure("Hg", face, size).h;
    std::vector<std::string> lines;
    bool word_too_wide = false;
    for (const auto& w : words) {
      word_too_wide |= measure_.measure(w, face, size).w > box.w;
      const std::string longer = lines.empty() ? w : lines.back() + " " + w;
      if (!lines.empty() && measure_.measure(longer, face, size).w <= box.w)
        lines.back() = longer;
      else
        lines.push_back(w);
    }
    if (!word_too_wide && line_h * static_cast<int>(lines.size()) <= box.h)
      return LabelLines{size, line_h, std::move(lines)};
    if (size == min_px) return std::nullopt;
  }
}

Target& FrameBuilder::area(const std::string& id, Rect r, std::function<void()> tap) {
  Target t;
  t.id = id;
  t.rect = r;
  t.on_tap = std::move(tap);
  t.layer = layer_;
  frame_.targets.push_back(std::move(t));
  return frame_.targets.back();
}

}  // namespace bb::display
