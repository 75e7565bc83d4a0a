#pragma once
#include <expected>
#include <memory>
#include <string>

#include "display/text_measure.h"

namespace bb::display {

// The DejaVu fonts from Debian's fonts-dejavu-core, opened once per size, with measurements cached.
class FontSet : public TextMeasure {
 public:
  // Looks in `dir` if given, else in BOARDBANK_FONT_DIR, else where Debian installs the package. A `dir` or a
  // BOARDBANK_FONT_DIR (when no `dir` is given) without both faces is refused, never passed over.
  static std::expected<std::unique_ptr<FontSet>, std::string> open(const std::string& dir = {});
  // Whether `folder` holds both faces open() needs (DejaVuSans.ttf and DejaVuSans-Bold.ttf): what open() asks
  // of a folder, and what check-config warns about. Any thread.
  static bool holds_the_fonts(const std::string& folder);
  ~FontSet() override;
  FontSet(const FontSet&) = delete;
  FontSet& operator=(const FontSet&) = delete;

  TextSize measure(const std::string& utf8, FontFace face, int px) override;
  // The TTF_Font for a face and size, opaque outside the display's .cpp files.
  void* font(FontFace face, int px);
  const std::string& directory() const;

 private:
  FontSet();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bb::display
