#include "display/canvas.h"

#include <SDL.h>
#include <SDL_ttf.h>
#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <unordered_map>

#include "display/font_set.h"
#include "imageio/image_codec.h"

namespace bb::display {

struct Canvas::Impl {
  FontSet* fonts = nullptr;
  Rotation rotation = Rotation::upright;
  SDL_Window* window = nullptr;    // null offscreen
  SDL_Surface* panel = nullptr;    // owned offscreen; the window's surface otherwise
  SDL_Surface* upright = nullptr;  // what frames are drawn on: the panel itself, or owned when it is turned
  SDL_Renderer* renderer = nullptr;
  struct Text {
    SDL_Texture* texture = nullptr;
    int w = 0, h = 0;
    std::uint64_t drawn_in = 0;  // the last frame that drew it
  };
  std::unordered_map<std::string, Text> texts;
  std::size_t text_bytes = 0;  // pixels held by the cached textures (4 bytes each)
  std::uint64_t frame_number = 0;

  ~Impl() {
    clear_texts();
    if (renderer) SDL_DestroyRenderer(renderer);
    free_upright();
    if (window) {
      SDL_DestroyWindow(window);
    } else if (panel) {
      SDL_FreeSurface(panel);
    }
  }
  void clear_texts() {
    for (auto& [k, t] : texts)
      if (t.texture) SDL_DestroyTexture(t.texture);
    texts.clear();
    text_bytes = 0;
  }
  // Drops the textures the frame being drawn has not used; those it has used stay (the draw holds them).
  void evict_texts_not_in_this_frame() {
    for (auto it = texts.begin(); it != texts.end();) {
      if (it->second.drawn_in == frame_number) {
        ++it;
        continue;
      }
      if (it->second.texture) SDL_DestroyTexture(it->second.texture);
      text_bytes -= texture_bytes(it->second);
      it = texts.erase(it);
    }
  }
  static std::size_t texture_bytes(const Text& t) { return static_cast<std::size_t>(t.w) * t.h * 4; }
  void free_upright() {
    if (upright && upright != panel) SDL_FreeSurface(upright);
    upright = nullptr;
  }
  std::expected<void, std::string> attach(SDL_Surface* s) {
    if (renderer) SDL_DestroyRenderer(renderer);
    renderer = nullptr;
    clear_texts();  // textures belong to the renderer
    free_upright();
    panel = s;
    upright = panel;
    if (rotation != Rotation::upright) {
      const bool swap = swaps_sides(rotation);
      upright = SDL_CreateRGBSurfaceWithFormat(0, swap ? panel->h : panel->w, swap ? panel->w : panel->h, 32,
                                               SDL_PIXELFORMAT_XRGB8888);
      if (!upright) return std::unexpected(fmt::format("no surface to draw on: {}", SDL_GetError()));
    }
    renderer = SDL_CreateSoftwareRenderer(upright);
    if (!renderer) return std::unexpected(fmt::format("no software renderer: {}", SDL_GetError()));
    return {};
  }
  // Turns the upright picture onto the panel. The panel is written row by row (it may be the display's own
  // memory); a panel in another pixel format gets the turned picture through SDL's converting blit.
  void turn_onto_panel() {
    if (upright == panel) return;
    SDL_Surface* target = panel;
    SDL_Surface* staging = nullptr;
    if (panel->format->format != SDL_PIXELFORMAT_XRGB8888) {
      staging = SDL_CreateRGBSurfaceWithFormat(0, panel->w, panel->h, 32, SDL_PIXELFORMAT_XRGB8888);
      if (!staging) return;
      target = staging;
    }
    SDL_LockSurface(upright);
    SDL_LockSurface(target);
    const auto* from = static_cast<const Uint8*>(upright->pixels);
    auto* to = static_cast<Uint8*>(target->pixels);
    for (int y = 0; y < target->h; ++y) {
      auto* row = reinterpret_cast<Uint32*>(to + static_cast<std::ptrdiff_t>(y) * target->pitch);
      for (int x = 0; x < target->w; ++x) {
        const PixelPoint p = panel_to_layout(rotation, target->w, target->h, {x, y});
        std::memcpy(&row[x], from + static_cast<std::ptrdiff_t>(p.y) * upright->pitch + p.x * 4, 4);
      }
    }
    SDL_UnlockSurface(target);
    SDL_UnlockSurface(upright);
    if (staging) {
      SDL_BlitSurface(staging, nullptr, panel, nullptr);
      SDL_FreeSurface(staging);
    }
  }
  void colour(Colour c) {
    SDL_SetRenderDrawBlendMode(renderer, c.a == 255 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(renderer, c.r, c.g, c.b, c.a);
  }
  const Text& text(const DrawOp& op) {
    std::string key = fmt::format("{}:{}:{:02x}{:02x}{:02x}:{}", static_cast<int>(op.face), op.px,
                                  op.colour.r, op.colour.g, op.colour.b, op.text);
    auto it = texts.find(key);
    if (it != texts.end()) {
      it->second.drawn_in = frame_number;
      return it->second;
    }
    // Every balance, time and message ever shown would stay cached: a game's labels filled 25 MB before
    // the cache was bounded by its bytes. Over the budget, what this frame has not drawn goes.
    if (text_bytes > kTextCacheBytes) evict_texts_not_in_this_frame();
    Text t;
    t.drawn_in = frame_number;
    auto* font = static_cast<TTF_Font*>(fonts->font(op.face, op.px));
    if (font) {
      SDL_Surface* s = TTF_RenderUTF8_Blended(font, op.text.c_str(),
                                              SDL_Color{op.colour.r, op.colour.g, op.colour.b, 255});
      if (s) {
        t.texture = SDL_CreateTextureFromSurface(renderer, s);
        t.w = s->w;
        t.h = s->h;
        SDL_FreeSurface(s);
        if (t.texture) SDL_SetTextureBlendMode(t.texture, SDL_BLENDMODE_BLEND);
      }
    }
    text_bytes += texture_bytes(t);
    return texts.emplace(std::move(key), t).first->second;
  }
};

Canvas::Canvas() : impl_(std::make_unique<Impl>()) {}
Canvas::~Canvas() = default;

std::expected<std::unique_ptr<Canvas>, std::string> Canvas::offscreen(int width, int height, FontSet& fonts,
                                                                      Rotation rotation) {
  std::unique_ptr<Canvas> c(new Canvas());
  c->impl_->fonts = &fonts;
  c->impl_->rotation = rotation;
  SDL_Surface* s = SDL_CreateRGBSurfaceWithFormat(0, width, height, 32, SDL_PIXELFORMAT_XRGB8888);
  if (!s) return std::unexpected(fmt::format("no {}x{} surface: {}", width, height, SDL_GetError()));
  if (auto ok = c->impl_->attach(s); !ok) return std::unexpected(ok.error());  // ~Impl frees s
  return c;
}

std::expected<std::unique_ptr<Canvas>, std::string> Canvas::window(const std::string& title, int width,
                                                                   int height, bool fullscreen,
                                                                   FontSet& fonts, Rotation rotation) {
  std::unique_ptr<Canvas> c(new Canvas());
  c->impl_->fonts = &fonts;
  c->impl_->rotation = rotation;
  const Uint32 flags = fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : SDL_WINDOW_RESIZABLE;
  c->impl_->window =
      SDL_CreateWindow(title.c_str(), SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, width, height, flags);
  if (!c->impl_->window) return std::unexpected(fmt::format("no window: {}", SDL_GetError()));
  // The table's screen is touched, never pointed at: a pointer left in the middle of a fullscreen touchscreen
  // (the KMS/DRM driver draws one) only hides what is under it. A window on a desktop keeps its pointer.
  if (fullscreen) SDL_ShowCursor(SDL_DISABLE);
  SDL_Surface* s = SDL_GetWindowSurface(c->impl_->window);
  if (!s) return std::unexpected(fmt::format("no window surface: {}", SDL_GetError()));
  if (auto ok = c->impl_->attach(s); !ok) return std::unexpected(ok.error());
  return c;
}

bool Canvas::refresh_size() {
  if (!impl_->window) return false;
  SDL_Surface* s = SDL_GetWindowSurface(impl_->window);
  if (!s || (s == impl_->panel && s->w == panel_width() && s->h == panel_height())) return false;
  return impl_->attach(s).has_value();
}

int Canvas::width() const { return impl_->upright ? impl_->upright->w : 0; }
int Canvas::height() const { return impl_->upright ? impl_->upright->h : 0; }
int Canvas::panel_width() const { return impl_->panel ? impl_->panel->w : 0; }
int Canvas::panel_height() const { return impl_->panel ? impl_->panel->h : 0; }
Rotation Canvas::rotation() const { return impl_->rotation; }
std::size_t Canvas::cached_texts() const { return impl_->texts.size(); }
std::size_t Canvas::cached_text_bytes() const { return impl_->text_bytes; }

void Canvas::draw(const Frame& frame) {
  auto* r = impl_->renderer;
  assert(r);
  ++impl_->frame_number;
  for (const auto& op : frame.ops) {
    switch (op.kind) {
      case DrawOp::Kind::fill: {
        impl_->colour(op.colour);
        const SDL_Rect rect{op.rect.x, op.rect.y, op.rect.w, op.rect.h};
        SDL_RenderFillRect(r, &rect);
        break;
      }
      case DrawOp::Kind::outline: {
        impl_->colour(op.colour);
        for (int t = 0; t < op.thickness; ++t) {
          const SDL_Rect rect{op.rect.x + t, op.rect.y + t, op.rect.w - 2 * t, op.rect.h - 2 * t};
          if (rect.w > 0 && rect.h > 0) SDL_RenderDrawRect(r, &rect);
        }
        break;
      }
      case DrawOp::Kind::line: {
        impl_->colour(op.colour);
        const int x1 = op.rect.x, y1 = op.rect.y;
        const bool steep = std::abs(op.y2 - y1) > std::abs(op.x2 - x1);
        for (int t = 0; t < op.thickness; ++t) {
          const int o = t - op.thickness / 2;
          if (steep)
            SDL_RenderDrawLine(r, x1 + o, y1, op.x2 + o, op.y2);
          else
            SDL_RenderDrawLine(r, x1, y1 + o, op.x2, op.y2 + o);
        }
        break;
      }
      case DrawOp::Kind::circle: {
        impl_->colour(op.colour);
        const double rad = op.rect.w / 2.0;
        const double cx = op.rect.x + rad, cy = op.rect.y + op.rect.h / 2.0;
        for (int y = 0; y < op.rect.h; ++y) {
          const double dy = y + 0.5 - op.rect.h / 2.0;
          const double half = std::sqrt(std::max(0.0, rad * rad - dy * dy));
          const int xa = static_cast<int>(std::lround(cx - half)),
                    xb = static_cast<int>(std::lround(cx + half));
          if (xb > xa)
            SDL_RenderDrawLine(r, xa, static_cast<int>(cy - op.rect.h / 2.0) + y, xb - 1,
                               static_cast<int>(cy - op.rect.h / 2.0) + y);
        }
        break;
      }
      case DrawOp::Kind::text: {
        const auto& t = impl_->text(op);
        if (!t.texture) break;
        int x = op.rect.x;
        if (op.align == Align::centre) x = op.rect.x + (op.rect.w - t.w) / 2;
        if (op.align == Align::right) x = op.rect.right() - t.w;
        const int y = op.rect.y + (op.rect.h - t.h) / 2;
        const SDL_Rect dst{x, y, t.w, t.h};
        SDL_RenderCopy(r, t.texture, nullptr, &dst);
        break;
      }
      case DrawOp::Kind::image: {
        if (op.image < 0 || static_cast<std::size_t>(op.image) >= frame.images.size()) break;
        const auto& img = frame.images[static_cast<std::size_t>(op.image)];
        if (!img.rgb) break;
        SDL_Surface* s =
            SDL_CreateRGBSurfaceWithFormatFrom(const_cast<unsigned char*>(img.rgb->data()), img.width,
                                               img.height, 24, img.width * 3, SDL_PIXELFORMAT_RGB24);
        if (!s) break;
        SDL_Texture* tex = SDL_CreateTextureFromSurface(r, s);
        if (tex) {
          const SDL_Rect dst{op.rect.x, op.rect.y, op.rect.w, op.rect.h};
          const SDL_Rect src{op.source.x, op.source.y, op.source.w, op.source.h};
          SDL_RenderCopy(r, tex, op.source.w > 0 && op.source.h > 0 ? &src : nullptr, &dst);
          SDL_DestroyTexture(tex);
        }
        SDL_FreeSurface(s);
        break;
      }
    }
  }
  SDL_RenderFlush(r);
  impl_->turn_onto_panel();
}

void Canvas::present() {
  if (impl_->window) SDL_UpdateWindowSurface(impl_->window);
}

namespace {
Colour surface_pixel(SDL_Surface* s, int x, int y) {
  if (!s || x < 0 || y < 0 || x >= s->w || y >= s->h) return {};
  SDL_LockSurface(s);
  Uint32 v = 0;
  const auto* row = static_cast<const Uint8*>(s->pixels) + y * s->pitch;
  std::memcpy(&v, row + x * s->format->BytesPerPixel, std::min<int>(4, s->format->BytesPerPixel));
  Uint8 cr = 0, cg = 0, cb = 0;
  SDL_GetRGB(v, s->format, &cr, &cg, &cb);
  SDL_UnlockSurface(s);
  return {cr, cg, cb};
}
}  // namespace

Colour Canvas::pixel(int x, int y) const { return surface_pixel(impl_->upright, x, y); }
Colour Canvas::panel_pixel(int x, int y) const { return surface_pixel(impl_->panel, x, y); }

std::expected<void, std::string> Canvas::save_png(const std::string& path) const {
  if (!impl_->panel) return std::unexpected("nothing drawn");
  // Through bb_imageio (libpng), not SDL2_image, whose TIFF and WebP libraries the service would load.
  SDL_Surface* rgb = SDL_ConvertSurfaceFormat(impl_->panel, SDL_PIXELFORMAT_RGB24, 0);
  if (rgb == nullptr) return std::unexpected(fmt::format("could not write {}: {}", path, SDL_GetError()));
  SDL_LockSurface(rgb);
  const imageio::ImageView view{static_cast<const std::uint8_t*>(rgb->pixels), rgb->w, rgb->h,
                                static_cast<std::size_t>(rgb->pitch), imageio::PixelFormat::rgb};
  auto written = imageio::write_image(path, view);
  SDL_UnlockSurface(rgb);
  SDL_FreeSurface(rgb);
  if (!written) return std::unexpected(fmt::format("could not write {}", written.error().message));
  return {};
}

}  // namespace bb::display
