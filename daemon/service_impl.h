#pragma once
// The service's private parts, shared by its files (service.cpp: start, run, reactions and upkeep;
// service_history.cpp: the snapshot and the charts; service_devices.cpp: the devices;
// service_camera.cpp: the camera thread and its watchdog). Not a public header: only daemon/service*.cpp
// include it.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "daemon/backup_finisher.h"
#include "daemon/database_lock.h"
#include "daemon/event_loop.h"
#include "daemon/ledger_syncer.h"
#include "daemon/service.h"
#include "daemon/systemd_notifier.h"
#include "daemon/token_setup_store.h"
#include "daemon/virtual_table.h"
#include "display/chances_view.h"
#include "display/game_history.h"
#include "display/touch_screen.h"
#include "ledger/ledger.h"
#include "odds/odds_worker.h"
#include "peripherals/device.h"
#include "rules/edition.h"
#include "table/ledger_game_store.h"
#include "table/table.h"
#include "vision/frame_source.h"

namespace bb::daemon {

// Everything the service owns. Thread: the loop thread calls every member function except camera_main,
// which is the camera thread's body and touches only the atomics marked for it and EventLoop::post.
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
  // One token at a time (table::CameraLearning::Mode::one_at_a_time): the player whose token the tracker is
  // to learn next, plus one (0: nothing asked since the camera thread last looked); with the players' count.
  std::atomic<int> camera_learn_one{0};
  std::atomic<int> camera_learn_players{0};
  // Loop -> camera thread: tokens the table settled (Reaction::camera_settled: the family answered the
  // camera's question, or the dice settled its doubt about the token just thrown for), each a token's name
  // and its space, for the tracker's settle() before its next frame.
  // Guarded by camera_settle_mutex; `camera_settle_due` says there is something to take, so the camera thread
  // locks nothing on the frames between.
  std::mutex camera_settle_mutex;
  std::vector<std::pair<std::string, int>> camera_settled;
  std::atomic<bool> camera_settle_due{false};
  bool learning_asked = false;  // the table's learn_tokens request was handed to the camera thread
  // Loop -> camera thread: how far the table's learning is (its game, one at a time, the tokens left to the
  // dice), kept with the camera's set-up whenever the camera thread keeps it (TokenSetupStore). Guarded by
  // camera_keep_mutex; `camera_keep_due` asks the camera thread to keep it now (a token left to the dice).
  std::mutex camera_keep_mutex;
  KeptLearning camera_keep;
  std::atomic<bool> camera_keep_due{false};
  KeptLearning camera_keep_last;  // loop thread: what was last handed over
  // The camera thread's clock reading (steady_clock, ns) when it last handed over a frame; 0: none yet.
  std::atomic<std::int64_t> camera_last_frame_ns{0};
  bool camera_silent = false;  // loop thread: the watchdog reported the camera gone for want of pictures

  // What the screen shows waits for the ledger (see ledger_syncer.h): every reaction that changes the picture
  // asks the syncer for a sync of the WAL, and the picture is made and handed to the screen only when every
  // sync asked for is done, so nothing it shows is ahead of the disk. Meanwhile the screen is neither pumped
  // nor drawn (its snapshot points at the live game, which is already ahead).
  std::unique_ptr<LedgerSyncer> syncer;  // after the ledger and the loop: stopped before them
  std::uint64_t syncs_asked = 0;
  std::uint64_t syncs_done = 0;
  bool picture_due = false;  // a new picture waits for syncs_done to reach syncs_asked
  bool sync_retry_armed = false;
  bool sync_failing = false;                          // said once until a sync succeeds again
  std::optional<display::ScreenNotice> pause_notice;  // the table paused: shown once its picture is drawn
  // The pause notice is on the screen: it is closed once the table is no longer paused (or a touch closed
  // it).
  bool pause_notice_shown = false;
  static constexpr std::string_view kPausedTitle = "The game is paused";
  std::string sync_failure_shown;  // the failure the screen's notice names (empty: none shown)

  std::map<table::TimerId, EventLoop::TimerId> table_timers;
  std::uint64_t touches = 0;
  std::uint64_t readings_heard_count =
      0;                   // card taps and dice throws handed to the table (participants wait on it)
  Refusals refusals_made;  // reactions the table refused (a refused cue), for participants
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
  void touch(const display::Intent& intent) override { queue_touch(intent); }
  std::expected<void, std::string> press(const std::string& target) override {
    screen->draw_if_needed();  // the frame as the newest snapshot lays it out
    if (auto pressed = press_target(screen->frame(), target); !pressed) return pressed;
    // The screen takes the finger at once (its hit test, its dialogs and pages), so the participant sees the
    // screen it pressed; what the touch asks of the table waits for the loop's next turn, as a finger's does
    // for the frame tick: the participant's wake never carries the table's reaction (a commit, a picture).
    for (auto& intent : screen->pump()) queue_touch(std::move(intent));
    if (screen->quit_requested()) loop->stop(0);
    return {};
  }
  std::optional<bool> shown_enabled(const std::string& target) override {
    screen->draw_if_needed();
    const auto* shown = screen->frame().find(target);
    if (!shown) return std::nullopt;
    return shown->enabled;
  }
  std::uint64_t readings_heard() const override { return readings_heard_count; }
  Refusals refusals() const override { return refusals_made; }
  std::optional<std::string> shown_label(const std::string& target) override {
    screen->draw_if_needed();
    const auto* shown = screen->frame().find(target);
    if (!shown) return std::nullopt;
    return shown->label;
  }
  std::expected<void, std::string> save_screen(const std::string& path) override {
    // While the screen waits for the ledger, what it shows is saved as it is: drawing first would draw the
    // table's newer state, which the disk does not hold yet.
    return screen_waits_for_ledger() ? screen->save_shown_png(path) : screen->save_png(path);
  }
  void stop(int code) override { loop->stop(code); }
  const display::Snapshot* screen_snapshot() const override { return &snapshot; }
  int frames_presented() const override { return screen->frames_drawn(); }
  const display::ScreenNotice* screen_notice() const override { return screen->notice(); }
  std::chrono::milliseconds uptime() const override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
  }

  table::TableSettings table_settings() const;

  std::function<bool(const std::string&)> pin_check() const;

  display::UiSettings ui_settings() const;

  // ---- reactions
  // -------------------------------------------------------------------------------------------

  // Replays the current game's stored inputs through the rules into `history`. The log is the ledger's own
  // export (the game-script format), so what the charts show is what the file holds.
  void rebuild_history();
  void replay_history();

  // One sample per stored input; anything else (another game, several inputs at once, a failed commit's
  // rebuild) rebuilds from the ledger.
  void follow_history(const table::Reaction& r);
  void refresh_snapshot();
  // The screen is behind the table: its next picture waits for the ledger's sync.
  bool screen_waits_for_ledger() const override { return syncs_done < syncs_asked; }
  // A reaction changed what the screen should show: ask for a sync, and show it once that is done.
  void picture_changed();
  // The syncer's outcome (loop thread).
  void on_synced(const LedgerSyncer::Result& result);
  void react(const table::Reaction& r);
  void handle(const table::Event& event) { react(session->handle(event)); }

  void on_intent(display::Intent intent);
  // A participant's touches (press(), touch()): handed to on_intent on the loop's next turn, in order, as
  // the "touch" posted work. Participants are not woken while any wait (they act on what the table did).
  std::deque<display::Intent> touches_waiting;
  void queue_touch(display::Intent intent);
  void deliver_touches();
  void arm_table_timer(const table::TimerRequest& request);

  // ---- devices
  // ---------------------------------------------------------------------------------------------

  void open_devices();
  void try_open(std::size_t index, bool first);
  void retry_missing();
  void read_device(std::size_t index);
  void close_devices();

  // ---- camera
  // ----------------------------------------------------------------------------------------------

  // Where the learned tokens are kept across restarts: as configured, else beside the ledger.
  std::string camera_setup_path() const;
  void start_camera();

  // The table asks for the tokens (a new game, or a resumed one the camera does not know): the camera
  // thread starts learning afresh, expecting one token per player. Called after every reaction.
  void follow_learning();

  // The camera thread says which tokens it knows at start (loop thread): a stored set-up that fits the game
  // that is open goes on cross-checking it; none, an unreadable or a stale one makes the table ask for the
  // tokens again.
  // A set-up kept for the game that is open in the middle of its learning (or after it) is handed to the
  // table, which says what came back and asks only for the tokens still missing (Table::restore_learning).
  void camera_setup_known(const std::optional<KeptSetup>& kept, const std::string& problem);

  // The camera thread: grabs frames, runs the tracker, hands what it saw to the loop. Never touches the
  // table, the ledger or SDL. It looks for tokens only once it knows them (a stored set-up) or the table
  // asked for them, so that nothing learned before a game is set up stands in for the game's tokens.
  void camera_main(
      std::stop_token stop,
      const std::function<std::expected<std::unique_ptr<vision::FrameSource>, std::string>()>& make,
      int spaces_per_side, const std::string& stored_setup);

  // The loop's watch over a camera that goes quiet without a word (see kCameraSilence): only a camera that
  // has sent pictures and was working is reported gone, and it is back with its next picture.
  void check_camera_silence();

  // ---- upkeep
  // ----------------------------------------------------------------------------------------------

  // Backups: the loop copies the file in steps (Ledger::begin_backup, then kBackupPagesPerStep pages every
  // kBackupStepEvery from the "backup copy" timer, so no turn of the loop holds it for the whole file; the
  // table goes on between the steps and what it commits is in the copy), the finisher's thread syncs,
  // anchors, names and rotates it and reports back (on_backup_finished). An end-of-game backup asked for
  // while one is under way waits for it and follows; a scheduled one then waits for the next check. At stop,
  // a copy under way is completed at once and handed over, so that it lands whole.
  void backup(bool end_of_game);
  void step_backup();
  void hand_over_backup(ledger::PendingBackup pending);
  void backup_failed(BackupFinisher::Occasion occasion, const std::string& why);
  void complete_backup_at_stop();
  void on_backup_finished(const BackupFinisher::Result& result);
  bool end_of_game_backup_waiting = false;
  BackupFinisher::Occasion backup_copying = BackupFinisher::Occasion::scheduled;  // the copy under way's
  std::optional<EventLoop::TimerId> backup_step_timer;
  std::unique_ptr<BackupFinisher> backups;  // after the ledger and the loop: stopped before them
  void frame();
  void terminate();
  void reload();

  // ---- odds (service_odds.cpp)
  // ----------------------------------------------------------------------------------------------
  // Each player's chance of winning: a copy of the game goes to the odds worker once the table has been
  // settled for kOddsSettle after a change; its threads play it out and post news back to the loop, which
  // copies the numbers into `chances` (snapshot.chances points here). Everything below runs on the loop
  // thread, except the worker's on_progress, which only posts.
  std::unique_ptr<odds::OddsWorker> odds;  // null when [odds] enabled = false
  display::ChancesView chances;
  std::atomic<bool> odds_news_posted{false};  // worker threads -> loop: one post in flight at a time
  struct OddsPosition {
    std::optional<ledger::GameId> game;
    std::size_t inputs = 0;
    friend bool operator==(const OddsPosition&, const OddsPosition&) = default;
  };
  std::optional<OddsPosition> odds_position;  // the position the worker is weighing (or waits to)
  int odds_position_turn = 0;
  std::uint64_t odds_job = 0;  // the worker's job behind `chances`
  bool odds_job_has_trade = false;
  std::optional<EventLoop::TimerId> odds_settle_timer;
  std::chrono::steady_clock::time_point odds_shown{};

  void start_odds();
  void stop_odds();
  // After each snapshot refresh: a new position (or another game) cancels the job and, once settled,
  // starts one; the last estimate of the position before becomes a point of the line over the game.
  void follow_odds();
  void start_odds_job(std::optional<rules::Trade> trade);
  // The worker's news, on the loop: its progress into `chances`, then a new snapshot (at most every
  // kOddsShowEvery while refining).
  void odds_progress();
  // A new estimate is drawn at once only where it is shown (the Charts and Trade screens) and never ahead of
  // the ledger; elsewhere it waits in `chances` for the next picture, so an idle table draws no frame for it.
  void show_chances();
  void weigh_trade(const rules::Trade& trade);
};

}  // namespace bb::daemon
