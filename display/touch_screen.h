#pragma once
#include <cstdint>
#include <expected>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "display/frame.h"
#include "display/intent.h"
#include "display/rotation.h"
#include "display/screen_notice.h"
#include "display/snapshot.h"
#include "display/ui.h"
#include "display/ui_settings.h"

namespace bb::display {

class Canvas;
class FontSet;
class SoundPlayer;

// The touchscreen as the daemon runs it: SDL events in, intents out, and a frame drawn only when something
// changed (a new snapshot, a touch, a countdown tick), so an idle table costs no CPU.
// Thread: the thread that opened it (SDL's video thread), except wake(). Never blocks except in wait().
class TouchScreen {
 public:
  struct Options {
    int width = 800;  // the panel's pixels, as mounted or not (a quarter turn lays the screens out 480x800)
    int height = 480;
    Rotation rotation = Rotation::upright;  // the picture turned on the panel; touches are turned back
    bool window = false;                    // false: draw offscreen (tests, screenshots, benchmarks)
    bool fullscreen = false;                // the Pi's display
    bool audio = false;                     // open an audio device for the sounds
    std::string font_dir;
    UiSettings settings;
  };
  static std::expected<std::unique_ptr<TouchScreen>, std::string> open(const Options& options);
  ~TouchScreen();
  TouchScreen(const TouchScreen&) = delete;
  TouchScreen& operator=(const TouchScreen&) = delete;

  // A new picture of the game; it must outlive the next show() (the caller owns game and history).
  void show(const Snapshot& snapshot);
  // Handles every queued SDL event (touches, clicks, window changes) and returns the intents they made.
  // Fingers and clicks arrive in the panel's coordinates and are turned back into the layout's.
  std::vector<Intent> pump();
  // A card tapped on the reader, as the daemon resolved it (nobody: an unknown card, or the banker's).
  std::vector<Intent> card(const std::string& uid, std::optional<rules::PlayerId> player);
  // Draws when needed; returns whether it drew.
  bool draw_if_needed();
  // Draws the frame drawn last again, exactly as it was (laid out from the snapshot drawn then, never from a
  // newer one), with `notice` over it: for a caller whose newest snapshot is ahead of what it may show (the
  // service while the ledger cannot store the game), or who must be sure a message is read (the game
  // paused). It stays until its caller closes it (close_notice(): the condition it names has cleared) or a
  // finger lifted on the screen closes it (pump() then takes that touch, and nothing under the notice is
  // pressed); a redraw meanwhile (a countdown's tick, a newer snapshot) draws the new picture under it.
  void draw_notice_over_last(const ScreenNotice& notice);
  // Takes the notice away: the next draw_if_needed() draws the snapshot again.
  void close_notice() {
    if (notice_) redraw_due_ = true;
    notice_.reset();
  }
  // The notice on the screen now (nullptr: none).
  const ScreenNotice* notice() const { return notice_ ? &*notice_ : nullptr; }
  // Saves the picture on the screen as it is, drawing nothing first (save_png draws what is due first).
  std::expected<void, std::string> save_shown_png(const std::string& path);
  // Waits up to `timeout_ms` for an SDL event; returns whether one arrived. For command-line tools that own
  // their thread: the service's loop never calls it (SDL has no fd to watch), it calls pump() and
  // draw_if_needed() from a frame timer instead.
  bool wait(int timeout_ms);
  // Any thread: makes a wait() in progress (or the next one) return at once, through an SDL user event, so
  // a thread that waits on SDL can be woken by something that happened elsewhere (a card, a signal).
  void wake();
  bool quit_requested() const { return quit_; }

  int frames_drawn() const { return frames_; }
  Ui& ui() { return ui_; }
  const Frame& frame() const { return ui_.frame(); }
  Canvas& canvas() { return *canvas_; }
  FontSet& fonts() { return *fonts_; }
  SoundPlayer& sound() { return *sound_; }
  std::expected<void, std::string> save_png(const std::string& path);
  std::vector<std::string> invariant_violations() const;

 private:
  TouchScreen() = default;
  void play(const std::vector<Cue>& cues);
  std::vector<Intent> collect();
  PixelPoint finger_to_layout(float x, float y) const;
  PixelPoint click_to_layout(int x, int y) const;

  std::unique_ptr<FontSet> fonts_;
  std::unique_ptr<Canvas> canvas_;
  std::unique_ptr<SoundPlayer> sound_;
  Ui ui_;
  Snapshot snapshot_;
  bool video_ = false;
  bool audio_ = false;
  bool quit_ = false;
  bool built_ = false;
  bool drawn_ = false;
  std::optional<ScreenNotice> notice_;  // drawn over every frame until a touch or close_notice()
  bool redraw_due_ = false;             // a notice was closed: the picture under it is drawn again
  int frames_ = 0;
};

}  // namespace bb::display
