#include <fmt/format.h>

#include <filesystem>
#include <opencv2/core.hpp>
#include <set>

#include "daemon/camera_token_names.h"
#include "daemon/service_impl.h"
#include "vision/source_opener.h"
#include "vision/space_map.h"
#include "vision/token_tracker.h"

namespace bb::daemon {

namespace {

using namespace std::chrono_literals;

// A space number the tracker reports, checked against its board (spaces 0..count-1); nullopt for none (-1)
// or one off the board.
std::optional<rules::SpaceId> space_of(int number, int count) {
  if (number < 0 || number >= count) return std::nullopt;
  return rules::SpaceId{number};
}

// What the tracker saw, as the table hears it: the token's name becomes its player and every space number is
// checked against the board's `spaces` here, where it comes in.
std::optional<table::TokenReport> report_of(const vision::TrackerEvent& e, int spaces) {
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
      // A token put down alone that cannot be seen (one at a time: `token` is the one awaited, `to` -1).
      if (e.to < 0 && player_of_token(e.token)) {
        r.kind = R::learn_incomplete;
        r.player = player_of_token(e.token);
        r.detail = e.detail;
        r.id = fmt::format("camera:{}:{}", e.frame, r.player->number());
        return r;
      }
      // Fewer tokens than expected (none at all included): the whole learning, not one player's token.
      r.kind = R::learn_incomplete;
      r.detail = e.detail;
      r.found = e.found;
      r.expected = e.expected;
      r.id = fmt::format("camera:{}:learning", e.frame);
      return r;
    case K::lost:
      r.kind = R::token_lost;
      break;
    case K::calibrated:
    case K::recalibrated:
    case K::ready_for_token:  // one at a time: the table prompts the family already
      return std::nullopt;
  }
  r.player = player_of_token(e.token);
  if (!r.player) return std::nullopt;
  r.from = space_of(e.from, spaces);
  r.to = space_of(e.to, spaces);
  for (const int c : e.candidates)
    if (const auto space = space_of(c, spaces)) r.candidates.push_back(*space);
  r.detail = e.detail;
  r.id = fmt::format("camera:{}:{}", e.frame, r.player->number());
  return r;
}

}  // namespace

std::string Service::Impl::camera_setup_path() const {
  const CameraConfig& c = setup.config.camera;
  return !c.setup.empty() ? c.setup : setup.config.ledger.path + ".tokens.json";
}

void Service::Impl::start_camera() {
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

void Service::Impl::follow_learning() {
  const table::TableView& v = session->view();
  const bool asked = v.awaiting.kind == table::Awaiting::Kind::learn_tokens && v.game;
  // A learning restored one at a time (Table::restore_learning) goes on with the tracker the camera kept.
  if (asked && !learning_asked && !v.learning.one_at_a_time) {
    const int players = static_cast<int>(v.game->state().players.size());
    camera_relearn.store(players);
    log(fmt::format("the camera learns {} tokens", players));
  }
  // What the camera keeps with its set-up: this game, how it is learned, the tokens left to the dice. A token
  // left to the dice is kept at once (a restart then does not ask for it again); a new game only replaces
  // what the next keeping writes (the tracker it would keep now is the last game's).
  KeptLearning now;
  if (v.game_id) now.game = *v.game_id;
  now.players = v.game ? static_cast<int>(v.game->state().players.size()) : 0;
  now.one_at_a_time = v.learning.one_at_a_time;
  now.unwatched = v.learning.unwatched;
  if (now != camera_keep_last) {
    const bool due = now.game == camera_keep_last.game && now.unwatched != camera_keep_last.unwatched &&
                     !now.unwatched.empty();
    {
      std::lock_guard lock(camera_keep_mutex);
      camera_keep = now;
    }
    camera_keep_last = now;
    if (due) camera_keep_due.store(true);
  }
  // Learning ended without a camera ("Play without the camera"): the tracker stops looking, or its
  // reports would bring the cross-check back.
  if (learning_asked && !asked && !v.camera) camera_relearn.store(-1);
  learning_asked = asked;
}

void Service::Impl::camera_setup_known(const std::optional<KeptSetup>& kept, const std::string& problem) {
  const table::TableView& v = session->view();
  const rules::Game* g = v.game;
  const int players = g ? static_cast<int>(g->state().players.size()) : 0;
  const int tokens = kept ? kept->tokens : 0;
  if (problem.empty() && kept && g && !g->state().ended && kept->learning.game && v.game_id &&
      *kept->learning.game == *v.game_id && kept->learning.players == players && !kept->learned.empty()) {
    // Kept for this very game, in the middle of its learning or after it: the table asks only for the rest.
    if (kept->learned.size() + kept->learning.unwatched.size() >= static_cast<std::size_t>(players))
      log(fmt::format("the camera knows the {} tokens learned before ({})", kept->learned.size(),
                      camera_setup_path()));
    else
      log(fmt::format("the camera kept {} of {} tokens learned for game {} ({})", kept->learned.size(),
                      players, *v.game_id, camera_setup_path()));
    react(session->restore_learning(
        table::TokenLearning{false, kept->learning.one_at_a_time, kept->learned, kept->learning.unwatched}));
    return;
  }
  std::string why = problem;
  if (why.empty() && g && tokens == 0) why = "none are stored in " + camera_setup_path();
  if (why.empty() && g && tokens != players)
    why = fmt::format("it holds {} tokens and the game has {} players", tokens, players);
  if (why.empty()) {
    if (tokens > 0) {
      log(fmt::format("the camera knows the {} tokens learned before ({})", tokens, camera_setup_path()));
      if (g && !g->state().ended && kept) {
        // The screen says what came back (a set-up kept before progress was: every token, in player order).
        table::TokenLearning all;
        for (int p = 0; p < players; ++p) all.learned.push_back(rules::PlayerId{p});
        react(session->restore_learning(all));
      }
    }
    return;
  }
  log(fmt::format("the camera's stored tokens are not used: {}; they are learned again", why));
  if (tokens > 0 || !problem.empty()) camera_relearn.store(-1);  // forget them until the table asks
  if (g && !g->state().ended) react(session->learn_tokens_again());
}

void Service::Impl::camera_main(
    std::stop_token stop,
    const std::function<std::expected<std::unique_ptr<vision::FrameSource>, std::string>()>& make,
    int spaces_per_side, const std::string& stored_setup) {
  auto hand_over = [this](table::Event event) {
    if (!loop->post([this, event = std::move(event)] { handle(event); }, "camera event")) ++camera_dropped;
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
  int learning_tokens = 0;      // > 0: learning asked for this many tokens, not all learned yet
  bool one_at_a_time = false;   // the tracker learns the tokens one at a time (made for it)
  std::size_t kept_tokens = 0;  // tokens in the set-up as last kept (or read back)
  // Players whose tokens the tracker, learning them one at a time, was told are left to the dice (the table's
  // "go on without it"): it waits for them no more, so a token put down later in play is never learned as
  // one of them.
  std::set<rules::PlayerId> told_unwatched;
  auto tell_unwatched = [&] {
    // Every frame: no copy of the list, only what is new is told (telling the tracker touches no I/O).
    std::lock_guard lock(camera_keep_mutex);
    for (const rules::PlayerId player : camera_keep.unwatched)
      if (told_unwatched.insert(player).second) tracker->leave_token_to_dice(token_of_player(player));
  };
  const TokenSetupStore kept_store(stored_setup);
  std::optional<KeptSetup> kept;
  std::string problem;
  if (std::filesystem::exists(stored_setup)) {
    auto read = kept_store.read();
    if (!read) {
      problem = fmt::format("{} cannot be used ({})", stored_setup, read.error());
    } else {
      // Kept in the middle of learning them one at a time: the tracker goes on in that mode, so the tokens
      // still missing are learned beside the kept ones, where they stand.
      vision::TokenTracker::Settings settings;
      const int players = read->learning.players;
      const bool partial =
          players > 0 && read->tokens + static_cast<int>(read->learning.unwatched.size()) < players;
      if (read->learning.one_at_a_time || partial) {
        settings.learning = vision::TokenTracker::Settings::Learning::one_at_a_time;
        settings.expected_tokens = players;
      }
      tracker = std::make_unique<vision::TokenTracker>(map, settings);
      if (auto loaded = tracker->load_setup(stored_setup); !loaded) {
        problem = fmt::format("{} cannot be used ({})", stored_setup, loaded.error());
        tracker.reset();
      } else {
        kept = *read;
        kept_tokens = tracker->tokens().size();
        one_at_a_time = settings.learning == vision::TokenTracker::Settings::Learning::one_at_a_time;
        if (partial) learning_tokens = players;
      }
    }
  }
  hand_over(table::DeviceHealth{display::DeviceStatus{display::DeviceStatus::Kind::camera, "Camera",
                                                      display::DeviceStatus::State::ok, (*source)->describe(),
                                                      ""}});
  loop->post([this, kept, problem] { camera_setup_known(kept, problem); }, "camera set-up");
  // Keeps the tracker's set-up with the table's progress (TokenSetupStore: whole or not at all), and says
  // so on the loop. Complete: every token is learned or left to the dice.
  auto keep = [&] {
    KeptLearning learning;
    {
      std::lock_guard lock(camera_keep_mutex);
      learning = camera_keep;
    }
    const auto count = tracker->tokens().size();
    const int players = learning.players > 0 ? learning.players : learning_tokens;
    const bool complete = static_cast<int>(count + learning.unwatched.size()) >= players;
    auto saved =
        kept_store.keep([&](const std::string& path) { return tracker->save_setup(path); }, learning);
    if (saved) kept_tokens = count;
    loop->post([this, why = saved ? std::string() : saved.error(), stored_setup, complete, count] {
      if (!why.empty())
        log("the camera's learned tokens could not be kept: " + why);
      else if (complete)
        log("the camera's learned tokens are kept in " + stored_setup);
      else
        log(fmt::format("the camera's {} token{} learned so far are kept in {}", count, count == 1 ? "" : "s",
                        stored_setup));
    });
    return complete;
  };
  cv::Mat frame;
  std::int64_t index = 0;
  while (!stop.stop_requested()) {
    if (const int asked = camera_relearn.exchange(0); asked != 0) {
      tracker.reset();
      learning_tokens = 0;
      one_at_a_time = false;
      kept_tokens = 0;
      told_unwatched.clear();
      if (asked > 0) {
        vision::TokenTracker::Settings settings;
        settings.expected_tokens = asked;
        tracker = std::make_unique<vision::TokenTracker>(map, settings);
        learning_tokens = asked;
      }
    }
    if (const int one = camera_learn_one.exchange(0); one > 0) {
      // One token at a time on the emptied board: a tracker in that mode (made once: the tokens learned alone
      // so far stay known), waiting for this player's token.
      if (!tracker || !one_at_a_time) {
        vision::TokenTracker::Settings settings;
        settings.learning = vision::TokenTracker::Settings::Learning::one_at_a_time;
        settings.expected_tokens = camera_learn_players.load();
        tracker = std::make_unique<vision::TokenTracker>(map, settings);
        learning_tokens = settings.expected_tokens;
        one_at_a_time = true;
        kept_tokens = 0;
        told_unwatched.clear();
      }
      tracker->learn_next_token(token_of_player(rules::PlayerId{one - 1}));
    }
    if (camera_settle_due.exchange(false)) {
      // The table settled where tokens the tracker was unsure of stand (the family's answers, the dice).
      std::vector<std::pair<std::string, int>> settled;
      {
        std::lock_guard lock(camera_settle_mutex);
        settled.swap(camera_settled);
      }
      if (tracker)
        for (const auto& [token, space] : settled) tracker->settle(token, space);
    }
    const auto grab = (*source)->grab(frame);
    switch (grab.status) {
      case vision::FrameSource::Status::frame:
        camera_last_frame_ns.store(std::chrono::steady_clock::now().time_since_epoch().count());
        if (grab.reopened) {
          if (tracker) tracker->camera_restarted();
          hand_over(table::DeviceHealth{display::DeviceStatus{display::DeviceStatus::Kind::camera, "Camera",
                                                              display::DeviceStatus::State::ok, "back", ""}});
        }
        if (tracker) {
          if (one_at_a_time) tell_unwatched();  // tokens are named T<seat + 1> only in that mode
          for (const auto& e : tracker->process(frame, index))
            if (auto r = report_of(e, map.space_count())) hand_over(*r);
          // Kept for a restart, each token as it is learned: after a power cut the family does not put
          // every token on GO again, nor put down again the tokens learned one at a time.
          const auto count = tracker->tokens().size();
          const bool due = learning_tokens > 0 && count != kept_tokens && count > 0;
          // A token left to the dice is kept with what is learned as soon as the table says so.
          if ((due || (camera_keep_due.exchange(false) && count > 0)) && keep()) learning_tokens = 0;
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

void Service::Impl::check_camera_silence() {
  const std::int64_t last = camera_last_frame_ns.load();
  if (last == 0) return;
  const auto quiet = std::chrono::steady_clock::now().time_since_epoch() - std::chrono::nanoseconds(last);
  const auto& statuses = session->view().devices;
  const bool camera_ok = std::any_of(statuses.begin(), statuses.end(), [](const display::DeviceStatus& d) {
    return d.kind == display::DeviceStatus::Kind::camera && d.state == display::DeviceStatus::State::ok;
  });
  if (!camera_silent && camera_ok && quiet >= setup.camera_silence) {
    camera_silent = true;
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(quiet).count();
    handle(table::DeviceHealth{display::DeviceStatus{
        display::DeviceStatus::Kind::camera, "Camera", display::DeviceStatus::State::missing,
        fmt::format("no picture for {:.1f} s", ms / 1000.0),
        "check the camera's cable; meanwhile enter the dice or move by hand"}});
  } else if (camera_silent && quiet < setup.camera_silence) {
    camera_silent = false;
    log("Camera: pictures again");
    handle(table::DeviceHealth{display::DeviceStatus{display::DeviceStatus::Kind::camera, "Camera",
                                                     display::DeviceStatus::State::ok, "back", ""}});
  }
}

}  // namespace bb::daemon
