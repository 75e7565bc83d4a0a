#include "daemon/service.h"

#include <fmt/format.h>
#include <signal.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <utility>

#include "daemon/camera_token_names.h"
#include "daemon/paths.h"
#include "daemon/service_impl.h"
#include "display/font_set.h"
#include "ledger/wal_sync.h"

namespace bb::daemon {

namespace {

using namespace std::chrono_literals;

// How often the loop pumps SDL and draws when something changed: a frame with a window, less offscreen
// (nothing but injected events can arrive there).
constexpr auto kWindowFrame = 16ms;
constexpr auto kOffscreenFrame = 50ms;
constexpr auto kBackupCheck = 60s;
// A backup is copied this many pages (of 4 KiB) a step, a step this often: each step stays far below a frame
// on a Pi's SD card, and a 34 MiB ledger is copied in about a second (bench_daemon_loop, bench_ledger).
constexpr int kBackupPagesPerStep = 64;
constexpr auto kBackupStepEvery = 2ms;
constexpr auto kDeviceRetry = 5s;
constexpr auto kHistoryAfterStart = 2s;
constexpr auto kSyncRetry = 1s;  // a ledger sync that failed (a failing SD card) is tried again this often

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

table::TableSettings Service::Impl::table_settings() const {
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

std::function<bool(const std::string&)> Service::Impl::pin_check() const {
  const Config& c = setup.config;
  if (!c.banker_pin.empty())
    return [hash = c.banker_pin](const std::string& pin) { return pin_matches(hash, pin); };
  // Neither a PIN nor a card configured: the documented default, so a new table can be corrected at all.
  if (c.banker_card.empty()) return [](const std::string& pin) { return pin == "1234"; };
  return {};
}

display::UiSettings Service::Impl::ui_settings() const {
  display::UiSettings s;
  s.sound = setup.config.screen.sound;
  s.banker_card = setup.config.banker_card;
  s.auction_countdown_s = setup.config.house_rules.auction_countdown_s;
  s.banker_pin_ok = pin_check();
  if (!s.banker_pin_ok) s.banker_pin_ok = [](const std::string&) { return false; };
  return s;
}

void Service::Impl::react(const table::Reaction& r) {
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
  if (std::find(r.cues.begin(), r.cues.end(), display::Cue::refused) != r.cues.end()) {
    ++refusals_made.count;
    refusals_made.last = r.messages.empty() ? std::string("refused") : r.messages.back();
  }
  for (const auto& message : r.messages) {
    log(message);
    notifier.status(message);
  }
  if (r.paused) {
    log("paused: " + *r.paused);
    notifier.status("paused: " + *r.paused);
    // The screen's status line is one line, too short for what to do: the whole message goes over the
    // picture (the table as stored: nothing of the refused input) once it is drawn, until a touch closes it
    // or the table is no longer paused.
    pause_notice = display::ScreenNotice{std::string(kPausedTitle),
                                         *r.paused + " Touch the screen to close this message."};
    pause_notice_shown = false;
    picture_changed();
  }
  for (const auto& timer : r.timers) arm_table_timer(timer);
  if (r.camera_learning && r.camera_learning->mode == table::CameraLearning::Mode::all_on_start &&
      session->view().game) {
    // "Look again" at the tokens on the start space: a fresh tracker counts them afresh.
    camera_relearn.store(static_cast<int>(session->view().game->state().players.size()));
    log("the camera looks at the start space again");
  }
  if (r.camera_learning && r.camera_learning->mode == table::CameraLearning::Mode::one_at_a_time &&
      r.camera_learning->player) {
    const rules::Game* g = session->view().game;
    camera_learn_players.store(g ? static_cast<int>(g->state().players.size()) : 0);
    camera_learn_one.store(r.camera_learning->player->number() + 1);
    log(fmt::format("the camera learns token {} alone", token_of_player(*r.camera_learning->player)));
  }
  if (r.camera_settled && camera_configured) {
    // The family's answer goes to the tracker, which belongs to the camera thread: it takes it before its
    // next frame.
    const std::string token = token_of_player(r.camera_settled->player);
    {
      std::lock_guard lock(camera_settle_mutex);
      camera_settled.emplace_back(token, r.camera_settled->space.number());
    }
    camera_settle_due.store(true);
    log(fmt::format("the camera takes {} as settled on space {}", token, r.camera_settled->space.number()));
  }
  follow_history(r);
  if (r.snapshot_changed || !r.recorded.empty() || r.question) picture_changed();
  for (const auto& card : r.cards) {
    for (const auto& intent : screen->card(card.uid, card.player)) on_intent(intent);
  }
  follow_learning();
}

void Service::Impl::picture_changed() {
  ++syncs_asked;
  syncer->request(syncs_asked);
  picture_due = true;
}

namespace {
// What the family reads while the ledger cannot store the game: the reason, that nothing is lost, what to do.
display::ScreenNotice sync_failure_notice(std::string reason) {
  if (!reason.empty() && reason[0] >= 'a' && reason[0] <= 'z')
    reason[0] = static_cast<char>(reason[0] - 'a' + 'A');
  display::ScreenNotice notice;
  notice.title = "The game cannot be saved";
  notice.body = fmt::format(
      "{}. Nothing is lost: the table keeps it and tries again every second; the screen goes on by itself "
      "once it is saved. Check the SD card: free some space if it is full, and see that it sits firmly in "
      "its slot. Do not switch the table off.",
      reason);
  return notice;
}
}  // namespace

void Service::Impl::on_synced(const LedgerSyncer::Result& result) {
  if (result.error) {
    if (!sync_failing) {
      const std::string line =
          "the ledger cannot be stored (" + *result.error + "): the screen waits; tried again every second";
      log(line);
      notifier.status(line);
    }
    // The family sees it too: over the last picture drawn (never the table's newer state, which the disk
    // does not hold), until a sync succeeds.
    if (!sync_failing || *result.error != sync_failure_shown) {
      sync_failure_shown = *result.error;
      screen->draw_notice_over_last(sync_failure_notice(*result.error));
    }
    sync_failing = true;
    if (!sync_retry_armed) {
      sync_retry_armed = true;
      (void)loop->add_timer("ledger sync retry", kSyncRetry, 0ms, [this] {
        sync_retry_armed = false;
        syncer->request(syncs_asked);
      });
    }
    return;
  }
  if (sync_failing) log("the ledger is stored again");
  sync_failing = false;
  syncs_done = std::max(syncs_done, result.durable);
  if (!sync_failure_shown.empty() && !screen_waits_for_ledger()) {
    // The card holds everything again: the notice goes, and the newest picture is drawn below.
    sync_failure_shown.clear();
    screen->close_notice();
    picture_due = true;
  }
  if (picture_due && !screen_waits_for_ledger()) {
    picture_due = false;
    // The pause notice stays over every picture (a countdown's tick included) until it is touched or the
    // table is no longer paused (the commit went through).
    if (pause_notice_shown && !session->view().paused && screen->notice() &&
        screen->notice()->title == kPausedTitle)
      screen->close_notice();
    if (!screen->notice()) pause_notice_shown = false;
    refresh_snapshot();
    // Presented now rather than at the next frame tick (up to 50 ms away offscreen): a tap's answer is on
    // the screen as soon as it is stored. A picture is drawn only when something changed, so this costs
    // no frame the tick would not have drawn.
    frame();
    if (pause_notice) {
      screen->draw_notice_over_last(*pause_notice);
      pause_notice_shown = true;
    }
    pause_notice.reset();
  }
}

void Service::Impl::on_intent(display::Intent intent) {
  if (auto* start = std::get_if<display::StartGame>(&intent); start && start->setup.seed == 0) {
    // The table is pure: the seed comes from here.
    start->setup.seed = setup.new_game_seed != 0 ? setup.new_game_seed : std::random_device{}();
  }
  if (const auto* weigh = std::get_if<display::WeighTrade>(&intent)) return weigh_trade(weigh->trade);
  if (std::holds_alternative<display::SetSound>(intent)) {
    screen->ui().mutable_settings().sound = std::get<display::SetSound>(intent).on;
  }
  handle(table::ScreenIntent{std::move(intent), fmt::format("touch:{}:{}", boot_id, ++touches)});
}

void Service::Impl::queue_touch(display::Intent intent) {
  touches_waiting.push_back(std::move(intent));
  if (touches_waiting.size() > 1) return;  // the delivery is posted already
  // A full queue (the loop far behind) posts nothing: the next frame tick delivers them instead.
  (void)loop->post([this] { deliver_touches(); }, "touch");
}

void Service::Impl::deliver_touches() {
  while (!touches_waiting.empty()) {
    auto intent = std::move(touches_waiting.front());
    touches_waiting.pop_front();
    on_intent(std::move(intent));
  }
}

void Service::Impl::arm_table_timer(const table::TimerRequest& request) {
  auto found = table_timers.find(request.which);
  if (found != table_timers.end()) {
    loop->cancel(found->second);
    table_timers.erase(found);
  }
  if (request.action != table::TimerRequest::Action::arm) return;
  const auto which = request.which;
  const std::string id = request.id;
  auto timer =
      loop->add_timer("table timer", std::chrono::milliseconds(std::max<std::uint64_t>(1, request.after_ms)),
                      0ms, [this, which, id] {
                        if (auto it = table_timers.find(which); it != table_timers.end()) {
                          loop->cancel(it->second);
                          table_timers.erase(it);
                        }
                        handle(table::TimerFired{which, static_cast<std::uint64_t>(uptime().count()), id});
                      });
  if (timer) table_timers[which] = *timer;
}

namespace {
const char* backup_name(BackupFinisher::Occasion occasion) {
  return occasion == BackupFinisher::Occasion::end_of_game ? "the end-of-game backup"
                                                           : "the scheduled backup";
}
}  // namespace

void Service::Impl::backup(bool end_of_game) {
  if (setup.config.ledger.backup_dir.empty() || !backups) return;
  if (backups->busy() || ledger->backup_under_way()) {
    if (end_of_game) end_of_game_backup_waiting = true;
    return;
  }
  const auto occasion =
      end_of_game ? BackupFinisher::Occasion::end_of_game : BackupFinisher::Occasion::scheduled;
  auto begun = end_of_game ? std::optional(ledger->begin_backup())
                           : ledger->begin_backup_if_due(std::chrono::system_clock::now());
  if (!begun) return;
  if (!*begun) return log(fmt::format("{} failed: {}", backup_name(occasion), begun->error().message));
  backup_copying = occasion;
  auto timer = loop->add_timer("backup copy", 1ms, kBackupStepEvery, [this] { step_backup(); });
  if (!timer) {
    ledger->backup_not_finished();
    return log(fmt::format("{} failed: {}", backup_name(occasion), timer.error()));
  }
  backup_step_timer = *timer;
}

void Service::Impl::step_backup() {
  auto stepped = ledger->step_backup(kBackupPagesPerStep);
  if (stepped && !*stepped) return;  // pages remain: the next step on a later turn
  if (backup_step_timer) loop->cancel(*backup_step_timer);
  backup_step_timer.reset();
  if (!stepped) return backup_failed(backup_copying, stepped.error().message);
  hand_over_backup(std::move(**stepped));
}

void Service::Impl::hand_over_backup(ledger::PendingBackup pending) {
  backups->hand_over(std::move(pending), backup_copying);
}

void Service::Impl::backup_failed(BackupFinisher::Occasion occasion, const std::string& why) {
  log(fmt::format("{} failed: {}", backup_name(occasion), why));
  if (ledger) ledger->backup_not_finished();  // tried again at the next check
  if (end_of_game_backup_waiting && !loop->stopping()) {
    end_of_game_backup_waiting = false;
    backup(true);
  }
}

void Service::Impl::complete_backup_at_stop() {
  if (!ledger || !ledger->backup_under_way() || !backups) return;
  if (backup_step_timer) loop->cancel(*backup_step_timer);
  backup_step_timer.reset();
  auto stepped = ledger->step_backup(-1);
  if (!stepped) return backup_failed(backup_copying, stepped.error().message);
  if (*stepped) hand_over_backup(std::move(**stepped));
}

void Service::Impl::on_backup_finished(const BackupFinisher::Result& result) {
  if (!result.made) return backup_failed(result.occasion, result.made.error());
  if (end_of_game_backup_waiting && !loop->stopping()) {
    end_of_game_backup_waiting = false;
    backup(true);
  }
}

void Service::Impl::frame() {
  // Touches wait in SDL's queue while the screen is behind the table: a finger presses what it sees.
  if (screen_waits_for_ledger()) return;
  deliver_touches();  // a participant's touches, when the loop's queue had no room to post them
  for (const auto& intent : screen->pump()) on_intent(intent);
  if (screen->quit_requested()) loop->stop(0);
  screen->draw_if_needed();
}

void Service::Impl::terminate() {
  // Signals arrive between callbacks: no commit is in flight. Move the WAL into the file and leave.
  notifier.stopping("saving and stopping");
  if (auto done = ledger->checkpoint(); !done) log("checkpoint failed: " + done.error().message);
  log("stopped");
  loop->stop(0);
}

void Service::Impl::reload() {
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
  // What the configuration and the environment alone refuse comes first: a refused start creates no folder
  // and takes no lock (a bad BOARDBANK_EDITIONS once left the ledger's folders made and its lock file
  // behind).
  auto dirs = edition_dirs(config.editions_dir);
  if (!dirs) return std::unexpected(dirs.error());
  // The screen refuses a font folder without its two faces ([screen] font_dir, or BOARDBANK_FONT_DIR) in
  // these words; asked here, before the ledger's folders and lock, not when the screen opens after them.
  if (auto why = display::FontSet::why_not_open(config.screen.font_dir)) return std::unexpected(*why);

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
  options.edition_dirs = std::move(*dirs);
  options.vfs = s.setup.ledger_vfs;
  // Commits are written on the loop and synced by the ledger syncer's thread (started in run()).
  options.durability = ledger::LedgerOptions::Durability::by_caller;
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
  auto sync = s.setup.ledger_sync;
  if (!sync) sync = [wal = ledger::WalSync(s.setup.config.ledger.path)] { return wal.sync(); };
  s.syncer = std::make_unique<LedgerSyncer>(*s.loop, std::move(sync),
                                            [&s](const LedgerSyncer::Result& r) { s.on_synced(r); });
  s.backups = std::make_unique<BackupFinisher>(
      *s.loop, [](const ledger::PendingBackup& pending) { return ledger::BackupStore::finish(pending); },
      [&s](const BackupFinisher::Result& r) { s.on_backup_finished(r); });
  s.start_odds();
  // The newest unfinished game comes back first, so that devices and camera report into it.
  s.react(s.session->start_up());
  s.picture_changed();
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
      auto tick = [&s, p, observer = wake.observer] {
        if (observer || (!s.screen_waits_for_ledger() && s.touches_waiting.empty())) p->on_wake(s);
      };
      if (auto t = s.loop->add_timer(p->name(), wake.period, wake.period, tick); !t)
        return (s.log(t.error()), 1);
    }
  }
  const std::string ready = s.store->current() ? fmt::format("table ready, game {}", *s.store->current())
                                               : std::string("table ready, no game yet");
  s.log(ready);
  s.notifier.ready(ready);
  const int code = s.loop->run();
  s.syncer.reset();  // the sync under way finishes; the ledger's close checkpoints the rest
  s.complete_backup_at_stop();
  s.backups.reset();  // the backup under way lands whole (and its failure is logged) before the ledger closes
  s.stop_odds();
  if (s.camera.joinable()) {
    s.camera.request_stop();
    s.camera.join();
  }
  const auto stall = s.loop->longest_stall();
  s.log(fmt::format("longest loop stall {:.1f} ms ({}); without its waits for a CPU {:.1f} ms ({})",
                    static_cast<double>(stall.longest.count()) / 1e6, stall.where,
                    static_cast<double>(stall.longest_own.count()) / 1e6, stall.where_own));
  // Which kind of work held the loop how long: the longest turn of each handler, longest first.
  std::vector<std::pair<std::string, EventLoop::Stall>> handlers(s.loop->stalls_by_handler().begin(),
                                                                 s.loop->stalls_by_handler().end());
  std::sort(handlers.begin(), handlers.end(),
            [](const auto& a, const auto& b) { return a.second.longest > b.second.longest; });
  std::string per_handler;
  for (const auto& [name, handler] : handlers)
    per_handler += fmt::format("{}{} {:.1f} ({:.1f})", per_handler.empty() ? "" : ", ", name,
                               static_cast<double>(handler.longest.count()) / 1e6,
                               static_cast<double>(handler.longest_own.count()) / 1e6);
  s.log("longest loop turn per handler, ms (without its waits for a CPU): " + per_handler);
  return code;
}

}  // namespace bb::daemon