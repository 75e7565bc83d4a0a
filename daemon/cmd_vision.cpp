// The vision verbs: `track` (camera, video or image folder -> JSON lines of token events), `calibrate` (the
// space grid dragged onto the printed board, stored with the set-up), `render-table` (synthetic frames or a
// video of a scripted game, with its truth) and `markers` (the printable sheet).
#include <fmt/format.h>
#include <poll.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <sstream>

#include "daemon/commands.h"
#include "daemon/paths.h"
#include "daemon/stop_request.h"
#include "daemon/text_file.h"
#include "daemon/window_size.h"
#include "display/touch_screen.h"
#include "rules/edition.h"
#include "vision/board_calibrator.h"
#include "vision/board_layout.h"
#include "vision/image_files.h"
#include "vision/image_sequence_source.h"
#include "vision/marker_sheet.h"
#include "vision/source_opener.h"
#include "vision/space_grid_file.h"
#include "vision/table_renderer.h"
#include "vision/table_script.h"
#include "vision/token_tracker.h"
#include "vision/tracking_evaluator.h"
#include "vision/video_file_writer.h"

namespace bb::daemon {

namespace {

namespace vi = bb::vision;
using Json = nlohmann::ordered_json;

// A set-up file may not exist yet (it is written once the tokens are learned), but a folder is never one:
// std::ifstream reads a folder as an empty file, which was then called "not valid JSON; move it away".
const CLI::Validator kSetupFileNotAFolder(
    [](std::string& path) {
      std::error_code ec;
      if (!std::filesystem::is_directory(path, ec)) return std::string();
      return fmt::format("{} is a folder: name the set-up file in it (say {}/table.json)", path, path);
    },
    "FILE", "a set-up file, not a folder");

// The board of an edition, read by the rules engine's own loader (so a bad file is refused with its line):
// names in board order and the colour band of each street's group.
std::expected<vi::BoardLayout, std::string> layout_from_edition(const std::string& id) {
  auto dirs = bb::daemon::edition_dirs();
  if (!dirs) return std::unexpected(dirs.error());
  auto edition = bb::rules::load_edition(id, *dirs);
  if (!edition) return std::unexpected(edition.error().what());
  if (edition->spaces.empty() || edition->spaces.size() % 4 != 0) {
    return std::unexpected(fmt::format(
        "edition '{}' has {} spaces: the camera needs a square board, the same number of spaces on "
        "each side",
        id, edition->spaces.size()));
  }
  vi::BoardLayout layout;
  layout.spaces_per_side = static_cast<int>(edition->spaces.size() / 4);
  for (const auto& space : edition->spaces) {
    layout.names.push_back(space.name);
    uint32_t band = 0;
    // Only streets carry a printed colour band; stations and utilities have their own pictures.
    if (space.kind == bb::rules::Space::Kind::property && space.group_index >= 0) {
      const std::string& hex = edition->groups[static_cast<std::size_t>(space.group_index)].colour;
      if (hex.size() == 7 && hex[0] == '#')
        band = static_cast<uint32_t>(std::stoul(hex.substr(1), nullptr, 16));
    }
    layout.band_colours.push_back(band);
  }
  if (auto p = layout.problem(); !p.empty()) return std::unexpected(fmt::format("edition '{}': {}", id, p));
  return layout;
}

Json to_json(const vi::TrackerEvent& e) {
  using Kind = vi::TrackerEvent::Kind;
  Json j;
  j["t"] = vi::kind_name(e.kind);
  switch (e.kind) {
    case Kind::calibrated:
    case Kind::recalibrated:
      j["method"] = e.detail;
      j["markers"] = e.markers;
      if (e.kind == Kind::recalibrated) j["shift_px"] = std::round(e.shift_px * 10) / 10;
      break;
    case Kind::not_found:
      j["message"] = e.detail;
      break;
    case Kind::learned:
      j["token"] = e.token;
      j["space"] = e.to;
      break;
    case Kind::moved:
      j["token"] = e.token;
      j["from"] = e.from;
      j["to"] = e.to;
      j["confidence"] = std::round(e.confidence * 100) / 100;
      break;
    case Kind::unsure:
      j["token"] = e.token;
      j["candidates"] = e.candidates;
      j["last"] = e.from;
      j["confidence"] = std::round(e.confidence * 100) / 100;
      break;
    case Kind::hidden:
      j["token"] = e.token;
      j["last"] = e.from;
      break;
    case Kind::learn_incomplete:
      if (!e.token.empty()) j["token"] = e.token;  // a token put down alone that cannot be seen
      j["found"] = e.found;
      j["expected"] = e.expected;
      if (e.to >= 0) j["space"] = e.to;
      j["message"] = e.detail;
      break;
    case Kind::lost:
      j["token"] = e.token;
      j["last"] = e.from;
      j["message"] = e.detail;
      break;
    case Kind::ready_for_token:
      j["token"] = e.token;
      break;
  }
  j["frame"] = e.frame;
  return j;
}

void print_line(const Json& j) {
  fmt::print("{}\n", j.dump());
  std::fflush(stdout);
}

struct TrackOptions {
  std::string source;
  std::string edition = "classic";
  std::string setup;
  int64_t max_frames = 0;
  int width = 1280, height = 720;
  int start_space = 0;
  double unsure_below = 0.75;
  int tokens = 0;  // expected; 0: as many as are found
  bool one_at_a_time = false;
};

// Typed or piped lines while tracking: "accept" (the tokens found at the start are all there are) and
// "learn NAME" (the next token put down alone is NAME). Read without waiting; a closed input is left alone.
struct TrackInput {
  bool open = true;
  void poll_into(vi::TokenTracker& tracker) {
    while (open) {
      pollfd p{STDIN_FILENO, POLLIN, 0};
      if (::poll(&p, 1, 0) <= 0 || !(p.revents & (POLLIN | POLLHUP))) return;
      std::string line;
      if (!std::getline(std::cin, line)) {
        open = false;
        return;
      }
      if (line == "accept") {
        tracker.accept_found_tokens();
      } else if (line == "learn" || line.starts_with("learn ")) {
        tracker.learn_next_token(line.size() > 6 ? line.substr(6) : std::string());
      } else if (!line.empty()) {
        print_line(Json{{"t", "input_ignored"},
                        {"message",
                         "type \"accept\" to keep the tokens found, or \"learn NAME\" before "
                         "putting a token down"}});
      }
    }
  }
};

// Why a frame is not tracked, or nullopt. The same bounds as a folder of images (checked there before
// decoding), here for every source.
std::optional<std::string> refused_frame(int width, int height) {
  if (width < vi::ImageSequenceSource::kMinSide || height < vi::ImageSequenceSource::kMinSide) {
    return fmt::format("the frame is {}x{} pixels, too small to show a board (at least {} on each side)",
                       width, height, vi::ImageSequenceSource::kMinSide);
  }
  if (static_cast<long long>(width) * height > vi::ImageSequenceSource::kMaxPixels) {
    return fmt::format("the frame is {}x{} pixels, more than the {} a frame may have", width, height,
                       vi::ImageSequenceSource::kMaxPixels);
  }
  return std::nullopt;
}

int run_track(const TrackOptions& o) {
  auto layout = layout_from_edition(o.edition);
  if (!layout) {
    fmt::print(stderr, "boardbank track: {}\n", layout.error());
    return 2;
  }
  vi::SpaceMap map(layout->spaces_per_side);
  // A stored set-up carries the space map as adjusted on the calibration screen.
  if (!o.setup.empty()) {
    auto stored = vi::SpaceGridFile::load(o.setup);
    if (!stored) {
      fmt::print(stderr, "boardbank track: {}\n", stored.error());
      return 2;
    }
    if (*stored && (*stored)->space_count() == map.space_count()) map = **stored;
  }
  vi::TokenTracker::Settings settings;
  settings.start_space = o.start_space;
  settings.locator.unsure_below = o.unsure_below;
  settings.expected_tokens = o.tokens;
  if (o.one_at_a_time) settings.learning = vi::TokenTracker::Settings::Learning::one_at_a_time;
  if (o.start_space < 0 || o.start_space >= map.space_count()) {
    fmt::print(stderr, "boardbank track: --start-space must be 0..{}\n", map.space_count() - 1);
    return 2;
  }
  vi::TokenTracker tracker(map, settings);
  bool saved = false;
  if (!o.setup.empty() && std::filesystem::exists(o.setup)) {
    if (auto r = tracker.load_setup(o.setup); !r) {
      fmt::print(stderr, "boardbank track: {}\n", r.error());
      return 2;
    }
    // A file holding only the grid from the calibration screen still wants the learned tokens.
    saved = tracker.learned();
  }
  vi::CaptureSource::Options capture;
  capture.width = o.width;
  capture.height = o.height;
  // Before the source starts its grabbing thread, so that the thread too leaves Ctrl-C to it.
  StopRequest stop;
  auto source = vi::open_source(o.source, capture);
  if (!source) {
    fmt::print(stderr, "boardbank track: {}\n", source.error());
    return 2;
  }
  cv::Mat frame;
  int64_t index = 0;
  TrackInput input;
  while (!stop.requested() && (o.max_frames <= 0 || index < o.max_frames)) {
    input.poll_into(tracker);
    const auto g = (*source)->grab(frame);
    using Status = vi::FrameSource::Status;
    if (g.status == Status::end) break;
    if (g.status == Status::lost) {
      // The table falls back to manual entry until the camera is back.
      print_line(Json{{"t", "camera_lost"}, {"message", g.message}, {"frame", index}});
      continue;
    }
    if (g.status == Status::waiting) continue;
    if (g.status == Status::skipped) {
      print_line(Json{{"t", "frame_refused"}, {"message", g.message}, {"frame", index}});
      continue;
    }
    if (g.reopened) {
      print_line(Json{{"t", "camera_back"}, {"frame", index}});
      tracker.camera_restarted();
    }
    // A frame no board fits in (a thin strip, a thumbnail) or too large to track is refused, not fed to the
    // tracker: its image operations assume room for the board and its four markers.
    if (auto why = refused_frame(frame.cols, frame.rows)) {
      print_line(Json{{"t", "frame_refused"}, {"message", *why}, {"frame", index++}});
      continue;
    }
    try {
      for (const auto& e : tracker.process(frame, index)) print_line(to_json(e));
    } catch (const cv::Exception& e) {
      // Never an abort: the frame is reported and skipped; the tracker's own check below still runs.
      print_line(Json{{"t", "frame_refused"},
                      {"message", fmt::format("the image could not be processed: {}", e.what())},
                      {"frame", index}});
    }
    const auto problem = tracker.invariant_problem();
    if (!problem.empty()) {
      fmt::print(stderr, "boardbank track: internal error: {}\n", problem);
      return 3;
    }
    if (!saved && !o.setup.empty() && tracker.learned() && !tracker.waiting_for_token()) {
      if (auto r = tracker.save_setup(o.setup); !r) fmt::print(stderr, "boardbank track: {}\n", r.error());
      saved = true;
    }
    ++index;
  }
  print_line(Json{{"t", "end"}, {"frames", index}});
  return 0;
}

struct CalibrateOptions {
  std::string source;
  std::string setup;
  std::string edition = "classic";
  std::string size = "800x480";
  std::string screenshot;
  bool fullscreen = false;
  int rotation = 0;  // degrees, as [screen] rotation
  int tries = 90;    // frames looked at for the markers (a live camera settles its exposure first)
};

// The camera's picture turned into a top view of the board: board units view_min..view_max across `side`
// pixels, pixel centres at (i + 0.5) / side.
void top_view(const cv::Mat& frame, const vi::Calibration& calibration, display::CalibrationView& view,
              int side) {
  const double range = view.view_max - view.view_min;
  const double step = range / side;
  const cv::Matx33d top_to_board(step, 0, view.view_min + 0.5 * step, 0, step, view.view_min + 0.5 * step, 0,
                                 0, 1);
  const auto& m = calibration.board_to_image.matrix();
  const cv::Matx33d board_to_image(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]);
  cv::Mat top, rgb;
  cv::warpPerspective(frame, top, cv::Mat(board_to_image * top_to_board), cv::Size(side, side),
                      cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_CONSTANT, cv::Scalar(40, 40, 40));
  cv::cvtColor(top, rgb, frame.channels() == 1 ? cv::COLOR_GRAY2RGB : cv::COLOR_BGR2RGB);
  view.width = view.height = side;
  view.rgb.assign(rgb.data, rgb.data + static_cast<size_t>(side) * static_cast<size_t>(side) * 3);
}

int run_calibrate(const CalibrateOptions& o) {
  auto fail = [](const std::string& m) {
    fmt::print(stderr, "boardbank calibrate: {}\n", m);
    return 2;
  };
  auto layout = layout_from_edition(o.edition);
  if (!layout) return fail(layout.error());
  const auto window = bb::daemon::parse_window_size(o.size, 640, 400);
  if (!window) return fail("--size must be like 800x480 (at least 640x400)");
  const int width = window->width, height = window->height;
  const auto rotation = display::rotation_from_degrees(o.rotation);
  if (!rotation) return fail("--rotation must be 0, 90, 180 or 270 (the configuration's [screen] rotation)");
  vi::SpaceMap map(layout->spaces_per_side);
  auto stored = vi::SpaceGridFile::load(o.setup);
  if (!stored) return fail(stored.error());
  if (*stored) {
    if ((*stored)->space_count() != map.space_count())
      return fail(o.setup + " is for a board with another number of spaces; use another --setup file");
    map = **stored;
  }

  auto source = vi::open_source(o.source, vi::CaptureSource::Options{});
  if (!source) return fail(source.error());
  const vi::BoardCalibrator calibrator;
  cv::Mat frame, last;
  std::optional<vi::Calibration> calibration;
  std::string why = "no picture came from " + o.source;
  // A live camera that never delivers (gone, or busy elsewhere) is given up on after a while.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  for (int tried = 0; tried < o.tries && !calibration && std::chrono::steady_clock::now() < deadline;) {
    const auto g = (*source)->grab(frame);
    using Status = vi::FrameSource::Status;
    if (g.status == Status::end) break;
    if (g.status != Status::frame) {
      if (g.status == Status::lost || g.status == Status::skipped) why = g.message;
      continue;
    }
    ++tried;
    frame.copyTo(last);
    auto c = calibrator.from_markers(frame);
    if (c)
      calibration = *c;
    else
      why = c.error();
  }
  if (!calibration) {
    // The outline alone can be wrong by a quarter turn or a margin; say so rather than guess silently.
    std::expected<vi::Calibration, std::string> outline = std::unexpected(why);
    if (!last.empty()) outline = calibrator.from_contour(last, std::nullopt);
    if (!outline)
      return fail(fmt::format(
          "the board was not found: {}. Stick the four corner markers on (boardbank markers prints them), "
          "make sure all four are in view and lit evenly, then run calibrate again",
          why));
    fmt::print(stderr,
               "boardbank calibrate: the corner markers were not found ({}); the top view comes from the "
               "board's outline, which may be turned or cropped. Stick the markers on for a reliable view\n",
               why);
    calibration = *outline;
  }

  display::CalibrationView view;
  view.spaces_per_side = map.spaces_per_side();
  view.corner_ratio = map.corner_ratio();
  for (size_t k = 0; k < 4; ++k) view.grid[k] = {map.grid()[k].x, map.grid()[k].y};
  top_view(last, *calibration, view, 720);
  display::Snapshot snapshot;
  snapshot.calibration = &view;
  snapshot.version = 1;

  display::TouchScreen::Options options;
  options.width = width;
  options.height = height;
  options.window = o.screenshot.empty();
  options.fullscreen = o.fullscreen;
  options.rotation = *rotation;
  auto screen = display::TouchScreen::open(options);
  if (!screen) return fail(screen.error());
  (*screen)->show(snapshot);
  (*screen)->ui().go(display::ScreenId::calibration);
  if (!o.screenshot.empty()) {
    if (auto r = (*screen)->save_png(o.screenshot); !r) return fail(r.error());
    fmt::print("wrote {} ({} markers, fit {:.2f} px)\n", o.screenshot, calibration->markers_seen,
               calibration->fit_error_px);
    return 0;
  }
  fmt::print("drag the four corners onto the printed board's corners, then Save (Cancel leaves)\n");
  while (!(*screen)->quit_requested()) {
    for (const auto& intent : (*screen)->pump()) {
      if (const auto* save = std::get_if<display::SaveSpaceGrid>(&intent)) {
        std::array<vi::Point2, 4> corners;
        for (size_t k = 0; k < 4; ++k) corners[k] = {save->corners[k].x, save->corners[k].y};
        map.set_grid(corners);
        if (auto r = vi::SpaceGridFile::save(o.setup, map); !r) return fail(r.error());
        fmt::print(
            "saved the grid to {}: ({:.3f}, {:.3f}) ({:.3f}, {:.3f}) ({:.3f}, {:.3f}) ({:.3f}, {:.3f})\n",
            o.setup, corners[0].x, corners[0].y, corners[1].x, corners[1].y, corners[2].x, corners[2].y,
            corners[3].x, corners[3].y);
        return 0;
      }
      if (std::holds_alternative<display::CancelCalibration>(intent)) {
        fmt::print("cancelled: nothing saved\n");
        return 0;
      }
    }
    if ((*screen)->ui().screen() != display::ScreenId::calibration) {
      fmt::print("left the calibration screen: nothing saved\n");
      return 0;
    }
    (*screen)->draw_if_needed();
    (*screen)->wait(100);
  }
  fmt::print("window closed: nothing saved\n");
  return 0;
}

struct RenderOptions {
  std::string out;
  std::string moves;
  std::string edition = "classic";
  std::string condition = "clean";
  std::string truth;
  uint64_t seed = 1;
  int count = 20;
  int tokens = 4;
  std::string size = "1280x720";
  double fps = 30;
  bool no_hands = false;
};

int run_render(const RenderOptions& o) {
  auto fail = [](const std::string& m) {
    fmt::print(stderr, "boardbank render-table: {}\n", m);
    return 2;
  };
  auto layout = layout_from_edition(o.edition);
  if (!layout) return fail(layout.error());
  const auto window = bb::daemon::parse_window_size(o.size, 160, 120);
  if (!window) return fail("--size must be like 1280x720 (160x120 to 4096x4096)");
  const int width = window->width, height = window->height;
  if (o.tokens < 1 || o.tokens > 6) return fail("--tokens must be 1..6");
  std::optional<vi::Condition> condition;
  for (vi::Condition c : vi::all_conditions())
    if (o.condition == vi::condition_name(c)) condition = c;
  if (!condition) {
    std::string names;
    for (vi::Condition c : vi::all_conditions())
      names += std::string(names.empty() ? "" : ", ") + vi::condition_name(c);
    return fail("unknown --condition '" + o.condition + "'; one of: " + names);
  }
  const vi::SpaceMap map(layout->spaces_per_side);
  vi::TableRenderer renderer(*layout, map, vi::default_token_looks(o.tokens), width, height);
  const auto names = vi::expected_names(renderer, o.tokens);
  std::vector<vi::TableMove> moves;
  if (!o.moves.empty()) {
    auto text = read_text_file(o.moves, "the moves file", kMaxScriptFileBytes);
    if (!text) return fail(text.error().message);
    auto parsed = vi::parse_moves(*text, o.tokens, map.space_count());
    if (!parsed) return fail(o.moves + ": " + parsed.error());
    // "T2" is the tracker's name; find which drawn token that is.
    for (auto& m : *parsed)
      for (size_t i = 0; i < names.size(); ++i)
        if (names[i] == fmt::format("T{}", m.token + 1)) {
          m.token = static_cast<int>(i);
          break;
        }
    moves = *parsed;
  } else {
    moves = vi::random_moves(o.tokens, map.space_count(), o.count, o.seed);
  }

  namespace fs = std::filesystem;
  const bool video = vi::VideoFileWriter::is_video_name(o.out);
  std::optional<vi::VideoFileWriter> writer;
  std::error_code ec;
  if (video) {
    auto opened = vi::VideoFileWriter::open(o.out, o.fps, width, height);
    if (!opened) return fail(opened.error());
    writer = std::move(*opened);
  } else {
    fs::create_directories(o.out, ec);
    if (ec) return fail("cannot create the folder " + o.out + ": " + ec.message());
  }
  const std::string truth_path = !o.truth.empty() ? o.truth
                                 : video          ? o.out + ".truth.jsonl"
                                                  : (fs::path(o.out) / "truth.jsonl").string();
  std::ofstream truth(truth_path);
  if (!truth) return fail("cannot write " + truth_path);

  std::mt19937_64 rng(o.seed);
  vi::TableScript::Settings script_settings;
  script_settings.hands = !o.no_hands;
  vi::TableScript script(renderer, vi::scene_for(*condition, renderer, rng), o.tokens, o.seed,
                         script_settings);
  cv::Mat image;
  int64_t index = 0;
  auto emit = [&](const std::vector<vi::TableScript::Frame>& frames) -> bool {
    for (const auto& f : frames) {
      renderer.render(f.scene, image);
      if (writer) {
        writer->write(image);
      } else if (auto written =
                     vi::write_image((fs::path(o.out) / fmt::format("frame_{:06d}.jpg", index)).string(),
                                     image, {.jpeg_quality = 92});
                 !written) {
        fmt::print(stderr, "boardbank render-table: {}\n", written.error().message);
        return false;
      }
      Json line{{"frame", index}, {"move", f.move}, {"still", f.still}};
      Json tokens = Json::object();
      for (size_t t = 0; t < f.truth.size(); ++t) tokens[names[t]] = f.truth[t];
      line["tokens"] = tokens;
      truth << line.dump() << "\n";
      ++index;
    }
    return true;
  };
  if (!emit(script.opening())) return fail("cannot write frames into " + o.out);
  for (size_t m = 0; m < moves.size(); ++m)
    if (!emit(script.play(moves[m], static_cast<int>(m)))) return fail("cannot write frames into " + o.out);
  fmt::print("wrote {} frames of {} moves to {} (truth: {})\n", index, moves.size(), o.out, truth_path);
  return 0;
}

}  // namespace

void add_vision_commands(CLI::App& app) {
  auto track_opts = std::make_shared<TrackOptions>();
  auto* track = app.add_subcommand(
      "track",
      "Track the tokens on the board: prints one JSON object per line (moved, unsure, calibrated, ...)");
  track
      ->add_option(
          "SOURCE", track_opts->source,
          "0 or /dev/videoN (USB webcam), libcamera (Pi camera module), gst:PIPELINE, a video file, or a "
          "folder of images")
      ->required();
  track->add_option("--edition", track_opts->edition,
                    "edition id (editions/ID.toml) or file: the board's spaces");
  track
      ->add_option(
          "--setup", track_opts->setup,
          "set-up file: loaded if it exists (learned tokens, board reference), else written once the "
          "tokens are learned")
      ->check(kSetupFileNotAFolder);
  track->add_option("--max-frames", track_opts->max_frames, "stop after this many frames (0: until the end)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1} << 40));
  track->add_option("--width", track_opts->width, "camera frame width")->check(CLI::Range(16, 8192));
  track->add_option("--height", track_opts->height, "camera frame height")->check(CLI::Range(16, 8192));
  track->add_option("--start-space", track_opts->start_space, "where all tokens stand when they are learned");
  track
      ->add_option("--tokens", track_opts->tokens,
                   "how many tokens (players) to expect: fewer found at the start is said (learn_incomplete) "
                   "and looked for until found, or until \"accept\" is typed")
      ->check(CLI::Range(1, 8));
  track->add_flag("--one-at-a-time", track_opts->one_at_a_time,
                  "learn without GO: start with the board empty, then put each token down alone anywhere "
                  "(\"learn NAME\" names the next one)");
  track
      ->add_option("--unsure-below", track_opts->unsure_below,
                   "confidence under which a position is a question")
      ->check(CLI::Range(0.3, 0.99));
  track->callback([track_opts] { std::exit(run_track(*track_opts)); });

  auto cal_opts = std::make_shared<CalibrateOptions>();
  auto* calibrate = app.add_subcommand(
      "calibrate",
      "Drag the space grid onto the printed board (touchscreen or mouse) and store it in the set-up file");
  calibrate
      ->add_option(
          "SOURCE", cal_opts->source,
          "0 or /dev/videoN (USB webcam), libcamera (Pi camera module), gst:PIPELINE, a video file, or "
          "a folder of images")
      ->required();
  calibrate
      ->add_option("--setup", cal_opts->setup,
                   "set-up file (as `track --setup`): the grid is written into it, created if missing")
      ->required()
      ->check(kSetupFileNotAFolder);
  calibrate->add_option("--edition", cal_opts->edition,
                        "edition id (editions/ID.toml) or file: the board's spaces");
  calibrate->add_option("--size", cal_opts->size, "window size, e.g. 800x480");
  calibrate->add_flag("--fullscreen", cal_opts->fullscreen, "fill the screen (the Pi's touchscreen)");
  calibrate->add_option("--rotation", cal_opts->rotation,
                        "degrees the picture is turned clockwise on the screen: 0, 90, 180 or 270 (as the "
                        "configuration's [screen] rotation)");
  calibrate->add_option("--screenshot", cal_opts->screenshot,
                        "render the screen once to this PNG and exit (no window, nothing saved)");
  calibrate->callback([cal_opts] { std::exit(run_calibrate(*cal_opts)); });

  auto render_opts = std::make_shared<RenderOptions>();
  auto* render = app.add_subcommand(
      "render-table",
      "Render a synthetic table (board, tokens, hands, light, camera) playing a scripted game");
  render->add_option("--out", render_opts->out, "a folder for JPEG frames, or a video file (.avi, .mp4)")
      ->required();
  render->add_option("--moves", render_opts->moves,
                     "moves file: one {\"token\": \"T1\", \"to\": 7} per line");
  render->add_option("--seed", render_opts->seed, "seed of the random game, camera pose and light");
  render->add_option("--count", render_opts->count, "moves of the random game")
      ->check(CLI::Range(0, 100'000));
  render->add_option("--tokens", render_opts->tokens, "tokens on the table (1..6)")->check(CLI::Range(1, 6));
  render->add_option("--size", render_opts->size, "frame size, e.g. 1280x720");
  render->add_option("--condition", render_opts->condition,
                     "clean, tilt, dim, bright, warm, cold, shadow, noise, blur, jpeg or mixed");
  render->add_option("--edition", render_opts->edition, "edition id or file: the board drawn");
  render->add_option("--truth", render_opts->truth, "where to write the per-frame truth (JSON lines)");
  render->add_option("--fps", render_opts->fps, "frame rate of a video")->check(CLI::Range(1.0, 240.0));
  render->add_flag("--no-hands", render_opts->no_hands, "tokens jump between frames, without hands");
  render->callback([render_opts] { std::exit(run_render(*render_opts)); });

  auto sheet = std::make_shared<vi::MarkerSheet>();
  auto out = std::make_shared<std::string>();
  auto* markers =
      app.add_subcommand("markers", "Write the sheet of the four corner markers, to print at 100%");
  markers->add_option("--out", *out, "FILE.pdf (exact size, vector) or FILE.png")->required();
  markers->add_option("--dpi", sheet->dpi, "resolution of a PNG")->check(CLI::Range(50, 2400));
  markers->add_option("--board-mm", sheet->board_side_mm, "the board's side in millimetres (classic: 508)")
      ->check(CLI::Range(100.0, 2000.0));
  markers->callback([sheet, out] {
    if (auto r = sheet->write(*out); !r) {
      fmt::print(stderr, "boardbank markers: {}\n", r.error());
      std::exit(2);
    }
    fmt::print(
        "wrote {}: print at 100% on A4 (check the 50 mm bar), cut each marker at the corner ticks leaving "
        "{:.0f} mm "
        "of white, and stick marker N in corner N (0 = GO, then Jail, Free Parking, Go To Jail), each the "
        "right way "
        "up as read from the GO side, its cut edges flush with the board's outer edges; marker side {:.1f} "
        "mm\n",
        *out, sheet->margin_mm(), sheet->marker_mm());
    std::exit(0);
  });
}

}  // namespace bb::daemon
