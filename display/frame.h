#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "display/geometry.h"
#include "display/text_measure.h"

namespace bb::display {

enum class Align { left, centre, right };

// One drawing instruction. A frame is plain data so that tests can check its structure (text inside its box,
// touch targets apart and large enough) without looking at pixels.
struct DrawOp {
  enum class Kind { fill, outline, text, line, circle, image };
  Kind kind = Kind::fill;
  Rect rect;  // fill/outline/image: the area; text: the box the text must fit; circle: bounding square
  Colour colour;
  int thickness = 1;
  int x2 = 0, y2 = 0;  // line: from rect.x,rect.y to x2,y2
  std::string text;
  FontFace face = FontFace::regular;
  int px = 20;
  Align align = Align::left;
  TextSize text_size;  // as measured when laid out
  int image = -1;      // image: index into Frame::images
  Rect source;         // image: the part of the image shown, in image pixels (empty: all of it)
  int layer = 0;       // 0: the screen; 1: a dialog over it
};

// Something a finger can press. Disabled targets still catch the touch, to say why they are refused.
struct Target {
  std::string id;  // stable name for tests and logs: "home.buy", "props.build"
  Rect rect;
  std::string label;  // what a button says (drawn inside `rect`, in full); empty for a plain touch area
  bool enabled = true;
  std::string refusal;  // shown when a disabled target is pressed
  std::function<void()> on_tap;
  int layer = 0;
};

struct Image {
  int width = 0, height = 0;
  const std::vector<unsigned char>* rgb = nullptr;  // width*height*3 bytes, owned by the snapshot
};

class Frame {
 public:
  Frame(int width, int height) : width_(width), height_(height) {}
  int width() const { return width_; }
  int height() const { return height_; }

  std::vector<DrawOp> ops;
  std::vector<Target> targets;
  std::vector<Image> images;

  const Target* find(const std::string& id) const;
  // The topmost target under a point (dialogs win over the screen below).
  const Target* hit(int x, int y) const;
  // Every label drawn, in order (for tests and the screen's own checks).
  std::vector<const DrawOp*> texts() const;
  // Whether a label (or consecutive labels, as a wrapped paragraph draws them) contains the text.
  bool shows(const std::string& text_fragment) const;

 private:
  int width_;
  int height_;
};

}  // namespace bb::display
