#pragma once
#include <expected>
#include <memory>
#include <optional>
#include <string>

#include "display/text_measure.h"

namespace bb::display {

// The DejaVu fonts from Debian's fonts-dejavu-core, opened once per size, with measurements cached.
class FontSet : public TextMeasure {
 public:
  // Looks in `dir` if given, else in BOARDBANK_FONT_DIR, else where Debian installs the package. A `dir` or a
  // BOARDBANK_FONT_DIR (when no `dir` is given) without both faces is refused, never passed over: with the
  // words of why_not_open(dir).
  static std::expected<std::unique_ptr<FontSet>, std::string> open(const std::string& dir = {});
  // Why open(dir) would refuse the folder named for it (`dir`, or BOARDBANK_FONT_DIR when `dir` is empty)
  // because it lacks DejaVuSans.ttf or DejaVuSans-Bold.ttf, in words that say what to do; nothing when no
  // folder is named or the one named holds both (open() may still find no fonts where Debian puts them).
  // open() refuses with these words and check-config quotes them. Reads the environment and the file
  // system; any thread.
  static std::optional<std::string> why_not_open(const std::string& dir = {});
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
