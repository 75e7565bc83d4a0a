#include "display/touch_screen.h"

#include <SDL.h>
#include <fmt/format.h>

#include "display/canvas.h"
#include "display/font_set.h"
#include "display/layout.h"
#include "display/sound_player.h"

namespace bb::display {

std::expected<std::unique_ptr<TouchScreen>, std::string> TouchScreen::open(const Options& options) {
  std::unique_ptr<TouchScreen> ts(new TouchScreen());
  // Offscreen needs only SDL's event queue: touches are injected into it like the real ones.
  const Uint32 systems = options.window ? SDL_INIT_VIDEO | SDL_INIT_EVENTS : SDL_INIT_EVENTS;
  if (SDL_InitSubSystem(systems) != 0)
    return std::unexpected(fmt::format("SDL would not start: {}", SDL_GetError()));
  ts->video_ = options.window;
  auto fonts = FontSet::open(options.font_dir);
  if (!fonts) return std::unexpected(fonts.error());
  ts->fonts_ = std::move(*fonts);
  auto canvas = options.window
                    ? Canvas::window("boardbank", options.width, options.height, options.fullscreen,
                                     *ts->fonts_, options.rotation)
                    : Canvas::offscreen(options.width, options.height, *ts->fonts_, options.rotation);
  if (!canvas) return std::unexpected(canvas.error());
  ts->canvas_ = std::move(*canvas);
  ts->ui_.mutable_settings() = options.settings;
  ts->audio_ = options.audio;
  ts->sound_ = std::make_unique<SoundPlayer>(options.audio && options.settings.sound);
  return ts;
}

TouchScreen::~TouchScreen() {
  sound_.reset();
  canvas_.reset();
  fonts_.reset();
  SDL_QuitSubSystem(video_ ? SDL_INIT_VIDEO | SDL_INIT_EVENTS : SDL_INIT_EVENTS);
}

void TouchScreen::show(const Snapshot& snapshot) { snapshot_ = snapshot; }

void TouchScreen::play(const std::vector<Cue>& cues) {
  if (!audio_) return;
  sound_->set_enabled(ui_.settings().sound);
  for (auto c : cues) sound_->play(c);
}

std::vector<Intent> TouchScreen::collect() {
  play(ui_.take_cues());
  auto intents = ui_.take_intents();
  for (const auto& i : intents)
    if (const auto* s = std::get_if<SetSound>(&i); s && audio_) sound_->set_enabled(s->on);
  return intents;
}

std::vector<Intent> TouchScreen::pump() {
  std::vector<Intent> out;
  auto ensure_built = [this] {
    // Touches are mapped on the frame the family is looking at; build it if none exists yet.
    if (!built_) {
      ui_.build(snapshot_, Layout::for_window(canvas_->width(), canvas_->height()), *fonts_,
                SDL_GetTicks64());
      built_ = true;
    }
  };
  SDL_Event e;
  while (SDL_PollEvent(&e)) {
    // A notice over the picture takes the touches: lifting a finger (or a click) closes it, and nothing
    // under it is pressed by a finger that cannot see it.
    const bool touch = e.type == SDL_FINGERDOWN || e.type == SDL_FINGERMOTION || e.type == SDL_FINGERUP ||
                       ((e.type == SDL_MOUSEBUTTONDOWN || e.type == SDL_MOUSEBUTTONUP) &&
                        e.button.which != SDL_TOUCH_MOUSEID) ||
                       (e.type == SDL_MOUSEMOTION && e.motion.which != SDL_TOUCH_MOUSEID);
    if (notice_ && touch) {
      if (e.type == SDL_FINGERUP || e.type == SDL_MOUSEBUTTONUP) {
        notice_.reset();
        redraw_due_ = true;
      }
      continue;
    }
    switch (e.type) {
      case SDL_QUIT:
        quit_ = true;
        break;
      case SDL_FINGERDOWN:
      case SDL_FINGERMOTION:
      case SDL_FINGERUP: {
        ensure_built();
        const PixelPoint p = finger_to_layout(e.tfinger.x, e.tfinger.y);
        if (e.type == SDL_FINGERDOWN)
          ui_.press(p.x, p.y);
        else if (e.type == SDL_FINGERMOTION)
          ui_.drag(p.x, p.y);
        else if (!ui_.release(p.x, p.y))
          ui_.tap(p.x, p.y);
        break;
      }
      // A touch also arrives as synthesised mouse events; take them only from a real mouse.
      case SDL_MOUSEBUTTONDOWN:
        if (e.button.which != SDL_TOUCH_MOUSEID && e.button.button == SDL_BUTTON_LEFT) {
          ensure_built();
          const PixelPoint p = click_to_layout(e.button.x, e.button.y);
          ui_.press(p.x, p.y);
        }
        break;
      case SDL_MOUSEMOTION:
        if (e.motion.which != SDL_TOUCH_MOUSEID && (e.motion.state & SDL_BUTTON_LMASK) != 0) {
          const PixelPoint p = click_to_layout(e.motion.x, e.motion.y);
          ui_.drag(p.x, p.y);
        }
        break;
      case SDL_MOUSEBUTTONUP:
        if (e.button.which != SDL_TOUCH_MOUSEID && e.button.button == SDL_BUTTON_LEFT) {
          ensure_built();
          const PixelPoint p = click_to_layout(e.button.x, e.button.y);
          if (!ui_.release(p.x, p.y)) ui_.tap(p.x, p.y);
        }
        break;
      case SDL_WINDOWEVENT:
        if (e.window.event == SDL_WINDOWEVENT_SIZE_CHANGED || e.window.event == SDL_WINDOWEVENT_EXPOSED) {
          canvas_->refresh_size();
          drawn_ = false;
        }
        break;
      default:
        break;
    }
    auto intents = collect();
    out.insert(out.end(), std::make_move_iterator(intents.begin()), std::make_move_iterator(intents.end()));
  }
  return out;
}

// A touchscreen reports a finger as fractions of the whole panel, whatever the window's size.
PixelPoint TouchScreen::finger_to_layout(float x, float y) const {
  const UnitPoint u = panel_to_layout(canvas_->rotation(), {x, y});
  return {static_cast<int>(u.x * static_cast<float>(canvas_->width())),
          static_cast<int>(u.y * static_cast<float>(canvas_->height()))};
}

PixelPoint TouchScreen::click_to_layout(int x, int y) const {
  return panel_to_layout(canvas_->rotation(), canvas_->panel_width(), canvas_->panel_height(), {x, y});
}

std::vector<Intent> TouchScreen::card(const std::string& uid, std::optional<rules::PlayerId> player) {
  if (!built_) {
    ui_.build(snapshot_, Layout::for_window(canvas_->width(), canvas_->height()), *fonts_, SDL_GetTicks64());
    built_ = true;
  }
  ui_.card(uid, player);
  return collect();
}

bool TouchScreen::draw_if_needed() {
  const auto now = SDL_GetTicks64();
  if (drawn_ && !redraw_due_ && !ui_.needs_redraw(now, snapshot_.version)) return false;
  redraw_due_ = false;
  const Layout layout = Layout::for_window(canvas_->width(), canvas_->height());
  const auto& frame = ui_.build(snapshot_, layout, *fonts_, now);
  built_ = true;
  // A notice stays over whatever is drawn under it (a countdown's tick, a newer picture) until a finger
  // closes it or its caller does (close_notice: the condition it names has cleared): a message that went
  // away by itself at the next second would be missed.
  if (notice_)
    canvas_->draw(frame_with_notice(frame, layout, *fonts_, *notice_));
  else
    canvas_->draw(frame);
  canvas_->present();
  drawn_ = true;
  ++frames_;
  return true;
}

void TouchScreen::draw_notice_over_last(const ScreenNotice& notice) {
  const Layout layout = Layout::for_window(canvas_->width(), canvas_->height());
  // Nothing drawn yet: the notice over the empty background.
  const Frame blank(canvas_->width(), canvas_->height());
  const Frame& last = built_ ? ui_.frame() : blank;
  canvas_->draw(frame_with_notice(last, layout, *fonts_, notice));
  canvas_->present();
  notice_ = notice;
  ++frames_;
}

std::expected<void, std::string> TouchScreen::save_shown_png(const std::string& path) {
  return canvas_->save_png(path);
}

bool TouchScreen::wait(int timeout_ms) { return SDL_WaitEventTimeout(nullptr, timeout_ms) == 1; }

void TouchScreen::wake() {
  // One event type for every screen, registered once (SDL_RegisterEvents is thread-safe).
  static const Uint32 wake_event = SDL_RegisterEvents(1);
  if (wake_event == static_cast<Uint32>(-1))
    return;  // SDL has no user event types left: nothing to wake with
  SDL_Event e{};
  e.type = wake_event;
  SDL_PushEvent(&e);  // pump() passes it over like any event it does not know
}

std::expected<void, std::string> TouchScreen::save_png(const std::string& path) {
  draw_if_needed();
  return canvas_->save_png(path);
}

std::vector<std::string> TouchScreen::invariant_violations() const { return ui_.invariant_violations(); }

}  // namespace bb::display
