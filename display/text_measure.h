#pragma once
#include <string>

namespace bb::display {

enum class FontFace { regular, bold };

struct TextSize {
  int w = 0, h = 0;
};

// Measures text as it will be drawn, so that screens can fit labels into their boxes before drawing.
class TextMeasure {
 public:
  virtual ~TextMeasure() = default;
  virtual TextSize measure(const std::string& utf8, FontFace face, int px) = 0;
};

}  // namespace bb::display
