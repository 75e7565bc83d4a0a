#include "display/font_set.h"

#include <SDL.h>
#include <SDL_ttf.h>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <unordered_map>
#include <vector>

namespace bb::display {

struct FontSet::Impl {
  std::string dir;
  std::map<std::pair<int, int>, TTF_Font*> fonts;
  std::unordered_map<std::string, TextSize> sizes;
};

FontSet::FontSet() : impl_(std::make_unique<Impl>()) {}

FontSet::~FontSet() {
  for (auto& [key, f] : impl_->fonts) TTF_CloseFont(f);
  TTF_Quit();
}

namespace {

// Whether `folder` holds both faces a FontSet needs.
bool holds_the_fonts(const std::string& folder) {
  std::error_code ec;
  return std::filesystem::exists(std::filesystem::path(folder) / "DejaVuSans.ttf", ec) &&
         std::filesystem::exists(std::filesystem::path(folder) / "DejaVuSans-Bold.ttf", ec);
}

}  // namespace

std::optional<std::string> FontSet::why_not_open(const std::string& dir) {
  // A folder named on purpose (--fonts, [screen] font_dir) is used or refused, never passed over for
  // Debian's: the family would see other letters than the ones they asked for, without a word.
  if (!dir.empty()) {
    if (holds_the_fonts(dir)) return std::nullopt;
    return fmt::format(
        "{} holds no DejaVuSans.ttf and DejaVuSans-Bold.ttf: name a folder holding both, or leave the font "
        "folder empty for Debian's (the package fonts-dejavu-core)",
        dir);
  }
  // BOARDBANK_FONT_DIR is named on purpose too: used when no folder is given, or refused.
  if (const char* env = std::getenv("BOARDBANK_FONT_DIR"); env && *env && !holds_the_fonts(env))
    return fmt::format(
        "BOARDBANK_FONT_DIR is set to {}, which holds no DejaVuSans.ttf and DejaVuSans-Bold.ttf: point it at "
        "a folder holding both, or unset it for Debian's (the package fonts-dejavu-core)",
        env);
  return std::nullopt;
}

std::expected<std::unique_ptr<FontSet>, std::string> FontSet::open(const std::string& dir) {
  if (auto why = why_not_open(dir)) return std::unexpected(std::move(*why));
  std::vector<std::string> candidates;
  if (!dir.empty()) candidates.push_back(dir);
  if (const char* env = std::getenv("BOARDBANK_FONT_DIR"); env && *env && dir.empty())
    candidates.emplace_back(env);
  candidates.emplace_back("/usr/share/fonts/truetype/dejavu");
  candidates.emplace_back("/usr/local/share/fonts/truetype/dejavu");
  std::string found;
  for (const auto& c : candidates) {
    if (holds_the_fonts(c)) {
      found = c;
      break;
    }
  }
  if (found.empty())
    return std::unexpected(
        "the DejaVu fonts were not found: install Debian's fonts-dejavu-core (sudo apt-get install "
        "fonts-dejavu-core) or point BOARDBANK_FONT_DIR at a folder holding DejaVuSans.ttf and "
        "DejaVuSans-Bold.ttf");
  if (TTF_Init() != 0) return std::unexpected(fmt::format("SDL_ttf would not start: {}", TTF_GetError()));
  std::unique_ptr<FontSet> set(new FontSet());
  set->impl_->dir = found;
  if (!set->font(FontFace::regular, 20) || !set->font(FontFace::bold, 20))
    return std::unexpected(fmt::format("the DejaVu fonts in {} would not open: {}", found, TTF_GetError()));
  return set;
}

const std::string& FontSet::directory() const { return impl_->dir; }

void* FontSet::font(FontFace face, int px) {
  const auto key = std::make_pair(static_cast<int>(face), px);
  auto it = impl_->fonts.find(key);
  if (it != impl_->fonts.end()) return it->second;
  const auto path =
      std::filesystem::path(impl_->dir) / (face == FontFace::bold ? "DejaVuSans-Bold.ttf" : "DejaVuSans.ttf");
  TTF_Font* f = TTF_OpenFont(path.c_str(), px);
  if (f) impl_->fonts.emplace(key, f);
  return f;
}

TextSize FontSet::measure(const std::string& utf8, FontFace face, int px) {
  std::string key = fmt::format("{}:{}:{}", static_cast<int>(face), px, utf8);
  auto it = impl_->sizes.find(key);
  if (it != impl_->sizes.end()) return it->second;
  TextSize ts;
  auto* f = static_cast<TTF_Font*>(font(face, px));
  if (f && !utf8.empty()) TTF_SizeUTF8(f, utf8.c_str(), &ts.w, &ts.h);
  if (f && utf8.empty()) ts.h = TTF_FontHeight(f);
  if (impl_->sizes.size() > 20000) impl_->sizes.clear();
  impl_->sizes.emplace(std::move(key), ts);
  return ts;
}

}  // namespace bb::display
