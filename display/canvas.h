#pragma once
#include <expected>
#include <memory>
#include <string>

#include "display/frame.h"
#include "display/rotation.h"

namespace bb::display {

class FontSet;

// Where frames are drawn: an offscreen surface (tests, screenshots, benchmarks) or a window, both with SDL's
// software renderer, which is the fast path on the Pi's framebuffer and needs no GPU.
// Owns the panel's surface (offscreen) and, on a turned panel, the upright surface frames are drawn on; after
// each frame that picture is turned onto the panel (a few milliseconds on a Pi, only when something changed).
// width x height given here are the panel's; width() and height() are the upright layout's. Never draws
// anything but the frames it is given. Thread: the one that made it (SDL's video thread).
class Canvas {
 public:
  static std::expected<std::unique_ptr<Canvas>, std::string> offscreen(int width, int height, FontSet& fonts,
                                                                       Rotation rotation = Rotation::upright);
  // Opens a window (full screen on the Pi); SDL video must be initialised.
  static std::expected<std::unique_ptr<Canvas>, std::string> window(const std::string& title, int width,
                                                                    int height, bool fullscreen,
                                                                    FontSet& fonts,
                                                                    Rotation rotation = Rotation::upright);
  ~Canvas();
  Canvas(const Canvas&) = delete;
  Canvas& operator=(const Canvas&) = delete;

  // The layout's size: the panel's, with the sides swapped by a quarter turn.
  int width() const;
  int height() const;
  int panel_width() const;
  int panel_height() const;
  Rotation rotation() const;
  void draw(const Frame& frame);
  // Shows what was drawn (windows only).
  void present();
  // A pixel of the upright picture, in layout coordinates.
  Colour pixel(int x, int y) const;
  // A pixel as the panel shows it (turned), in panel coordinates.
  Colour panel_pixel(int x, int y) const;
  // The picture as the panel shows it.
  std::expected<void, std::string> save_png(const std::string& path) const;
  // Follows a window resize; returns whether the size changed.
  bool refresh_size();
  std::size_t cached_texts() const;
  // Pixels of the cached label textures: at most about kTextCacheBytes plus what one frame draws.
  std::size_t cached_text_bytes() const;
  static constexpr std::size_t kTextCacheBytes = 4u << 20;

 private:
  Canvas();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bb::display
