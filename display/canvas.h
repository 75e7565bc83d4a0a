#pragma once
#include <expected>
#include <memory>
#include <string>

#include "display/frame.h"

namespace bb::display {

class FontSet;

// Where frames are drawn: an offscreen surface (tests, screenshots, benchmarks) or a window, both with SDL's
// software renderer, which is the fast path on the Pi's framebuffer and needs no GPU.
class Canvas {
 public:
  static std::expected<std::unique_ptr<Canvas>, std::string> offscreen(int width, int height, FontSet& fonts);
  // Opens a window (full screen on the Pi); SDL video must be initialised.
  static std::expected<std::unique_ptr<Canvas>, std::string> window(const std::string& title, int width,
                                                                    int height, bool fullscreen,
                                                                    FontSet& fonts);
  ~Canvas();
  Canvas(const Canvas&) = delete;
  Canvas& operator=(const Canvas&) = delete;

  int width() const;
  int height() const;
  void draw(const Frame& frame);
  // Shows what was drawn (windows only).
  void present();
  Colour pixel(int x, int y) const;
  std::expected<void, std::string> save_png(const std::string& path) const;
  // Follows a window resize; returns whether the size changed.
  bool refresh_size();
  std::size_t cached_texts() const;

 private:
  Canvas();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bb::display
