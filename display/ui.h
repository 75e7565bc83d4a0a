#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "display/frame.h"
#include "display/layout.h"
#include "display/ui_context.h"

namespace bb::display {

// The screens a family touches: which one is showing, its dialogs, and the intents touches produced.
// It lays out a snapshot into a frame (plain data) and maps touches on that frame back to intents; it never
// changes the game.
class Ui : public UiContext {
 public:
  explicit Ui(UiSettings settings = {});
  ~Ui() override;
  Ui(const Ui&) = delete;
  Ui& operator=(const Ui&) = delete;

  const Frame& build(const Snapshot& snapshot, const Layout& layout, TextMeasure& measure,
                     std::uint64_t now_ms);
  const Frame& frame() const { return *frame_; }
  // A finger lifted at (x, y) on the last frame.
  void tap(int x, int y);
  // A finger put down, moved and lifted: a screen that follows drags (the calibration handles) takes them.
  // release() returns whether a drag took the lift; if not, the lift is a tap.
  void press(int x, int y);
  void drag(int x, int y);
  bool release(int x, int y);
  // A card was tapped on the reader: `player` is its owner in this game, nobody for a card nobody has
  // registered (or the banker's).
  void card(const std::string& uid, std::optional<rules::PlayerId> player);
  std::vector<Intent> take_intents();
  std::vector<Cue> take_cues();
  // Whether the screen must be drawn again: the UI changed, the snapshot is new, or a countdown ticked.
  bool needs_redraw(std::uint64_t now_ms, std::uint64_t snapshot_version) const;

  ScreenId screen() const { return screen_; }
  bool dialog_open() const { return dialog_ != nullptr; }
  std::vector<std::string> invariant_violations() const;

  // UiContext
  const Snapshot& snapshot() const override { return snapshot_; }
  const UiSettings& settings() const override { return settings_; }
  UiSettings& mutable_settings() override { return settings_; }
  std::uint64_t now_ms() const override { return now_ms_; }
  void go(ScreenId screen) override;
  void open_dialog(std::unique_ptr<View> dialog) override;
  void close_dialog() override;
  void confirm(Confirmation request) override;
  void emit(Intent intent) override;
  void cue(Cue c) override;
  void say(const std::string& message) override { message_ = message; }
  const std::string& message() const override { return message_; }
  void set_ticking(bool ticking) override { ticking_ = ticking; }
  bool cards_confirm() const override;
  void focus_player(std::optional<rules::PlayerId> player) override { focused_player_ = player; }
  std::optional<rules::PlayerId> focused_player() const override { return focused_player_; }

 private:
  View& screen_view(ScreenId id);
  void rebuild();

  UiSettings settings_;
  Snapshot snapshot_;
  std::optional<Layout> layout_;
  TextMeasure* measure_ = nullptr;
  std::unique_ptr<Frame> frame_;
  std::map<ScreenId, std::unique_ptr<View>> screens_;
  std::unique_ptr<View> dialog_;
  View* dragging_ = nullptr;  // the view following a finger, between press and release
  std::vector<std::unique_ptr<View>>
      retired_;  // closed dialogs, kept until the frame that points at them is gone
  ScreenId screen_ = ScreenId::home;
  std::vector<Intent> intents_;
  std::vector<Cue> cues_;
  std::string message_;
  std::uint64_t now_ms_ = 0;
  std::uint64_t built_ms_ = 0;
  std::uint64_t built_version_ = 0;
  bool dirty_ = true;
  bool ticking_ = false;
  bool auction_seen_ = false;
  std::optional<rules::PlayerId> focused_player_;
  std::string table_status_;  // the table's last status line, said once when it changes
};

}  // namespace bb::display
