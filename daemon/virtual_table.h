#pragma once
// The demo's virtual table: the physical things a family does at the board, done by bots through the same
// devices and camera the service reads on a Pi. Nothing here decides a game input or touches the game: a
// throw is electrical edges on the simulated dice unit, a card is edges on the simulated Wiegand reader or
// SPI traffic answered by the simulated RC522, a token move is a hand carrying the token in a rendered 720p
// camera picture, and a touch is a finger event on the screen. The real decoders, tracker, table and
// ledger make of them what they would of a real family's acts.

#include <cstdint>
#include <deque>
#include <expected>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "display/frame.h"
#include "peripherals/device_factory.h"
#include "rules/ids.h"
#include "vision/frame_source.h"
#include "vision/table_scene.h"

namespace bb::vision {
class TableRenderer;
class TableScript;
struct BoardLayout;
}  // namespace bb::vision

namespace bb::daemon {

// Which simulated reader a bot holds its card to.
enum class Reader { wiegand, rc522 };
const char* reader_name(Reader reader);

// The simulated dice unit, Wiegand reader and RC522 as the service opens them (`peripherals::open_device`
// with the simulated backend), each reading its commands from a pipe whose other end the bots write to.
// Owns the pipes; the devices opened from its configs must be closed before it. Loop thread only.
// Must never: hand a reading to anyone but the device (the device's decoder is the only way in).
class VirtualDevices {
 public:
  static std::expected<std::unique_ptr<VirtualDevices>, std::string> open();
  ~VirtualDevices();
  VirtualDevices(const VirtualDevices&) = delete;
  VirtualDevices& operator=(const VirtualDevices&) = delete;

  // Device configs: kind dice/wiegand/rc522, backend simulated, input_fd the read end of the pipe.
  peripherals::DeviceConfig dice_config() const;
  peripherals::DeviceConfig reader_config(Reader reader) const;

  // A throw of the dice unit ("roll d1 d2": the unit's tumble and settle, then its strobe and lines).
  std::expected<void, std::string> throw_dice(int d1, int d2);
  // A card held to a reader: 6 hex digits (Wiegand 26) or 8 (34) on the Wiegand reader; 8, 14 or 20 on the
  // RC522.
  std::expected<void, std::string> tap(Reader reader, const std::string& uid);
  // When the last card was handed to the Wiegand reader (steady clock; its frame's first edge is at most this
  // early), for the bench's tap latency; nullopt: none yet.
  std::optional<std::chrono::steady_clock::time_point> last_wiegand_tap() const { return last_wiegand_tap_; }

 private:
  VirtualDevices() = default;
  std::expected<void, std::string> send(int fd, const std::string& line);
  struct Pipe {
    int read = -1, write = -1;
  };
  Pipe dice_, wiegand_, rc522_;
  std::optional<std::chrono::steady_clock::time_point> last_wiegand_tap_;
};

// The camera looking at the virtual table: a board of the classic layout with one token per player, seen
// from a seeded camera pose, rendered at 1280x720. Bots move tokens (a hand reaches in, carries the token,
// leaves); the service's camera thread grabs the frames like a real camera's, paced at 30 frames a second
// divided by the speed. A still table is rendered once and handed out again, as a camera in steady state
// costs the tracker little.
// Threads: grab() on the camera thread; everything else on any thread (a mutex guards the script).
// Must never: tell anyone where a token is other than through the pictures.
class VirtualCamera final : public vision::FrameSource {
 public:
  struct Settings {
    int players = 4;
    std::uint64_t seed = 1;
    double speed = 1;  // 2: frames come twice as fast as a real camera's
    // Frames never come faster than this in real time, whatever `speed` says. A camera 30 times `speed` would
    // at speed 200 hand out 6,000 pictures a second, mostly of a table at rest, and keep a core busy tracking
    // them; above this the tracker sees fewer frames per move, as it would behind a busy camera.
    double max_frames_per_second = 120;
    int width = 1280, height = 720;
    bool hands = true;
    // The tokens start beside the board, not on GO (a family about to learn them one at a time).
    bool tokens_beside_board = false;
  };
  explicit VirtualCamera(Settings settings);
  ~VirtualCamera() override;
  VirtualCamera(const VirtualCamera&) = delete;
  VirtualCamera& operator=(const VirtualCamera&) = delete;

  Grab grab(cv::Mat& frame) override;
  std::string describe() const override;

  // The hand carries `player`'s token to `space` (queued behind any move still under way).
  // A player or space not on this table is ignored.
  void move_token(rules::PlayerId player, rules::SpaceId space);
  // The hand takes `player`'s token off the board and sets it down beside it (learning one at a time).
  void set_aside(rules::PlayerId player);
  // True while a move's frames have not all been handed out.
  bool moving() const;
  // Where each player's token truly stands (after the queued moves); nothing while it is in a hand or
  // beside the board.
  rules::ById<rules::PlayerId, std::optional<rules::SpaceId>> truth() const;
  // The name the tracker gives `player`'s token when it learns them all standing on GO (T1 nearest the
  // corner): what the family tells the setup screen when it says which token is whose.
  std::string token_name(rules::PlayerId player) const;
  const vision::TableRenderer& renderer() const { return *renderer_; }
  std::int64_t frames_grabbed() const;

 private:
  Settings settings_;
  std::unique_ptr<vision::TableRenderer> renderer_;
  mutable std::mutex mutex_;
  std::unique_ptr<vision::TableScript> script_;
  std::deque<vision::TableScene> pending_;  // frames of the moves under way, not yet handed out
  std::vector<std::string> names_;          // per script token, the tracker's name for it
  std::vector<int> token_of_player_;        // per player, the script's token
  std::int64_t grabbed_ = 0;
  std::int64_t due_ns_ = 0;  // CLOCK_MONOTONIC time the next frame is due
  // The still table as last rendered (camera thread only).
  std::unique_ptr<cv::Mat> still_;
  bool still_valid_ = false;
  int moves_ = 0;
};

// The bots' slips, seeded: a token carried one space too far or too short, a card of another player held to
// the reader. They make the table ask its questions, as a family's slips would.
class Slips {
 public:
  struct Settings {
    std::uint64_t seed = 1;
    double miscount = 0.06;    // chance a token move ends one space off
    double wrong_card = 0.05;  // chance a bot taps the next player's card first
  };
  explicit Slips(Settings settings) : settings_(settings), rng_(settings.seed * 7919 + 17) {}
  // Where the token ends when the bot means `to` on a board of `spaces` spaces.
  rules::SpaceId carried_to(rules::SpaceId to, int spaces);
  bool taps_wrong_card();

 private:
  Settings settings_;
  std::mt19937_64 rng_;
};

// A finger on the touchscreen: presses the centre of the frame's target `id` (an SDL finger down and up, as
// the touch panel delivers them, queued for the screen's next pump()). Loop thread only; SDL must be
// initialised (the TouchScreen is open). The error says why nothing was pressed.
std::expected<void, std::string> press_target(const display::Frame& frame, const std::string& id);

// The card uid of `player` on `reader` in the demo (each player has one card per reader).
std::string demo_card(rules::PlayerId player, Reader reader);

}  // namespace bb::daemon
