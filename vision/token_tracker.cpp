#include "vision/token_tracker.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <sstream>

namespace bb::vision {

namespace {
TrackerEvent event(TrackerEvent::Kind kind, int64_t frame, std::string token = {}) {
  TrackerEvent e;
  e.kind = kind;
  e.frame = frame;
  e.token = std::move(token);
  return e;
}
}  // namespace

TokenTracker::TokenTracker(const SpaceMap& map, Settings settings, MarkerLayout markers)
    : map_(map),
      settings_(settings),
      calibrator_(markers),
      motion_(settings.motion),
      locator_(map, settings.locator, markers) {
  assert(settings.still_frames >= 1 && settings.agree_frames >= 1);
  assert(settings.start_space >= 0 && settings.start_space < map.space_count());
}

TokenTracker::~TokenTracker() = default;

void TokenTracker::camera_restarted() {
  motion_.reset();
  still_count_ = 0;
  pending_.clear();
  learning_counts_.clear();
  dirty_ = true;
}

std::string TokenTracker::signature(const std::vector<TokenObservation>& seen) const {
  std::string s;
  const double sure = settings_.locator.unsure_below;
  for (const auto& o : seen) {
    if (!o.visible) {
      s += "h;";
      continue;
    }
    if (o.confidence >= sure) {
      s += fmt::format("{};", o.space);
      continue;
    }
    std::vector<int> c = o.candidates;
    std::sort(c.begin(), c.end());
    s += fmt::format("?{};", fmt::join(c, ","));
  }
  return s;
}

std::vector<TrackerEvent> TokenTracker::process(const cv::Mat& frame, int64_t frame_index) {
  std::vector<TrackerEvent> events;
  if (!calibration_) {
    auto c = calibrator_.calibrate(frame, std::nullopt);
    if (!c) {
      if (frame_index - last_not_found_ >= settings_.not_found_every) {
        last_not_found_ = frame_index;
        TrackerEvent e = event(TrackerEvent::Kind::not_found, frame_index);
        e.detail = c.error();
        events.push_back(e);
      }
      return events;
    }
    calibration_ = *c;
    TrackerEvent e = event(TrackerEvent::Kind::calibrated, frame_index);
    e.confidence = 1.0;
    e.markers = c->markers_seen;
    e.detail = c->method == Calibration::Method::markers ? "markers" : "contour";
    events.push_back(e);
  }

  if (motion_.moving(frame)) {
    still_count_ = 0;
    pending_.clear();
    learning_counts_.clear();
    dirty_ = true;
    return events;
  }
  ++still_count_;
  if (still_count_ < settings_.still_frames || !dirty_) return events;

  if (still_count_ == settings_.still_frames) {
    // The scene has just settled: was the board or the camera nudged?
    auto c = calibrator_.calibrate(frame, calibration_);
    if (c) {
      const double shift = BoardCalibrator::corner_shift_px(*c, *calibration_);
      // A contour fit is rougher than the markers; only let it replace a marker fit on a clear move.
      const bool rough =
          c->method == Calibration::Method::contour && calibration_->method == Calibration::Method::markers;
      if (shift > settings_.bump_px * (rough ? 4 : 1)) {
        calibration_ = *c;
        TrackerEvent e = event(TrackerEvent::Kind::recalibrated, frame_index);
        e.confidence = 1.0;
        e.markers = c->markers_seen;
        e.shift_px = shift;
        e.detail = c->method == Calibration::Method::markers ? "markers" : "contour";
        events.push_back(e);
      }
    }
  }

  cv::Mat top;
  locator_.top_view(frame, *calibration_, top);
  if (tokens_.empty()) {
    auto learned_now = locator_.learn(top, settings_.start_space);
    learning_counts_.push_back(learned_now.size());
    if (learning_counts_.size() > static_cast<size_t>(settings_.agree_frames)) learning_counts_.pop_front();
    const bool agreed = learning_counts_.size() == static_cast<size_t>(settings_.agree_frames) &&
                        !learned_now.empty() &&
                        std::all_of(learning_counts_.begin(), learning_counts_.end(),
                                    [&](size_t n) { return n == learned_now.size(); });
    if (!agreed) return events;
    tokens_ = std::move(learned_now);
    positions_.assign(tokens_.size(), settings_.start_space);
    reported_.assign(tokens_.size(), {});
    for (const auto& t : tokens_) {
      TrackerEvent e = event(TrackerEvent::Kind::learned, frame_index, t.name);
      e.to = settings_.start_space;
      e.confidence = 1.0;
      events.push_back(e);
    }
    dirty_ = false;
    learning_counts_.clear();
    return events;
  }

  auto seen = locator_.locate(top, tokens_);
  pending_.push_back({signature(seen), std::move(seen)});
  if (pending_.size() > static_cast<size_t>(settings_.agree_frames)) pending_.pop_front();
  if (pending_.size() < static_cast<size_t>(settings_.agree_frames)) return events;
  for (const auto& p : pending_)
    if (p.signature != pending_.back().signature) return events;
  auto decided = decide(pending_.back().observations, frame_index);
  events.insert(events.end(), decided.begin(), decided.end());
  pending_.clear();
  dirty_ = false;
  return events;
}

std::vector<TrackerEvent> TokenTracker::decide(const std::vector<TokenObservation>& seen,
                                               int64_t frame_index) {
  std::vector<TrackerEvent> events;
  const double sure = settings_.locator.unsure_below;
  for (size_t t = 0; t < tokens_.size(); ++t) {
    const TokenObservation& o = seen[t];
    const std::string& name = tokens_[t].name;
    if (!o.visible) {
      if (reported_[t] != "hidden") {
        TrackerEvent e = event(TrackerEvent::Kind::hidden, frame_index, name);
        e.from = positions_[t];
        events.push_back(e);
      }
      reported_[t] = "hidden";
      continue;
    }
    if (o.confidence >= sure) {
      if (o.space != positions_[t]) {
        TrackerEvent e = event(TrackerEvent::Kind::moved, frame_index, name);
        e.from = positions_[t];
        e.to = o.space;
        e.confidence = o.confidence;
        events.push_back(e);
      }
      positions_[t] = o.space;
      reported_[t].clear();
      continue;
    }
    // Unsure: a question only when it could have moved; a blurred look at its own space is no news.
    if (o.candidates.size() == 1 && o.candidates.front() == positions_[t]) continue;
    std::vector<int> sorted = o.candidates;
    std::sort(sorted.begin(), sorted.end());
    const std::string key = fmt::format("unsure {}", fmt::join(sorted, ","));
    if (reported_[t] == key) continue;
    reported_[t] = key;
    TrackerEvent e = event(TrackerEvent::Kind::unsure, frame_index, name);
    e.from = positions_[t];
    e.to = o.space;
    e.confidence = o.confidence;
    e.candidates = o.candidates;
    events.push_back(e);
  }
  return events;
}

std::string TokenTracker::invariant_problem() const {
  if (auto p = map_.invariant_problem(); !p.empty()) return p;
  if (positions_.size() != tokens_.size()) return "positions and tokens differ in number";
  if (reported_.size() != tokens_.size()) return "reports and tokens differ in number";
  for (size_t t = 0; t < tokens_.size(); ++t) {
    if (positions_[t] < 0 || positions_[t] >= map_.space_count())
      return fmt::format("token {} is on space {}, which does not exist", tokens_[t].name, positions_[t]);
    if (auto p = tokens_[t].problem(); !p.empty()) return p;
  }
  if (calibration_) {
    const Point2 centre = calibration_->image_to_board.apply(calibration_->board_to_image.apply({0.5, 0.5}));
    if (std::abs(centre.x - 0.5) > 1e-6 || std::abs(centre.y - 0.5) > 1e-6)
      return "the calibration does not invert";
  }
  if (pending_.size() > static_cast<size_t>(settings_.agree_frames)) return "too many pending observations";
  return {};
}

std::expected<void, std::string> TokenTracker::save_setup(const std::string& json_path) const {
  if (tokens_.empty())
    return std::unexpected("no tokens have been learned yet; let the tracker see the start first");
  nlohmann::json j;
  j["space_map"] = nlohmann::json::parse(map_.to_json());
  j["tokens"] = nlohmann::json::parse(tokens_to_json(tokens_));
  j["positions"] = positions_;
  const std::string png = json_path + ".reference.png";
  if (auto r = locator_.save_reference(png); !r) return r;
  std::ofstream out(json_path);
  out << j.dump(2) << "\n";
  if (!out) return std::unexpected("cannot write " + json_path + "; check the folder exists and is writable");
  return {};
}

std::expected<void, std::string> TokenTracker::load_setup(const std::string& json_path) {
  std::ifstream in(json_path);
  if (!in) return std::unexpected("cannot read " + json_path + "; run the set-up again");
  std::stringstream text;
  text << in.rdbuf();
  try {
    auto j = nlohmann::json::parse(text.str());
    auto map = SpaceMap::from_json(j.at("space_map").dump());
    if (!map) return std::unexpected(map.error());
    if (map->space_count() != map_.space_count())
      return std::unexpected("the stored set-up is for another board; run the set-up again");
    // Only a grid, saved on the calibration screen before any token was learned: nothing learned yet.
    if (!j.contains("tokens")) return {};
    auto tokens = tokens_from_json(j.at("tokens").dump());
    if (!tokens) return std::unexpected(tokens.error());
    auto positions = j.at("positions").get<std::vector<int>>();
    if (positions.size() != tokens->size())
      return std::unexpected("the stored set-up is incomplete; run it again");
    for (int p : positions)
      if (p < 0 || p >= map_.space_count())
        return std::unexpected("the stored set-up names a space the board lacks");
    if (auto r = locator_.load_reference(json_path + ".reference.png"); !r) return r;
    tokens_ = std::move(*tokens);
    positions_ = std::move(positions);
    reported_.assign(tokens_.size(), {});
    dirty_ = true;
    return {};
  } catch (const std::exception& e) {
    return std::unexpected(std::string("the stored set-up cannot be read (") + e.what() +
                           "); run the set-up again");
  }
}

}  // namespace bb::vision
