#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "display/frame.h"
#include "display/layout.h"
#include "display/text_measure.h"

namespace bb::display {

// Adds drawing and touch targets to a frame, fitting every label into its box: a label that is too long is
// set smaller (down to a floor that still reads across the table) and then shortened with an ellipsis.
class FrameBuilder {
 public:
  FrameBuilder(Frame& frame, const Layout& layout, TextMeasure& measure);

  const Layout& layout() const { return layout_; }
  Frame& frame() { return frame_; }
  TextMeasure& measure() { return measure_; }
  void set_layer(int layer) { layer_ = layer; }

  void fill(Rect r, Colour c);
  void outline(Rect r, Colour c, int thickness = 2);
  void line(int x1, int y1, int x2, int y2, Colour c, int thickness = 1);
  void circle(Rect square, Colour c);
  // Draws `image` (or its `source` part, in image pixels) scaled into `r`.
  void image(Rect r, const Image& image, Rect source = {});

  // One line of text in `box`, vertically centred. Returns what was drawn.
  TextSize text(Rect box, const std::string& s, FontFace face, int px, Colour c, Align align = Align::left,
                int min_px = 0);
  // Wrapped text from the top of `box`; lines that do not fit are dropped (the last shown ends in an
  // ellipsis). Returns the height used.
  int paragraph(Rect box, const std::string& s, FontFace face, int px, Colour c, Align align = Align::left);

  // A button: a filled target with a centred label, on one line where it fits (set smaller if need be), else
  // on as many lines as the button holds, words kept whole; shortened only when neither fits. Disabled
  // buttons are grey and say why when pressed.
  Target& button(const std::string& id, Rect r, const std::string& label, Colour bg,
                 std::function<void()> tap, bool enabled = true, const std::string& refusal = {}, int px = 0);
  // A button with a colour swatch down its left edge (a group's or a player's colour): the label is laid out
  // in the part beside the swatch, so a long label is never drawn under it.
  Target& swatch_button(const std::string& id, Rect r, Colour swatch, const std::string& label, Colour bg,
                        std::function<void()> tap, bool enabled = true, const std::string& refusal = {});
  int swatch_width() const;
  // Whether a button of this size shows `label` in full (one line, or wrapped), as button() would draw it
  // (or, beside_swatch, as swatch_button() would): screens choose how many buttons go side by side by it.
  enum class LabelRoom { whole_button, beside_swatch };
  bool label_fits(int button_w, int button_h, const std::string& label, int px = 0,
                  LabelRoom room = LabelRoom::whole_button);
  // A touch area with no look of its own (a row, a card).
  Target& area(const std::string& id, Rect r, std::function<void()> tap);

  // Cuts `s` at a character boundary so that it fits `width` at `px`, ending in an ellipsis.
  std::string ellipsize(const std::string& s, FontFace face, int px, int width);

 private:
  struct LabelLines {
    int px = 0;
    int line_h = 0;
    std::vector<std::string> lines;
  };
  // The box inside a button where its label goes, and the smallest size a label line is set in.
  Rect label_box(Rect button) const;
  // The face, the label in `box` and the touch target of a button.
  Target& labelled_target(const std::string& id, Rect r, Rect box, const std::string& label,
                          Colour face_colour, std::function<void()> tap, bool enabled,
                          const std::string& refusal, int px);
  int label_min_px(int px) const;
  // A button's label in `box`: one line at the largest size from `px` down to `min_px` that fits, else two
  // or more lines (words kept whole) at the largest size that fits; nothing when neither does.
  std::optional<LabelLines> fit_label(Rect box, const std::string& s, FontFace face, int px, int min_px);

  Frame& frame_;
  const Layout& layout_;
  TextMeasure& measure_;
  int layer_ = 0;
};

}  // namespace bb::display
