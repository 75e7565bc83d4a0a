#include "daemon/service.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <opencv2/core.hpp>
#include <random>
#include <thread>
#include <utility>

#include "daemon/event_loop.h"
#include "daemon/paths.h"
#include "daemon/systemd_notifier.h"
#include "daemon/virtual_table.h"
#include "display/game_history.h"
#include "display/touch_screen.h"
#include "ledger/ledger.h"
#include "peripherals/device.h"
#include "rules/edition.h"
#include "rules/script.h"
#include "table/ledger_game_store.h"
#include "table/table.h"
#include "vision/frame_source.h"
#include "vision/source_opener.h"
#include "vision/space_map.h"
#include "vision/token_tracker.h"

namespace bb::daemon {

namespace {

using namespace std::chrono_literals;

// How often the loop pumps SDL and draws when something changed: a frame with a window, less offscreen
// (nothing but injected events can arrive there).
constexpr auto kWindowFrame = 16ms;
constexpr auto kOffscreenFrame = 50ms;
constexpr auto kBackupCheck = 60s;
constexpr auto kDeviceRetry = 5s;
constexpr auto kHistoryAfterStart = 2s;

std::string display_name(const peripherals::DeviceConfig& config) {
  if (config.kind == "dice") return "Dice unit";
  if (config.kind == "button") return "Roll button";
  if (config.kind == "rc522") return "Card reader (RC522)";
  return fmt::format("Card reader ({})", config.name.empty() ? config.kind : config.name);
}

display::DeviceStatus::Kind device_kind(const peripherals::DeviceConfig& config) {
  if (config.kind == "dice") return display::DeviceStatus::Kind::dice;
  if (config.kind == "button") return display::DeviceStatus::Kind::roll_button;
  return display::DeviceStatus::Kind::card_reader;
}

std::string what_to_do(const peripherals::DeviceConfig& config) {
  if (config.kind == "dice" || config.kind == "button")
    return "check its cable and docs/hardware.md; meanwhile enter the dice on the screen";
  return "check its cable and docs/hardware.md; meanwhile confirm on the screen";
}

// The token names the tracker gives ("T1", "T2", ...) are the players in order.
int player_of_token(const std::string& token) {
  if (token.size() >= 2 && token[0] == 'T') {
    try {
      return std::stoi(token.substr(1)) - 1;
    } catch (const std::exception&) {
    }
  }
  return -1;
}

std::optional<table::TokenReport> report_of(const vision::TrackerEvent& e) {
  using K = vision::TrackerEvent::Kind;
  using R = table::TokenReport::Kind;
  table::TokenReport r;
  switch (e.kind) {
    case K::learned:
      r.kind = R::learned;
      break;
    case K::moved:
      r.kind = R::moved;
      break;
    case K::unsure:
      r.kind = R::unsure;
      break;
    case K::hidden:
      r.kind = R::hidden;
      break;
    case K::not_found:
      r.kind = R::lost;
      r.detail = e.detail;
      r.id = fmt::format("camera:{}:board", e.frame);
      return r;
    case K::learn_incomplete:
      // Fewer tokens than expected: the whole learning, not one player's token.
      r.kind = R::learn_incomplete;
      r.detail = e.detail;
      r.id = fmt::format("camera:{}:learning", e.frame);
      return r;
    case K::lost:
      r.kind = R::token_lost;
      break;
    case K::calibrated:
    case K::recalibrated:
    case K::ready_for_token:  // one-at-a-time learning is not offered by the service: all stand on GO
      return std::nullopt;
  }
  r.player = player_of_token(e.token);
  if (r.player < 0) return std::nullopt;
  r.from = e.from;
  r.to = e.to;
  r.candidates = e.candidates;
  r.detail = e.detail;
  r.id = fmt::format("camera:{}:{}", e.frame, r.player);
  return r;
}

std::vector<std::shared_ptr<const rules::Edition>> load_editions(const std::string& dir,
                                                                 std::vector<std::string>& problems) {
  std::vector<std::shared_ptr<const rules::Edition>> editions;
  std::error_code ec;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.path().extension() == ".toml") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    auto edition = rules::load_edition(file.string(), {dir});
    if (!edition) {
      problems.push_back(edition.error().what());
      continue;
    }
    editions.push_back(std::make_shared<const rules::Edition>(std::move(*edition)));
  }
  return editions;
}

}  // namespace

// One service per database: two processes writing one ledger each number their inputs from what they last
// read, and the second one's inputs collide with the first one's (a UNIQUE failure on inputs.seq, or worse,
// two games interleaved). An advisory lock on "<database>.lock", held for the service's life and released by
// the kernel when the process ends however it ends, refuses the second one with a clear message.
class DatabaseLock {
 public:
  static std::expected<DatabaseLock, std::string> take(const std::string& database) {
    const std::string path = database + ".lock";
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return std::unexpected(fmt::format("cannot open {}: {}", path, std::strerror(errno)));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      ::close(fd);
      if (error == EWOULDBLOCK)
        return std::unexpected(fmt::format(
            "{} is in use by another boardbank (a service or demo still running): stop it first", database));
      return std::unexpected(fmt::format("cannot lock {}: {}", path, std::strerror(error)));
    }
    return DatabaseLock(fd);
  }
  DatabaseLock(DatabaseLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  DatabaseLock& operator=(DatabaseLock&&) = delete;
  DatabaseLock(const DatabaseLock&) = delete;
  ~DatabaseLock() {
    if (fd_ >= 0) ::close(fd_);
  }

 private:
  explicit DatabaseLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

struct Service::Impl : ParticipantContext {
  ServiceSetup setup;
  std::unique_ptr<EventLoop> loop;
  SystemdNotifier notifier;
  std::optional<DatabaseLock> database_lock;  // taken before the ledger opens, released after it closes
  std::optional<ledger::Ledger> ledger;
  std::unique_ptr<table::LedgerGameStore> store;
  std::unique_ptr<table::Table> session;  // the table (named so it does not hide namespace table)
  std::unique_ptr<display::TouchScreen> screen;
  display::Snapshot snapshot;
  // The charts' worth over time and landings of the current game (snapshot.history points here): rebuilt
  // from the ledger when the game changes (a resume, a new game), then one sample per stored input.
  display::GameHistory history;
  std::optional<ledger::GameId> history_game;
  bool history_given_up = false;  // the log could not be replayed: the charts follow from now on
  std::vector<std::shared_ptr<const rules::Edition>> editions;

  struct OpenDevice {
    peripherals::DeviceConfig config;
    std::unique_ptr<peripherals::Device> device;  // null: missing, retried
  };
  std::vector<OpenDevice> devices;

  std::jthread camera;
  std::atomic<std::uint64_t> camera_dropped{0};
  bool camera_configured = false;
  // Loop -> camera thread: learn this many tokens afresh (> 0), forget the tokens (-1), nothing asked (0).
  std::atomic<int> camera_relearn{0};
  bool learning_asked = false;  // the table's learn_tokens request was handed to the camera thread
  // The camera thread's clock reading (steady_clock, ns) when it last handed over a frame; 0: none yet.
  std::atomic<std::int64_t> camera_last_frame_ns{0};
  bool camera_silent = false;  // loop thread: the watchdog reported the camera gone for want of pictures

  std::map<table::TimerId, EventLoop::TimerId> table_timers;
  std::uint64_t touches = 0;
  std::string boot_id;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  int exit_code = 0;

  void log(const std::string& line) const {
    if (setup.log)
      setup.log(line);
    else
      std::cout << line << std::endl;
  }

  // ParticipantContext
  const table::Table& table() const override { return *session; }
  void touch(const display::Intent& intent) override { on_intent(intent); }
  std::expected<void, std::string> press(const std::string& target) override {
    screen->draw_if_needed();  // the frame as the newest snapshot lays it out
    if (auto pressed = press_target(screen->frame(), target); !pressed) return pressed;
    frame();  // the touch is handled now, as the next frame would
    return {};
  }
  std::expected<void, std::string> save_screen(const std::string& path) override {
    return screen->save_png(path);
  }
  void stop(int code) override { loop->stop(code); }
  const display::Snapshot* screen_snapshot() const override { return &snapshot; }
  std::chrono::milliseconds uptime() const override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
  }

  table::TableSettings table_settings() const {
    const Config& c = setup.config;
    table::TableSettings s;
    s.draw_mode = c.house_rules.virtual_decks ? table::DrawMode::virtual_decks : table::DrawMode::stickers;
    s.automatic_bank_payments = c.house_rules.automatic_bank_payments;
    s.house_rules = c.house_rules.options;
    if (!c.banker_card.empty()) {
      table::CardRole banker;
      banker.kind = table::CardRole::Kind::banker;
      s.cards.push_back(table::RegisteredCard{c.banker_card, banker});
    }
    s.banker_pin_ok = pin_check();
    return s;
  }

  std::function<bool(const std::string&)> pin_check() const {
    const Config& c = setup.config;
    if (!c.banker_pin.empty())
      return [hash = c.banker_pin](const std::string& pin) { return pin_matches(hash, pin); };
    // Neither a PIN nor a card configured: the documented default, so a new table can be corrected at all.
    if (c.banker_card.empty()) return [](const std::string& pin) { return pin == "1234"; };
    return {};
  }

  display::UiSettings ui_settings() const {
    display::UiSettings s;
    s.sound = setup.config.screen.sound;
    s.banker_card = setup.config.banker_card;
    s.auction_countdown_s = setup.config.house_rules.auction_countdown_s;
    s.banker_pin_ok = pin_check();
    if (!s.banker_pin_ok) s.banker_pin_ok = [](const std::string&) { return false; };
    return s;
  }

  // ---- reactions
  // -------------------------------------------------------------------------------------------

  // Replays the current game's stored inputs through the rules into `history`. The log is the ledger's own
  // export (the game-script format), so what the charts show is what the file holds.
  void rebuild_history() {
    replay_history();
    const rules::Game* live = session->view().game;
    history_given_up = live && history.worth().size() != live->input_count() + 1;
  }
  void replay_history() {
    history = display::GameHistory{};
    history_game = store->current();
    const rules::Game* live = session->view().game;
    if (!history_game || !live) return;
    auto script = ledger->export_script(*history_game);
    if (!script) return (void)log("the charts start from now: " + script.error().message);
    // The live game's edition, borrowed for the replay (it outlives this function).
    std::shared_ptr<const rules::Edition> edition(&live->edition(), [](const rules::Edition*) {});
    std::size_t start = 0;
    std::optional<rules::Game> game;
    std::vector<std::string> names;
    while (start < script->size()) {
      std::size_t end = script->find('\n', start);
      if (end == std::string::npos) end = script->size();
      const std::string_view line(script->data() + start, end - start);
      start = end + 1;
      if (line.empty()) continue;
      if (!game) {
        auto game_setup = rules::parse_setup(line);
        if (!game_setup) return (void)log("the charts start from now: " + game_setup.error());
        auto started_game = rules::Game::start(edition, *game_setup);
        if (!started_game) return (void)log("the charts start from now: " + started_game.error());
        game.emplace(std::move(*started_game));
        for (const auto& p : game_setup->players) names.push_back(p.name);
        history.start(*game);
        continue;
      }
      auto input = rules::parse_input(line, names, *edition);
      if (!input) return (void)log("the charts stop at a line they cannot read: " + input.error());
      auto outcome = game->apply(*input);
      if (!outcome) return (void)log("the charts stop at a refused input: " + outcome.error());
      history.record(*game, *outcome);
    }
  }

  // One sample per stored input; anything else (another game, several inputs at once, a failed commit's
  // rebuild) rebuilds from the ledger.
  void follow_history(const table::Reaction& r) {
    const rules::Game* game = session->view().game;
    if (!game || history_game != store->current()) return;
    std::size_t fresh = 0;
    for (const auto& recorded : r.recorded) fresh += recorded.duplicate ? 0 : 1;
    if (fresh == 1 && history.worth().size() == game->input_count()) {
      for (const auto& recorded : r.recorded)
        if (!recorded.duplicate) history.record(*game, rules::Outcome{0, recorded.events});
    }
  }

  void refresh_snapshot() {
    const std::uint64_t version = snapshot.version;
    const rules::Game* game = session->view().game;
    if (history_game != store->current() ||
        (game && !history_given_up && history.worth().size() != game->input_count() + 1))
      rebuild_history();
    snapshot.history = game ? &history : nullptr;
    session->fill(snapshot);
    snapshot.editions = editions;
    snapshot.version = version + 1;
    screen->show(snapshot);
  }

  void react(const table::Reaction& r) {
    for (const auto& recorded : r.recorded) {
      if (recorded.duplicate) continue;
      if (setup.headless)
        log(fmt::format("input {}: {} posting{}", recorded.seq, recorded.postings.size(),
                        recorded.postings.size() == 1 ? "" : "s"));
      if (recorded.game_over) {
        log("the game is over");
        // The end-of-game backup, on the loop's next turn rather than inside this commit.
        (void)loop->add_timer("end-of-game backup", 1ms, 0ms, [this] { backup(true); });
      }
    }
    for (const auto& message : r.messages) {
      log(message);
      notifier.status(message);
    }
    if (r.paused) {
      log("paused: " + *r.paused);
      notifier.status("paused: " + *r.paused);
    }
    for (const auto& timer : r.timers) arm_table_timer(timer);
    follow_history(r);
    if (r.snapshot_changed || !r.recorded.empty() || r.question) refresh_snapshot();
    for (const auto& card : r.cards) {
      for (const auto& intent : screen->card(card.uid, card.player)) on_intent(intent);
    }
    follow_learning();
  }

  void handle(const table::Event& event) { react(session->handle(event)); }

  void on_intent(display::Intent intent) {
    if (auto* start = std::get_if<display::StartGame>(&intent); start && start->setup.seed == 0) {
      start->setup.seed = std::random_device{}();  // the table is pure: the seed comes from here
    }
    if (std::holds_alternative<display::SetSound>(intent)) {
      screen->ui().mutable_settings().sound = std::get<display::SetSound>(intent).on;
    }
    handle(table::ScreenIntent{std::move(intent), fmt::format("touch:{}:{}", boot_id, ++touches)});
  }

  void arm_table_timer(const table::TimerRequest& request) {
    auto found = table_timers.find(request.which);
    if (found != table_timers.end()) {
      loop->cancel(found->second);
      table_timers.erase(found);
    }
    if (request.action != table::TimerRequest::Action::arm) return;
    const auto which = request.which;
    const std::string id = request.id;
    auto timer = loop->add_timer(
        "table timer", std::chrono::milliseconds(std::max<std::uint64_t>(1, request.after_ms)), 0ms,
        [this, which, id] {
          if (auto it = table_timers.find(which); it != table_timers.end()) {
            loop->cancel(it->second);
            table_timers.erase(it);
          }
          handle(table::TimerFired{which, static_cast<std::uint64_t>(uptime().count()), id});
        });
    if (timer) table_timers[which] = *timer;
  }

  // ---- devices
  // ---------------------------------------------------------------------------------------------

  void open_devices() {
    const auto configs =
        setup.devices_from_config && setup.devices.empty() ? setup.config.device_configs() : setup.devices;
    for (const auto& config : configs) devices.push_back(OpenDevice{config, nullptr});
    for (std::size_t i = 0; i < devices.size(); ++i) try_open(i, true);
  }

  void try_open(std::size_t index, bool first) {
    OpenDevice& d = devices[index];
    if (d.device) return;
    auto opened = peripherals::open_device(
        d.config, [this](const std::string& uid) { return session->cards().find(uid).has_value(); });
    display::DeviceStatus status;
    status.kind = device_kind(d.config);
    status.name = display_name(d.config);
    if (!opened) {
      if (first)
        log(fmt::format("{} ({}): {} — the table goes on without it", status.name, d.config.backend,
                        opened.error()));
      if (!first) return;  // still missing: said once
      status.state = display::DeviceStatus::State::missing;
      status.detail = opened.error();
      status.what_to_do = what_to_do(d.config);
      handle(table::DeviceHealth{status});
      return;
    }
    d.device = std::move(*opened);
    const int fd = d.device->fd();
    auto watched = loop->watch(fd, status.name, [this, index] { read_device(index); });
    if (!watched) {
      log(watched.error());
      d.device.reset();
      return;
    }
    status.state = display::DeviceStatus::State::ok;
    status.detail = d.config.backend == "real" ? "ready" : d.config.backend;
    if (!first) log(status.name + " is back");
    handle(table::DeviceHealth{status});
  }

  void retry_missing() {
    for (std::size_t i = 0; i < devices.size(); ++i) try_open(i, false);
  }

  void read_device(std::size_t index) {
    OpenDevice& d = devices[index];
    if (!d.device) return;
    auto events = d.device->read_events();
    for (const auto& e : events) {
      switch (e.kind) {
        case peripherals::EventKind::card:
        case peripherals::EventKind::unknown_card:
          handle(table::CardTapped{e.uid, e.device, e.id});
          break;
        case peripherals::EventKind::dice:
          handle(table::DiceThrown{e.dice[0], e.dice[1], e.id, e.device});
          break;
        case peripherals::EventKind::rejected:
          log(fmt::format("{}: {}", e.device, e.why));
          break;
        case peripherals::EventKind::status: {
          display::DeviceStatus status;
          status.kind = device_kind(d.config);
          status.name = display_name(d.config);
          const bool back = e.why.find("back") != std::string::npos;
          status.state = back ? display::DeviceStatus::State::ok : display::DeviceStatus::State::error;
          status.detail = e.why;
          if (!back) status.what_to_do = what_to_do(d.config);
          log(fmt::format("{}: {}", status.name, e.why));
          handle(table::DeviceHealth{status});
          break;
        }
      }
    }
    if (d.device->finished()) {  // a replay that has delivered everything
      loop->unwatch(d.device->fd());
      d.device.reset();
      d.config.backend = "off";
    }
  }

  void close_devices() {
    for (auto& d : devices)
      if (d.device) loop->unwatch(d.device->fd());
    devices.clear();
  }

  // ---- camera
  // ----------------------------------------------------------------------------------------------

  // Where the learned tokens are kept across restarts: as configured, else beside the ledger.
  std::string camera_setup_path() const {
    const CameraConfig& c = setup.config.camera;
    return !c.setup.empty() ? c.setup : setup.config.ledger.path + ".tokens.json";
  }

  void start_camera() {
    auto make_source = setup.frame_source;
    const CameraConfig camera_config = setup.config.camera;
    if (!make_source && !camera_config.source.empty()) {
      make_source = [camera_config]() -> std::expected<std::unique_ptr<vision::FrameSource>, std::string> {
        vision::CaptureSource::Options options;
        options.width = camera_config.width;
        options.height = camera_config.height;
        return vision::open_source(camera_config.source, options);
      };
    }
    if (!make_source) return;  // no camera: the dice alone decide
    camera_configured = true;
    int spaces_per_side = 10;
    if (const rules::Game* g = session->view().game; g && g->edition().spaces.size() % 4 == 0)
      spaces_per_side = static_cast<int>(g->edition().spaces.size() / 4);
    const std::string stored_setup = camera_setup_path();
    camera = std::jthread([this, make_source, spaces_per_side, stored_setup](std::stop_token stop) {
      camera_main(stop, make_source, spaces_per_side, stored_setup);
    });
  }

  // The table asks for the tokens (a new game, or a resumed one the camera does not know): the camera
  // thread starts learning afresh, expecting one token per player. Called after every reaction.
  void follow_learning() {
    const table::TableView& v = session->view();
    const bool asked = v.awaiting.kind == table::Awaiting::Kind::learn_tokens && v.game;
    if (asked && !learning_asked) {
      const int players = static_cast<int>(v.game->state().players.size());
      camera_relearn.store(players);
      log(fmt::format("the camera learns {} tokens", players));
    }
    // Learning ended without a camera ("Play without the camera"): the tracker stops looking, or its
    // reports would bring the cross-check back.
    if (learning_asked && !asked && !v.camera) camera_relearn.store(-1);
    learning_asked = asked;
  }

  // The camera thread says which tokens it knows at start (loop thread): a stored set-up that fits the game
  // that is open goes on cross-checking it; none, an unreadable or a stale one makes the table ask for the
  // tokens again.
  void camera_setup_known(int tokens, const std::string& problem) {
    const rules::Game* g = session->view().game;
    const int players = g ? static_cast<int>(g->state().players.size()) : 0;
    std::string why = problem;
    if (why.empty() && g && tokens == 0) why = "none are stored in " + camera_setup_path();
    if (why.empty() && g && tokens != players)
      why = fmt::format("it holds {} tokens and the game has {} players", tokens, players);
    if (why.empty()) {
      if (tokens > 0)
        log(fmt::format("the camera knows the {} tokens learned before ({})", tokens, camera_setup_path()));
      return;
    }
    log(fmt::format("the camera's stored tokens are not used: {}; they are learned again", why));
    if (tokens > 0 || !problem.empty()) camera_relearn.store(-1);  // forget them until the table asks
    if (g && !g->state().ended) react(session->learn_tokens_again());
  }

  // The camera thread: grabs frames, runs the tracker, hands what it saw to the loop. Never touches the
  // table, the ledger or SDL. It looks for tokens only once it knows them (a stored set-up) or the table
  // asked for them, so that nothing learned before a game is set up stands in for the game's tokens.
  void camera_main(
      std::stop_token stop,
      const std::function<std::expected<std::unique_ptr<vision::FrameSource>, std::string>()>& make,
      int spaces_per_side, const std::string& stored_setup) {
    auto hand_over = [this](table::Event event) {
      if (!loop->post([this, event = std::move(event)] { handle(event); })) ++camera_dropped;
    };
    auto lost = [&](const std::string& why) {
      display::DeviceStatus status{display::DeviceStatus::Kind::camera, "Camera",
                                   display::DeviceStatus::State::missing, why,
                                   "check the camera's cable; meanwhile move the tokens by hand"};
      hand_over(table::DeviceHealth{status});
    };
    auto source = make();
    if (!source) {
      lost(source.error());
      return;
    }
    const vision::SpaceMap map(spaces_per_side);
    std::unique_ptr<vision::TokenTracker> tracker;
    int learning_tokens = 0;  // > 0: learning asked for this many tokens, not yet stored
    std::string problem;
    if (std::filesystem::exists(stored_setup)) {
      tracker = std::make_unique<vision::TokenTracker>(map, vision::TokenTracker::Settings{});
      if (auto loaded = tracker->load_setup(stored_setup); !loaded) {
        problem = fmt::format("{} cannot be used ({})", stored_setup, loaded.error());
        tracker.reset();
      }
    }
    hand_over(table::DeviceHealth{display::DeviceStatus{display::DeviceStatus::Kind::camera, "Camera",
                                                        display::DeviceStatus::State::ok,
                                                        (*source)->describe(), ""}});
    const int known = tracker ? static_cast<int>(tracker->tokens().size()) : 0;
    loop->post([this, known, problem] { camera_setup_known(known, problem); });
    cv::Mat frame;
    std::int64_t index = 0;
    while (!stop.stop_requested()) {
      if (const int asked = camera_relearn.exchange(0); asked != 0) {
        tracker.reset();
        learning_tokens = 0;
        if (asked > 0) {
          vision::TokenTracker::Settings settings;
          settings.expected_tokens = asked;
          tracker = std::make_unique<vision::TokenTracker>(map, settings);
          learning_tokens = asked;
        }
      }
      const auto grab = (*source)->grab(frame);
      switch (grab.status) {
        case vision::FrameSource::Status::frame:
          camera_last_frame_ns.store(std::chrono::steady_clock::now().time_since_epoch().count());
          if (grab.reopened) {
            if (tracker) tracker->camera_restarted();
            hand_over(
                table::DeviceHealth{display::DeviceStatus{display::DeviceStatus::Kind::camera, "Camera",
                                                          display::DeviceStatus::State::ok, "back", ""}});
          }
          if (tracker) {
            for (const auto& e : tracker->process(frame, index))
              if (auto r = report_of(e)) hand_over(*r);
            if (learning_tokens > 0 && static_cast<int>(tracker->tokens().size()) >= learning_tokens) {
              // Kept for a restart: after a power cut the family does not put every token on GO again.
              auto saved = tracker->save_setup(stored_setup);
              loop->post([this, why = saved ? std::string() : saved.error(), stored_setup] {
                log(why.empty() ? "the camera's learned tokens are kept in " + stored_setup
                                : "the camera's learned tokens could not be kept: " + why);
              });
              learning_tokens = 0;
            }
          }
          ++index;
          break;
        case vision::FrameSource::Status::end:
          lost("the camera's source has no more frames");
          return;
        case vision::FrameSource::Status::lost:
          lost(grab.message);
          break;
        case vision::FrameSource::Status::waiting:
          std::this_thread::sleep_for(100ms);
          break;
        case vision::FrameSource::Status::skipped:  // one unusable image of a folder: the next one follows
          break;
      }
    }
  }

  // The loop's watch over a camera that goes quiet without a word (see kCameraSilence): only a camera that
  // has sent pictures and was working is reported gone, and it is back with its next picture.
  void check_camera_silence() {
    const std::int64_t last = camera_last_frame_ns.load();
    if (last == 0) return;
    const auto quiet = std::chrono::steady_clock::now().time_since_epoch() - std::chrono::nanoseconds(last);
    const auto& statuses = session->view().devices;
    const bool camera_ok = std::any_of(statuses.begin(), statuses.end(), [](const display::DeviceStatus& d) {
      return d.kind == display::DeviceStatus::Kind::camera && d.state == display::DeviceStatus::State::ok;
    });
    if (!camera_silent && camera_ok && quiet >= kCameraSilence) {
      camera_silent = true;
      const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(quiet).count();
      handle(table::DeviceHealth{display::DeviceStatus{
          display::DeviceStatus::Kind::camera, "Camera", display::DeviceStatus::State::missing,
          fmt::format("no picture for {:.1f} s", ms / 1000.0),
          "check the camera's cable; meanwhile enter the dice or move by hand"}});
    } else if (camera_silent && quiet < kCameraSilence) {
      camera_silent = false;
      log("Camera: pictures again");
      handle(table::DeviceHealth{display::DeviceStatus{display::DeviceStatus::Kind::camera, "Camera",
                                                       display::DeviceStatus::State::ok, "back", ""}});
    }
  }

  // ---- upkeep
  // ----------------------------------------------------------------------------------------------

  void backup(bool end_of_game) {
    if (setup.config.ledger.backup_dir.empty()) return;
    if (end_of_game) {
      if (auto made = ledger->backup_now(); !made)
        log("the end-of-game backup failed: " + made.error().message);
      return;
    }
    if (auto due = ledger->backup_if_due(std::chrono::system_clock::now()); due && !*due)
      log("the scheduled backup failed: " + due->error().message);
  }

  void frame() {
    for (const auto& intent : screen->pump()) on_intent(intent);
    if (screen->quit_requested()) loop->stop(0);
    screen->draw_if_needed();
  }

  void terminate() {
    // Signals arrive between callbacks: no commit is in flight. Move the WAL into the file and leave.
    notifier.stopping("saving and stopping");
    if (auto done = ledger->checkpoint(); !done) log("checkpoint failed: " + done.error().message);
    log("stopped");
    loop->stop(0);
  }

  void reload() {
    notifier.reloading();
    auto fresh = load_config(setup.config.file);
    if (!fresh) {
      for (const auto& p : fresh.error()) log(p.to_string());
      log("the configuration was not reloaded: fix it (boardbank check-config) and reload again");
      notifier.ready("running (the reloaded configuration had problems; the old one stays)");
      return;
    }
    setup.config = std::move(*fresh);
    screen->ui().mutable_settings() = ui_settings();
    // The table's settings too (house rules, automatic payments, draw mode, the banker's card and PIN).
    react(session->reload_settings(table_settings()));
    // Devices from the file are opened again as the file now says (a caller's own devices stay as they are).
    if (setup.devices_from_config && setup.devices.empty()) {
      close_devices();
      open_devices();
    }
    log("configuration reloaded from " + setup.config.file);
    notifier.ready("running");
  }
};

Service::Service(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Service::~Service() {
  if (impl_ && impl_->camera.joinable()) {
    impl_->camera.request_stop();
    impl_->camera.join();
  }
}

std::expected<std::unique_ptr<Service>, std::string> Service::create(ServiceSetup setup) {
  auto impl = std::make_unique<Impl>();
  impl->setup = std::move(setup);
  Impl& s = *impl;
  const Config& config = s.setup.config;
  s.boot_id = fmt::format("{:x}", std::random_device{}() & 0xFFFFFFu);

  auto loop = EventLoop::create();
  if (!loop) return std::unexpected(loop.error());
  s.loop = std::move(*loop);
  // Signals first, before any thread starts, so every thread inherits the blocked mask.
  for (int signo : {SIGTERM, SIGINT}) {
    if (auto done = s.loop->on_signal(signo, [&s] { s.terminate(); }); !done)
      return std::unexpected(done.error());
  }
  if (auto done = s.loop->on_signal(SIGHUP, [&s] { s.reload(); }); !done)
    return std::unexpected(done.error());

  // The ledger makes its own database and folders.
  std::error_code ec;
  for (const auto& dir : {std::filesystem::path(config.ledger.path).parent_path(),
                          std::filesystem::path(config.ledger.backup_dir)}) {
    if (!dir.empty()) std::filesystem::create_directories(dir, ec);
    if (ec)
      return std::unexpected(
          fmt::format("cannot create {}: {} (the service's user must own it)", dir.string(), ec.message()));
  }
  auto locked = DatabaseLock::take(config.ledger.path);
  if (!locked) return std::unexpected(locked.error());
  s.database_lock.emplace(std::move(*locked));
  ledger::LedgerOptions options;
  options.path = config.ledger.path;
  options.backup_dir = config.ledger.backup_dir;
  options.keep_backups = config.ledger.keep_backups;
  options.backup_every_minutes = config.ledger.backup_every_minutes;
  options.resume_budget_ms = config.ledger.resume_budget_ms;
  options.edition_dirs = edition_dirs(config.editions_dir);
  options.vfs = s.setup.ledger_vfs;
  auto opened = ledger::Ledger::open(options);
  if (!opened) return std::unexpected(opened.error().message);
  s.ledger.emplace(std::move(*opened));
  s.store = std::make_unique<table::LedgerGameStore>(*s.ledger);
  s.session = std::make_unique<table::Table>(*s.store, s.table_settings());

  std::vector<std::string> edition_problems;
  for (const auto& dir : options.edition_dirs) {
    s.editions = load_editions(dir, edition_problems);
    if (!s.editions.empty()) break;
  }
  for (const auto& problem : edition_problems) s.log("edition skipped: " + problem);

  display::TouchScreen::Options screen;
  screen.width = config.screen.width;
  screen.height = config.screen.height;
  screen.rotation = config.screen.rotation;
  screen.window = config.screen.window && !s.setup.headless;
  screen.fullscreen = config.screen.fullscreen;
  screen.audio = config.screen.sound && !s.setup.headless;
  screen.font_dir = config.screen.font_dir;
  screen.settings = s.ui_settings();
  auto opened_screen = display::TouchScreen::open(screen);
  if (!opened_screen && screen.window) {
    // No display here (a Pi without its screen plugged in): the table runs offscreen rather than not at all.
    s.log(fmt::format("no window ({}); drawing offscreen", opened_screen.error()));
    screen.window = false;
    screen.audio = false;
    opened_screen = display::TouchScreen::open(screen);
  }
  if (!opened_screen) return std::unexpected(opened_screen.error());
  s.screen = std::move(*opened_screen);
  return std::unique_ptr<Service>(new Service(std::move(impl)));
}

int Service::run() {
  Impl& s = *impl_;
  // The newest unfinished game comes back first, so that devices and camera report into it.
  s.react(s.session->start_up());
  s.refresh_snapshot();
  if (auto id = s.store->current()) {
    // An undo then needs no replay at the moment it is asked for.
    (void)s.loop->add_timer("undo history", kHistoryAfterStart, 0ms, [&s, game = *id] {
      if (auto loaded = s.ledger->load_history(game); !loaded) s.log(loaded.error().message);
    });
  }
  s.open_devices();
  s.start_camera();
  const auto frame_period =
      s.setup.headless || !s.setup.config.screen.window ? kOffscreenFrame : kWindowFrame;
  if (auto t = s.loop->add_timer("screen", 1ms, frame_period, [&s] { s.frame(); }); !t)
    return (s.log(t.error()), 1);
  if (auto t = s.loop->add_timer("backups", kBackupCheck, kBackupCheck, [&s] { s.backup(false); }); !t)
    return (s.log(t.error()), 1);
  if (auto t = s.loop->add_timer("device retry", kDeviceRetry, kDeviceRetry, [&s] { s.retry_missing(); }); !t)
    return (s.log(t.error()), 1);
  if (s.camera_configured) {
    if (auto t = s.loop->add_timer("camera silence", kCameraCheckEvery, kCameraCheckEvery,
                                   [&s] { s.check_camera_silence(); });
        !t)
      return (s.log(t.error()), 1);
  }
  if (auto fed = keep_watchdog_fed(*s.loop, s.notifier); !fed) s.log(fed.error());
  for (auto& participant : s.setup.participants) {
    const auto wake = participant->wake();
    Participant* p = participant.get();
    auto call = [&s, p] { p->on_wake(s); };
    if (wake.fd >= 0) {
      if (auto w = s.loop->watch(wake.fd, p->name(), call); !w) return (s.log(w.error()), 1);
    }
    if (wake.period.count() > 0) {
      if (auto t = s.loop->add_timer(p->name(), wake.period, wake.period, call); !t)
        return (s.log(t.error()), 1);
    }
  }
  const std::string ready = s.store->current() ? fmt::format("table ready, game {}", *s.store->current())
                                               : std::string("table ready, no game yet");
  s.log(ready);
  s.notifier.ready(ready);
  const int code = s.loop->run();
  if (s.camera.joinable()) {
    s.camera.request_stop();
    s.camera.join();
  }
  const auto stall = s.loop->longest_stall();
  s.log(fmt::format("longest loop stall {:.1f} ms ({})", static_cast<double>(stall.longest.count()) / 1e6,
                    stall.where));
  return code;
}

}  // namespace bb::daemon
