#include "daemon/virtual_table.h"

#include <SDL.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <opencv2/core.hpp>

#include "daemon/camera_token_names.h"
#include "vision/board_layout.h"
#include "vision/space_map.h"
#include "vision/table_renderer.h"
#include "vision/table_script.h"
#include "vision/tracking_evaluator.h"

namespace bb::daemon {

namespace {

std::int64_t now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

void sleep_until_ns(std::int64_t when) {
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(when / 1'000'000'000);
  ts.tv_nsec = static_cast<long>(when % 1'000'000'000);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
  }
}

bool is_hex(const std::string& text) {
  return !text.empty() && text.find_first_not_of("0123456789ABCDEFabcdef") == std::string::npos;
}

}  // namespace

const char* reader_name(Reader reader) { return reader == Reader::wiegand ? "wiegand" : "rc522"; }

std::string demo_card(rules::PlayerId player, Reader reader) {
  // Wiegand 26: facility code 0xD0 and card number 0x1000 + seat; RC522: a 4-byte NFC uid.
  return reader == Reader::wiegand ? fmt::format("D0{:04X}", 0x1000 + player.number())
                                   : fmt::format("04D0{:04X}", 0xA000 + player.number());
}

// --- devices ---------------------------------------------------------------------------------------------

std::expected<std::unique_ptr<VirtualDevices>, std::string> VirtualDevices::open() {
  std::unique_ptr<VirtualDevices> devices(new VirtualDevices());
  for (Pipe* p : {&devices->dice_, &devices->wiegand_, &devices->rc522_}) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0)
      return std::unexpected(
          fmt::format("cannot make a pipe for a simulated device: {}", std::strerror(errno)));
    p->read = fds[0];
    p->write = fds[1];
  }
  return devices;
}

VirtualDevices::~VirtualDevices() {
  for (const Pipe* p : {&dice_, &wiegand_, &rc522_}) {
    if (p->read >= 0) close(p->read);
    if (p->write >= 0) close(p->write);
  }
}

peripherals::DeviceConfig VirtualDevices::dice_config() const {
  peripherals::DeviceConfig config;
  config.kind = "dice";
  config.backend = "simulated";
  config.input_fd = dice_.read;
  return config;
}

peripherals::DeviceConfig VirtualDevices::reader_config(Reader reader) const {
  peripherals::DeviceConfig config;
  config.kind = reader_name(reader);
  config.backend = "simulated";
  config.input_fd = reader == Reader::wiegand ? wiegand_.read : rc522_.read;
  if (reader == Reader::wiegand) config.wiegand_bits = 26;  // the demo's cards are 26-bit, as configured
  return config;
}

std::expected<void, std::string> VirtualDevices::send(int fd, const std::string& line) {
  const std::string text = line + "\n";
  // A command is a few bytes; a pipe takes 64 KiB, so a full pipe means the device stopped reading.
  const ssize_t wrote = write(fd, text.data(), text.size());
  if (wrote != static_cast<ssize_t>(text.size()))
    return std::unexpected(fmt::format("the simulated device did not take '{}': {}", line,
                                       wrote < 0 ? std::strerror(errno) : "short write"));
  return {};
}

std::expected<void, std::string> VirtualDevices::throw_dice(int d1, int d2) {
  if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6)
    return std::unexpected(fmt::format("a die shows 1 to 6, not {} and {}", d1, d2));
  return send(dice_.write, fmt::format("roll {} {}", d1, d2));
}

std::expected<void, std::string> VirtualDevices::tap(Reader reader, const std::string& uid) {
  if (!is_hex(uid)) return std::unexpected(fmt::format("a card uid is hex digits, not '{}'", uid));
  if (reader == Reader::wiegand) {
    last_wiegand_tap_ = std::chrono::steady_clock::now();
    return send(wiegand_.write, "card " + uid);
  }
  return send(rc522_.write, "tap " + uid);
}

// --- camera ----------------------------------------------------------------------------------------------

namespace {
// Beside the board's right edge, one place per token, clear of the board and of each other (board units).
vision::Point2 beside_board(int token) { return {1.25, 0.15 + 0.12 * token}; }
}  // namespace

VirtualCamera::VirtualCamera(Settings settings) : settings_(settings), still_(std::make_unique<cv::Mat>()) {
  const vision::BoardLayout layout = vision::classic_layout();
  renderer_ = std::make_unique<vision::TableRenderer>(layout, vision::SpaceMap(layout.spaces_per_side),
                                                      vision::default_token_looks(settings.players),
                                                      settings.width, settings.height);
  // The camera pose, light and sensor are drawn from the seed: a tabletop camera on a stand, slightly off
  // straight down, in a living room's light.
  std::mt19937_64 rng(settings.seed * 0x9E3779B97F4A7C15ULL + 3);
  vision::TableScene base = vision::scene_for(vision::Condition::clean, *renderer_, rng);
  vision::TableScript::Settings script_settings;
  script_settings.hands = settings.hands;
  if (settings.tokens_beside_board)
    for (int t = 0; t < settings.players; ++t) script_settings.start_positions.push_back(beside_board(t));
  script_ = std::make_unique<vision::TableScript>(*renderer_, base, settings.players, settings.seed,
                                                  script_settings);
  for (auto& f : script_->opening()) pending_.push_back(std::move(f.scene));
  // The tracker names the tokens standing on GO by their distance from the board's corner (T1 nearest), and
  // the family puts them down in turn order: player p's token is the one the tracker will call T<p+1>.
  names_ = vision::expected_names(*renderer_, settings.players);
  for (int p = 0; p < settings.players; ++p) {
    const auto it = std::find(names_.begin(), names_.end(), token_of_player(rules::PlayerId{p}));
    token_of_player_.push_back(it == names_.end() ? p : static_cast<int>(it - names_.begin()));
  }
}

VirtualCamera::~VirtualCamera() = default;

std::string VirtualCamera::describe() const {
  return fmt::format("virtual table camera ({}x{}, seed {})", settings_.width, settings_.height,
                     settings_.seed);
}

vision::FrameSource::Grab VirtualCamera::grab(cv::Mat& frame) {
  // Paced like a camera: one frame per period, never a burst to catch up after a slow consumer.
  const double per_second = std::min(30.0 * std::max(settings_.speed, 0.01), settings_.max_frames_per_second);
  const auto period = static_cast<std::int64_t>(1e9 / std::max(per_second, 1.0));
  const std::int64_t now = now_ns();
  if (due_ns_ > now) sleep_until_ns(due_ns_);
  due_ns_ = std::max(now, due_ns_) + period;

  std::optional<vision::TableScene> moving_scene;
  {
    std::lock_guard lock(mutex_);
    ++grabbed_;
    if (!pending_.empty()) {
      moving_scene = std::move(pending_.front());
      pending_.pop_front();
      if (pending_.empty()) still_valid_ = false;  // the table at rest looks as the last frame left it
    }
  }
  if (moving_scene) {
    renderer_->render(*moving_scene, frame);
    return {};
  }
  if (!still_valid_) {
    vision::TableScene rest;
    {
      std::lock_guard lock(mutex_);
      rest = script_->still(1, moves_).front().scene;
    }
    renderer_->render(rest, *still_);
    still_valid_ = true;
  }
  still_->copyTo(frame);
  return {};
}

void VirtualCamera::set_aside(rules::PlayerId player) {
  std::lock_guard lock(mutex_);
  if (player.number() < 0 || player.number() >= settings_.players) return;
  const int token = token_of_player_[player.index()];
  for (auto& f : script_->place(token, beside_board(token), moves_++)) pending_.push_back(std::move(f.scene));
}

void VirtualCamera::move_token(rules::PlayerId player, rules::SpaceId space) {
  std::lock_guard lock(mutex_);
  const int spaces = renderer_->space_map().space_count();
  if (player.number() < 0 || player.number() >= settings_.players || space.number() < 0 ||
      space.number() >= spaces)
    return;
  for (auto& f : script_->play({token_of_player_[player.index()], space.number()}, moves_++))
    pending_.push_back(std::move(f.scene));
}

bool VirtualCamera::moving() const {
  std::lock_guard lock(mutex_);
  return !pending_.empty();
}

rules::ById<rules::PlayerId, std::optional<rules::SpaceId>> VirtualCamera::truth() const {
  std::lock_guard lock(mutex_);
  rules::ById<rules::PlayerId, std::optional<rules::SpaceId>> by_player;
  // The script spells a token in a hand (or beside the board) as -1.
  for (int token : token_of_player_)
    by_player.push_back(rules::space_from_wire(script_->truth()[static_cast<std::size_t>(token)]));
  return by_player;
}

std::string VirtualCamera::token_name(rules::PlayerId player) const {
  return player.number() >= 0 && player.index() < token_of_player_.size()
             ? names_[static_cast<std::size_t>(token_of_player_[player.index()])]
             : std::string();
}

std::int64_t VirtualCamera::frames_grabbed() const {
  std::lock_guard lock(mutex_);
  return grabbed_;
}

// --- slips -----------------------------------------------------------------------------------------------

rules::SpaceId Slips::carried_to(rules::SpaceId to, int spaces) {
  if (std::uniform_real_distribution<double>(0, 1)(rng_) >= settings_.miscount) return to;
  const int off = std::uniform_int_distribution<int>(0, 1)(rng_) == 0 ? -1 : 1;
  return rules::SpaceId{((to.number() + off) % spaces + spaces) % spaces};
}

bool Slips::taps_wrong_card() {
  return std::uniform_real_distribution<double>(0, 1)(rng_) < settings_.wrong_card;
}

// --- touch -----------------------------------------------------------------------------------------------

std::expected<void, std::string> press_target(const display::Frame& frame, const std::string& id) {
  const display::Target* target = frame.find(id);
  if (!target) {
    std::string shown;
    for (const auto& t : frame.targets)
      if (t.id.rfind("dialog.", 0) != 0 && t.id.rfind("nav.", 0) != 0)
        shown += (shown.empty() ? "" : ", ") + t.id;
    return std::unexpected(fmt::format("no '{}' on the screen to press (it shows {})", id,
                                       shown.empty() ? std::string("no buttons") : shown));
  }
  if (frame.width() <= 0 || frame.height() <= 0) return std::unexpected("the screen has no size yet");
  SDL_Event e{};
  e.type = SDL_FINGERDOWN;
  e.tfinger.touchId = 1;
  e.tfinger.fingerId = 1;
  e.tfinger.x = (static_cast<float>(target->rect.cx()) + 0.5f) / static_cast<float>(frame.width());
  e.tfinger.y = (static_cast<float>(target->rect.cy()) + 0.5f) / static_cast<float>(frame.height());
  e.tfinger.pressure = 1.0f;
  if (SDL_PushEvent(&e) != 1)
    return std::unexpected(fmt::format("the touch was not queued: {}", SDL_GetError()));
  e.type = SDL_FINGERUP;
  if (SDL_PushEvent(&e) != 1)
    return std::unexpected(fmt::format("the touch was not queued: {}", SDL_GetError()));
  return {};
}

}  // namespace bb::daemon
