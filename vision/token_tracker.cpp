#include "vision/token_tracker.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <sstream>

#include "vision/token_names.h"

namespace bb::vision {

namespace {
TrackerEvent event(TrackerEvent::Kind kind, int64_t frame, std::string token = {}) {
  TrackerEvent e;
  e.kind = kind;
  e.frame = frame;
  e.token = std::move(token);
  return e;
}

// The pixels of a top view of `side` pixels that the locator reads while it locates the tokens: the ring of
// spaces (every pixel on a space, as TokenLocator takes its ring) and `margin` pixels around it (its opening
// and closing reach one pixel further, a new token's convex outline and the place it leaves bare a few).
cv::Mat ring_region_of(const SpaceMap& map, int side, int margin) {
  cv::Mat ring(side, side, CV_8U);
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x)
      ring.at<uint8_t>(y, x) = map.space_at({(x + 0.5) / side, (y + 0.5) / side}) >= 0 ? 255 : 0;
  cv::dilate(ring, ring, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(2 * margin + 1, 2 * margin + 1)));
  return ring;
}

// Rectangles (x, y, width, height) that cover `region` and leave out the largest rectangle free of it (the
// board's middle): up to four bands around it, or the whole view when nothing is free.
std::vector<std::array<int, 4>> parts_around_middle(const cv::Mat& region) {
  const int rows = region.rows, cols = region.cols;
  // The largest free rectangle, row by row over the heights of free pixels above (a stack of rising heights).
  std::vector<int> height(static_cast<size_t>(cols) + 1, 0);
  long best = 0;
  std::array<int, 4> middle{0, 0, 0, 0};
  std::vector<int> stack;
  for (int y = 0; y < rows; ++y) {
    for (int x = 0; x < cols; ++x)
      height[static_cast<size_t>(x)] = region.at<uint8_t>(y, x) ? 0 : height[static_cast<size_t>(x)] + 1;
    stack.clear();
    for (int x = 0; x <= cols; ++x) {
      while (!stack.empty() && height[static_cast<size_t>(stack.back())] >= height[static_cast<size_t>(x)]) {
        const int h = height[static_cast<size_t>(stack.back())];
        stack.pop_back();
        const int left = stack.empty() ? 0 : stack.back() + 1;
        if (const long area = static_cast<long>(h) * (x - left); area > best) {
          best = area;
          middle = {left, y - h + 1, x - left, h};
        }
      }
      stack.push_back(x);
    }
  }
  if (best == 0) return {{0, 0, cols, rows}};
  const auto [mx, my, mw, mh] = middle;
  std::vector<std::array<int, 4>> parts;
  if (my > 0) parts.push_back({0, 0, cols, my});
  if (my + mh < rows) parts.push_back({0, my + mh, cols, rows - my - mh});
  if (mx > 0) parts.push_back({0, my, mx, mh});
  if (mx + mw < cols) parts.push_back({mx + mw, my, cols - mx - mw, mh});
  return parts;
}

// Pixels around the ring that a deciding frame makes too (see ring_region_of).
constexpr int kRingMargin = 12;
}  // namespace

TokenTracker::TokenTracker(const SpaceMap& map, Settings settings, MarkerLayout markers)
    : map_(map),
      settings_(settings),
      calibrator_(markers),
      motion_(settings.motion),
      locator_(map, settings.locator, markers),
      still_view_(settings.average_frames),
      top_(std::make_unique<cv::Mat>()),
      ring_region_(std::make_unique<cv::Mat>(ring_region_of(map, settings.locator.top_side, kRingMargin))),
      ring_parts_(parts_around_middle(*ring_region_)) {
  assert(settings.still_frames >= 1 && settings.agree_frames >= 1 && settings.average_frames >= 1);
  assert(settings.start_space >= 0 && settings.start_space < map.space_count());
  still_view_.set_region(*ring_region_);
}

TokenTracker::~TokenTracker() = default;

void TokenTracker::camera_restarted() {
  motion_.reset();
  unsettle();
  locator_.forget_decided();  // whatever it shows is checked afresh
}

void TokenTracker::accept_found_tokens() {
  accept_fewer_ = true;
  unsettle();
}

void TokenTracker::learn_next_token(std::string name) {
  next_name_ = std::move(name);
  awaiting_new_token_ = true;
  new_sightings_.clear();
  moved_while_waiting_ = false;
  nothing_new_frames_ = 0;
  said_unseen_ = false;
}

void TokenTracker::leave_token_to_dice(const std::string& name) {
  if (settings_.expected_tokens > static_cast<int>(tokens_.size())) --settings_.expected_tokens;
  if (!awaiting_new_token_ || next_token_name() != name) return;
  awaiting_new_token_ = false;
  next_name_.clear();
  new_sightings_.clear();
  moved_while_waiting_ = false;
  nothing_new_frames_ = 0;
  said_unseen_ = false;
}

void TokenTracker::settle(const std::string& name, int space) {
  const auto it = std::find_if(tokens_.begin(), tokens_.end(), [&](const auto& a) { return a.name == name; });
  if (it == tokens_.end() || space < 0 || space >= map_.space_count()) return;
  const auto t = static_cast<size_t>(it - tokens_.begin());
  auto& refuted = refuted_[t];
  for (int s : asked_[t])
    if (s != space && std::find(refuted.begin(), refuted.end(), s) == refuted.end()) refuted.push_back(s);
  std::erase(refuted, space);
  asked_[t].clear();
  if (positions_[t] != space) locator_.forget_settled_board();  // as a move seen sure does
  positions_[t] = space;
  reported_[t].clear();
  unseen_moves_[t] = -1;
  locator_.remember_settled(t, space);
}

std::string TokenTracker::next_token_name() const {
  if (!next_name_.empty()) return next_name_;
  for (int index = static_cast<int>(tokens_.size());; ++index) {
    const std::string name = learned_token_name(index);
    if (std::none_of(tokens_.begin(), tokens_.end(), [&](const auto& t) { return t.name == name; }))
      return name;
  }
}

void TokenTracker::adopt_tokens(std::vector<TokenAppearance> tokens, std::vector<int> positions) {
  tokens_ = std::move(tokens);
  positions_ = std::move(positions);
  reported_.assign(tokens_.size(), {});
  decided_.assign(tokens_.size(), true);
  wavering_.assign(tokens_.size(), {});
  decided_as_.assign(tokens_.size(), {});
  locator_.forget_decided();
  unseen_moves_.assign(tokens_.size(), -1);
  asked_.assign(tokens_.size(), {});
  refuted_.assign(tokens_.size(), {});
  pending_.clear();
}

void TokenTracker::learn_at_start(const cv::Mat& top, int64_t frame_index,
                                  std::vector<TrackerEvent>& events) {
  auto learned_now = locator_.learn(top, settings_.start_space, settings_.expected_tokens);
  learning_counts_.push_back(learned_now.size());
  if (learning_counts_.size() > static_cast<size_t>(settings_.agree_frames)) learning_counts_.pop_front();
  const bool agreed = learning_counts_.size() == static_cast<size_t>(settings_.agree_frames) &&
                      std::all_of(learning_counts_.begin(), learning_counts_.end(),
                                  [&](size_t n) { return n == learned_now.size(); });
  if (!agreed) return;
  learning_counts_.clear();
  const size_t expected = static_cast<size_t>(std::max(0, settings_.expected_tokens));
  if (learned_now.empty()) {
    // The board is seen and still, and nothing stands on the start space. Without an expected count the
    // tracker waits without a word, as ever; with one, never silently: said once (again after tokens were
    // seen there in between), and looked at again every still frame.
    if (expected > 0 && !none_reported_) {
      none_reported_ = true;
      incomplete_reported_ = 0;
      TrackerEvent e = event(TrackerEvent::Kind::learn_incomplete, frame_index);
      e.found = 0;
      e.expected = static_cast<int>(expected);
      e.to = settings_.start_space;
      e.detail = fmt::format(
          "found no token on the start space where {} were expected. Put every token on it (anywhere, on the "
          "corner marker too), or put them down one at a time",
          expected);
      events.push_back(e);
    }
    return;
  }
  none_reported_ = false;
  if (expected > 0 && learned_now.size() != expected && !(accept_fewer_ && learned_now.size() < expected)) {
    // Never silently fewer: say what was found and keep looking (the scene is looked at again every
    // still frame) until the count agrees or the table accepts it.
    if (incomplete_reported_ != learned_now.size()) {
      incomplete_reported_ = learned_now.size();
      TrackerEvent e = event(TrackerEvent::Kind::learn_incomplete, frame_index);
      e.found = static_cast<int>(learned_now.size());
      e.expected = static_cast<int>(expected);
      e.to = settings_.start_space;
      std::vector<std::string> seen;
      for (const auto& t : learned_now) seen.push_back(fmt::format("{} ({})", t.name, colour_word(t)));
      if (learned_now.size() < expected)
        e.detail = fmt::format(
            "found {} of {} tokens on the start space: {}; {} missing. A token standing on the corner "
            "marker's black squares, touching another of its colour, or grey, black or white on the board "
            "is hard to see: stand it clear, or put it down alone later (learn one at a time), or confirm "
            "that these {} are all",
            learned_now.size(), expected, fmt::join(seen, ", "), expected - learned_now.size(),
            learned_now.size());
      else
        e.detail = fmt::format(
            "found {} things on the start space where {} tokens were expected: {}; take away anything that "
            "is not a token",
            learned_now.size(), expected, fmt::join(seen, ", "));
      events.push_back(e);
    }
    return;
  }
  std::vector<int> positions(learned_now.size(), settings_.start_space);
  adopt_tokens(std::move(learned_now), std::move(positions));
  remember_learned(top);
  learned_with_markers_ = calibration_->markers_seen;
  if (learned_with_markers_ < MarkerLayout::count) reference_calibration_ = *calibration_;
  for (const auto& t : tokens_) {
    TrackerEvent e = event(TrackerEvent::Kind::learned, frame_index, t.name);
    e.to = settings_.start_space;
    e.confidence = 1.0;
    events.push_back(e);
  }
  dirty_ = false;
}

bool TokenTracker::learn_new_token(const cv::Mat& top, const std::vector<TokenObservation>& seen,
                                   int64_t frame_index, std::vector<TrackerEvent>& events) {
  auto found = locator_.find_new_token(top);
  if (found) {
    // A learned token lifted and put down elsewhere is new since the board was last settled, and would be
    // learned a second time (a red token moved while the tracker waits for a white one that was left to
    // the dice): where a learned token is now seen, sure, off its own space, it is that token's move.
    for (size_t t = 0; t < seen.size(); ++t)
      if (seen[t].visible && seen[t].confidence >= settings_.locator.unsure_below &&
          seen[t].space != positions_[t] && seen[t].space == found->space) {
        new_sightings_.clear();
        return false;
      }
  }
  if (!found) {
    new_sightings_.clear();
    if (moved_while_waiting_ && !said_unseen_ && ++nothing_new_frames_ >= settings_.settle_limit_frames) {
      // Something was put down, the scene is still, and nothing new shows: never a silent wait.
      said_unseen_ = true;
      TrackerEvent e = event(TrackerEvent::Kind::learn_incomplete, frame_index, next_token_name());
      e.found = static_cast<int>(tokens_.size());
      e.expected = std::max(settings_.expected_tokens, static_cast<int>(tokens_.size()) + 1);
      e.to = -1;
      e.detail = fmt::format(
          "waiting for {} to be put down, but nothing new is seen on the board ({}). A white token on a "
          "pale space, in bright light or beside the GO marker, can look like the board itself: put it on "
          "a space with a coloured band, or stick a small coloured cap on it (a round sticker of a "
          "colour no other token has) and put it down again, or play with a coloured token instead",
          next_token_name(), found.error());
      events.push_back(e);
    }
    return false;
  }
  // The same thing, still, over the agreeing frames: not a hand passing, not a token being slid.
  if (!new_sightings_.empty()) {
    const NewToken& last = new_sightings_.back();
    const double area_ratio = found->look.area_px / std::max(1.0, last.look.area_px);
    if (std::hypot(found->centre.x - last.centre.x, found->centre.y - last.centre.y) > 3.0 ||
        area_ratio < 0.75 || area_ratio > 1.33)
      new_sightings_.clear();
  }
  new_sightings_.push_back(*found);
  if (new_sightings_.size() < static_cast<size_t>(settings_.agree_frames)) return false;
  NewToken learned = std::move(new_sightings_.back());
  new_sightings_.clear();
  learned.look.name = next_token_name();
  next_name_.clear();
  auto tokens = tokens_;
  auto positions = positions_;
  tokens.push_back(learned.look);
  positions.push_back(learned.space);
  adopt_tokens(std::move(tokens), std::move(positions));
  locator_.remember_settled_board(top);
  remember_learned(top);
  TrackerEvent e = event(TrackerEvent::Kind::learned, frame_index, learned.look.name);
  e.to = learned.space;
  e.confidence = 1.0;
  events.push_back(e);
  const bool more =
      settings_.learning == Settings::Learning::one_at_a_time &&
      (settings_.expected_tokens <= 0 || static_cast<int>(tokens_.size()) < settings_.expected_tokens);
  awaiting_new_token_ = more;
  moved_while_waiting_ = false;
  said_unseen_ = false;
  if (more) events.push_back(event(TrackerEvent::Kind::ready_for_token, frame_index, next_token_name()));
  dirty_ = false;
  return true;
}

void TokenTracker::count_unseen(size_t moved_token, int64_t frame_index, std::vector<TrackerEvent>& events) {
  for (size_t t = 0; t < tokens_.size(); ++t) {
    if (t == moved_token || unseen_moves_[t] < 0) continue;
    if (++unseen_moves_[t] != settings_.lost_after_moves) continue;
    TrackerEvent e = event(TrackerEvent::Kind::lost, frame_index, tokens_[t].name);
    e.from = positions_[t];
    e.detail = fmt::format(
        "{} has not been seen since it stood on space {}, while the others moved {} times; is it off the "
        "board or under something?",
        tokens_[t].name, positions_[t], settings_.lost_after_moves);
    events.push_back(e);
  }
}

void TokenTracker::unsettle() {
  still_count_ = 0;
  pending_.clear();
  learning_counts_.clear();
  new_sightings_.clear();
  if (awaiting_new_token_) moved_while_waiting_ = true;
  nothing_new_frames_ = 0;
  still_view_.restart();
  decided_.assign(tokens_.size(), false);
  wavering_.assign(tokens_.size(), {});
  decided_as_.assign(tokens_.size(), {});
  dirty_ = true;
}

std::string TokenTracker::signature(const TokenObservation& o) const {
  if (!o.visible) return "h";
  if (o.confidence >= settings_.locator.unsure_below) return fmt::format("{}", o.space);
  std::vector<int> c = o.candidates;
  std::sort(c.begin(), c.end());
  return fmt::format("?{}", fmt::join(c, ","));
}

std::optional<TokenObservation> TokenTracker::doubtful_agreement(size_t token) const {
  // The last frames all put the token on one space, some sure of it and some not: a near tie on the
  // locator's margin, which a pixel more or less tips either way (OpenCV draws and warps a few pixels
  // differently on arm64 and amd64). Waiting for the frames to agree outlasts the still scene, and the
  // token would silently stay where it was: it is one reading with a doubt, so the question, with every
  // space any of the frames named.
  const TokenObservation& last = pending_.back().observations[token];
  if (!last.visible) return std::nullopt;
  TokenObservation doubt = last;
  for (const auto& p : pending_) {
    const TokenObservation& o = p.observations[token];
    if (!o.visible || o.space != last.space) return std::nullopt;
    if (o.confidence < doubt.confidence) doubt.confidence = o.confidence;
    for (int c : o.candidates)
      if (std::find(doubt.candidates.begin(), doubt.candidates.end(), c) == doubt.candidates.end())
        doubt.candidates.push_back(c);
  }
  if (doubt.confidence >= settings_.locator.unsure_below) return std::nullopt;
  return doubt;
}

std::vector<TrackerEvent> TokenTracker::process(const cv::Mat& frame, int64_t frame_index) {
  std::vector<TrackerEvent> events;
  if (!calibration_) {
    auto c = fit_board(frame, std::nullopt);
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
    unsettle();
    return events;
  }
  ++still_count_;
  if (still_count_ < settings_.still_frames || (!dirty_ && !awaiting_new_token_)) return events;

  if (tokens_.empty() && calibration_->markers_seen < MarkerLayout::count) {
    // Before anything is learned a better fit costs little, and a fit from three markers can put the
    // fourth corner 10 px off when the view is soft. Learning one at a time, the empty board's look was
    // taken through the old fit already: it is re-warped, or the board's own edges differ from it in every
    // later frame (a fit from one marker more, 0.8 px away at the corners, made two "new things" of the
    // board's corner in a soft view on arm64, and no token was ever learned).
    if (auto c = fit_board(frame, calibration_); c && c->markers_seen > calibration_->markers_seen)
      adopt_better_fit(*c);
  }
  if (still_count_ == settings_.still_frames) check_board(frame, frame_index, events);

  // In play the view is made only where the locator reads it, into the buffer of the frame before (whose
  // middle it keeps). While tokens are learned, or the empty board is taken, the whole view is made: it may
  // become the reference.
  cv::Mat& top = *top_;
  const int side = settings_.locator.top_side;
  const bool in_play = !tokens_.empty() && !awaiting_new_token_ && locator_.has_reference();
  if (in_play && top.rows == side && top.cols == side && top.type() == frame.type())
    locator_.top_view(frame, *calibration_, top, ring_parts_);
  else
    locator_.top_view(frame, *calibration_, top);
  still_view_.add(top, calibration_->board_to_image.matrix());
  if (settings_.learning == Settings::Learning::one_at_a_time && !locator_.has_reference()) {
    // The table has cleared the board: this is its empty look, and the first token is awaited.
    locator_.set_empty_reference(top);
    locator_.remember_settled_board(top);
    learned_with_markers_ = calibration_->markers_seen;
    if (learned_with_markers_ < MarkerLayout::count) reference_calibration_ = *calibration_;
    awaiting_new_token_ = true;
    events.push_back(event(TrackerEvent::Kind::ready_for_token, frame_index, next_token_name()));
    dirty_ = false;
    return events;
  }
  if (tokens_.empty() && settings_.learning == Settings::Learning::all_on_start_space) {
    learn_at_start(top, frame_index, events);
    return events;
  }

  auto seen = locator_.locate(top, tokens_, positions_);
  if (awaiting_new_token_ && learn_new_token(top, seen, frame_index, events)) return events;
  if (!dirty_) return events;
  std::vector<std::string> signatures;
  for (const auto& o : seen) signatures.push_back(signature(o));
  for (size_t t = 0; t < seen.size(); ++t)
    if (seen[t].visible)
      for (int c : seen[t].candidates)
        if (std::find(wavering_[t].begin(), wavering_[t].end(), c) == wavering_[t].end())
          wavering_[t].push_back(c);
  pending_.push_back({std::move(signatures), std::move(seen)});
  if (pending_.size() > static_cast<size_t>(settings_.agree_frames)) pending_.pop_front();
  if (pending_.size() < static_cast<size_t>(settings_.agree_frames)) return events;
  // Each token is decided once its own look agrees over the last frames: one token flickering between two
  // readings (a soft edge on a boundary) must not hold up the others.
  bool all_decided = true;
  for (size_t t = 0; t < tokens_.size(); ++t) {
    if (decided_[t]) continue;
    bool agree = true;
    for (const auto& p : pending_) agree &= p.signatures[t] == pending_.back().signatures[t];
    if (agree) {
      decide(t, pending_.back().observations[t], frame_index, events);
      decided_[t] = true;
    } else if (auto doubt = doubtful_agreement(t)) {
      decide(t, *doubt, frame_index, events);
      decided_[t] = true;
    } else {
      all_decided = false;
    }
  }
  if (!all_decided && still_count_ >= settings_.still_frames + settings_.settle_limit_frames) {
    // Still undecided after a long still look: never a guess. A token that was seen anywhere but its own
    // space is a question for the table, with every space it was seen on.
    for (size_t t = 0; t < tokens_.size(); ++t) {
      if (decided_[t]) continue;
      decided_[t] = true;
      auto& seen_on = wavering_[t];
      if (seen_on.empty() || (seen_on.size() == 1 && seen_on.front() == positions_[t])) continue;
      TokenObservation o;
      o.token = static_cast<int>(t);
      o.visible = true;
      o.space = seen_on.front();
      o.confidence = 0.5;
      o.candidates = seen_on;
      decide(t, o, frame_index, events);
    }
    all_decided = true;
  }
  if (!all_decided) return events;
  // Every token decided: the tokens decided sure, and their blobs on this view, are what the next look
  // compares with to tell which of them nobody touched.
  locator_.remember_decided(top, decided_as_, settings_.locator.unsure_below);
  pending_.clear();
  dirty_ = false;
  return events;
}

std::expected<Calibration, std::string> TokenTracker::fit_board(
    const cv::Mat& frame, const std::optional<Calibration>& previous) const {
  auto c = calibrator_.calibrate(frame, previous);
  if (c && c->method == Calibration::Method::markers && c->markers_seen == MarkerLayout::count) return c;
  // Fewer than four markers readable (a soft view): a fit from three small squares can put the missing
  // corner 5-13 px off, and the outline alone is a few pixels off everywhere. Together they agree with the
  // truth to 2-3 px: the markers pin the shape, the outline pins the far corner.
  const auto markers = detector_.detect(frame);
  if (markers.size() < 2) return c;
  std::vector<Point2> board, image;
  for (const auto& m : markers) {
    const auto expected = calibrator_.layout().corners(m.id);
    for (size_t k = 0; k < 4; ++k) {
      board.push_back(expected[k]);
      image.push_back(m.corners[k]);
    }
  }
  auto outline = calibrator_.from_contour(frame, c ? std::optional<Calibration>(*c) : previous);
  if (!outline) return c;
  for (int k = 0; k < MarkerLayout::count; ++k) {
    board.push_back(MarkerLayout::board_corner(k));
    image.push_back(outline->image_corner(k));
  }
  const auto h = Homography::fit(board, image);
  const auto inverse = h ? h->inverse() : std::nullopt;
  if (!h || !inverse) return c;
  double sum = 0, worst_marker = 0;
  for (size_t i = 0; i < board.size(); ++i) {
    const Point2 p = h->apply(board[i]);
    const double d = std::hypot(p.x - image[i].x, p.y - image[i].y);
    sum += d * d;
    if (i < 4 * markers.size()) worst_marker = std::max(worst_marker, d);
  }
  // An outline that disagrees with the markers (the table's edge taken for the board's) is not used.
  if (worst_marker > 4.0) return c;
  Calibration joint;
  joint.board_to_image = *h;
  joint.image_to_board = *inverse;
  joint.method = Calibration::Method::markers;
  joint.markers_seen = static_cast<int>(markers.size());
  joint.fit_error_px = std::sqrt(sum / static_cast<double>(board.size()));
  return joint;
}

void TokenTracker::remember_learned(const cv::Mat& top) {
  // Every token is where it was just learned: the first move is told from the others untouched, as every
  // later one is.
  auto seen = locator_.locate(top, tokens_, positions_);
  for (size_t t = 0; t < seen.size(); ++t)
    if (seen[t].space != positions_[t]) seen[t].visible = false;  // not where it was learned: no hold
  locator_.remember_decided(top, seen, settings_.locator.unsure_below);
}

void TokenTracker::adopt_better_fit(const Calibration& better) {
  if (reference_calibration_) {
    locator_.rewarp_reference(*reference_calibration_, better);
    reference_calibration_ = better;
    learned_with_markers_ = better.markers_seen;
    if (learned_with_markers_ == MarkerLayout::count) reference_calibration_.reset();
  }
  calibration_ = better;
  locator_.forget_decided();  // the top view moved
}

void TokenTracker::check_board(const cv::Mat& frame, int64_t frame_index, std::vector<TrackerEvent>& events) {
  // The scene has just settled: was the board or the camera nudged? The markers in view are compared with
  // where the calibration puts them; a fresh fit is made only when most of them moved, because a fit from
  // fewer markers than the current one (a marker too soft to read this time) is worse, not newer.
  const auto markers = detector_.detect(frame);
  std::vector<double> offsets;
  for (const auto& m : markers) {
    const auto expected = calibrator_.layout().corners(m.id);
    double sum = 0;
    for (size_t k = 0; k < 4; ++k) {
      const Point2 p = calibration_->board_to_image.apply(expected[k]);
      sum += std::hypot(p.x - m.corners[k].x, p.y - m.corners[k].y);
    }
    offsets.push_back(sum / 4);
  }
  std::sort(offsets.begin(), offsets.end());
  const bool readable = offsets.size() >= 2;
  const bool moved = readable && offsets[(offsets.size() - 1) / 2] > settings_.bump_px;
  // With four markers at learning the reference is true to the board, so a fit from more markers than the
  // current one (after a bump seen through a soft view) brings the two closer.
  // With fewer at learning (tokens on the GO marker), the reference is re-aligned to the better fit.
  const bool better = readable && !moved &&
                      (learned_with_markers_ == MarkerLayout::count || reference_calibration_) &&
                      static_cast<int>(markers.size()) > calibration_->markers_seen;
  if (readable && !moved && !better) return;
  auto c = fit_board(frame, calibration_);
  if (!c) return;
  const double shift = BoardCalibrator::corner_shift_px(*c, *calibration_);
  if (better) {
    if (c->markers_seen > calibration_->markers_seen) adopt_better_fit(*c);
    return;
  }
  // Without readable markers only the outline is left, which is rougher: only a clear move counts.
  const bool rough =
      c->method == Calibration::Method::contour && calibration_->method == Calibration::Method::markers;
  if (shift <= settings_.bump_px * (rough ? 4 : 1)) return;
  calibration_ = *c;
  reference_calibration_.reset();  // the board moved: the reference is no longer of this view's making
  locator_.forget_decided();
  TrackerEvent e = event(TrackerEvent::Kind::recalibrated, frame_index);
  e.confidence = 1.0;
  e.markers = c->markers_seen;
  e.shift_px = shift;
  e.detail = c->method == Calibration::Method::markers ? "markers" : "contour";
  events.push_back(e);
}

void TokenTracker::decide(size_t t, const TokenObservation& seen, int64_t frame_index,
                          std::vector<TrackerEvent>& events) {
  const double sure = settings_.locator.unsure_below;
  TokenObservation o = seen;
  if (o.visible && o.confidence >= sure && o.space != positions_[t] &&
      std::find(refuted_[t].begin(), refuted_[t].end(), o.space) != refuted_[t].end()) {
    o.confidence = std::min(o.confidence, 0.5);  // the family said it was not there: asked, not told
    o.candidates = {o.space};
  }
  decided_as_[t] = o;
  const std::string& name = tokens_[t].name;
  if (!o.visible && unseen_moves_[t] < 0) unseen_moves_[t] = 0;
  if (o.visible) unseen_moves_[t] = -1;
  if (!o.visible) {
    if (reported_[t] != "hidden") {
      TrackerEvent e = event(TrackerEvent::Kind::hidden, frame_index, name);
      e.from = positions_[t];
      events.push_back(e);
    }
    reported_[t] = "hidden";
    return;
  }
  if (o.confidence >= sure) {
    // An outline unknown or rough from setup (the token touched another of its look), or found wrong (the
    // token was told by elimination), is learned from the first sure look at it alone.
    const bool outline_in_doubt = !tokens_[t].shape.known() || tokens_[t].outline_cut || o.by_elimination;
    if (outline_in_doubt && o.shape.known() && !o.shared && !o.outline_cut && o.visible_fraction > 0.7 &&
        o.visible_fraction < 1.3) {
      tokens_[t].shape = o.shape;
      tokens_[t].cap = o.cap;
      tokens_[t].outline_cut = false;
    }
    if (o.space != positions_[t]) {
      // The board as last settled no longer holds: a token learned later is found by the claims of the
      // learned ones (find_new_token).
      locator_.forget_settled_board();
      TrackerEvent e = event(TrackerEvent::Kind::moved, frame_index, name);
      e.from = positions_[t];
      e.to = o.space;
      e.confidence = o.confidence;
      events.push_back(e);
      positions_[t] = o.space;
      count_unseen(t, frame_index, events);
    }
    positions_[t] = o.space;
    reported_[t].clear();
    return;
  }
  // Unsure: a question only when it could have moved; a blurred look at its own space is no news.
  if (o.candidates.size() == 1 && o.candidates.front() == positions_[t]) return;
  std::vector<int> sorted = o.candidates;
  std::sort(sorted.begin(), sorted.end());
  const std::string key = fmt::format("unsure {}", fmt::join(sorted, ","));
  if (reported_[t] == key) return;
  reported_[t] = key;
  asked_[t] = o.candidates;
  TrackerEvent e = event(TrackerEvent::Kind::unsure, frame_index, name);
  e.from = positions_[t];
  e.to = o.space;
  e.confidence = o.confidence;
  e.candidates = o.candidates;
  events.push_back(e);
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
  if (reference_calibration_ &&
      (!calibration_ || BoardCalibrator::corner_shift_px(*reference_calibration_, *calibration_) != 0))
    return "the empty board's look was taken through another fit than the one in use";
  if (pending_.size() > static_cast<size_t>(settings_.agree_frames)) return "too many pending observations";
  if (decided_.size() != tokens_.size() || wavering_.size() != tokens_.size() ||
      unseen_moves_.size() != tokens_.size())
    return "settling state and tokens differ in number";
  for (const auto& p : pending_)
    if (p.signatures.size() != tokens_.size() || p.observations.size() != tokens_.size())
      return "a pending observation does not cover every token";
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
    adopt_tokens(std::move(*tokens), std::move(positions));
    learned_with_markers_ = MarkerLayout::count;  // a stored set-up is trusted as made
    unsettle();
    return {};
  } catch (const std::exception& e) {
    return std::unexpected(std::string("the stored set-up cannot be read (") + e.what() +
                           "); run the set-up again");
  }
}

}  // namespace bb::vision
