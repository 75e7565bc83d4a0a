#include "vision/token_locator.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <opencv2/imgproc.hpp>

#include "vision/image_files.h"
#include "vision/token_locator_impl.h"

// The per-frame look: the light's colour and field, the foreground against the empty board, each pixel to
// the token whose colour it matches. Learning is in token_learning.cpp, outlines in token_identity.cpp.

namespace bb::vision {

using locator_detail::alike;
using locator_detail::cell;
using locator_detail::chroma_distance;
using locator_detail::features;
using locator_detail::GainedFeatures;
using locator_detail::median;
using locator_detail::shape_of;

namespace detail {

int label_blobs(const cv::Mat& mask, cv::Mat& blobs, cv::Mat& stats) {
  assert(mask.type() == CV_8U);
  // cv::connectedComponentsWithStats measured every pixel for its label's stats, the background's too (5.7
  // million instructions a deciding frame at 720p; the labels alone take 1.8, these stats 0.2): the same
  // labels (the same labelling, without the stats), and the stats measured over the foreground, skipping
  // the background 8 pixels at a time; the background's from what the foreground leaves of each row and
  // column.
  const int count = cv::connectedComponents(mask, blobs, 8, CV_32S);
  const int rows = mask.rows, cols = mask.cols;
  stats.create(count, cv::CC_STAT_MAX, CV_32S);
  // Each label's box as right and bottom until the end, as OpenCV keeps it.
  for (int b = 0; b < count; ++b) {
    int* row = stats.ptr<int>(b);
    row[cv::CC_STAT_LEFT] = row[cv::CC_STAT_TOP] = std::numeric_limits<int>::max();
    row[cv::CC_STAT_WIDTH] = row[cv::CC_STAT_HEIGHT] = std::numeric_limits<int>::min();
    row[cv::CC_STAT_AREA] = 0;
  }
  std::vector<int> in_column(static_cast<size_t>(cols), 0), in_row(static_cast<size_t>(rows), 0);
  int foreground = 0;
  for (int y = 0; y < rows; ++y) {
    const uint8_t* m = mask.ptr<uint8_t>(y);
    const int* label = blobs.ptr<int>(y);
    for (int x = 0; x < cols;) {
      if (uint64_t eight = 0; x + 8 <= cols && (std::memcpy(&eight, m + x, 8), eight == 0)) {
        x += 8;
        continue;
      }
      if (m[x]) {
        int* row = stats.ptr<int>(label[x]);
        row[cv::CC_STAT_LEFT] = std::min(row[cv::CC_STAT_LEFT], x);
        row[cv::CC_STAT_TOP] = std::min(row[cv::CC_STAT_TOP], y);
        row[cv::CC_STAT_WIDTH] = std::max(row[cv::CC_STAT_WIDTH], x);
        row[cv::CC_STAT_HEIGHT] = std::max(row[cv::CC_STAT_HEIGHT], y);
        ++row[cv::CC_STAT_AREA];
        ++in_column[static_cast<size_t>(x)];
        ++in_row[static_cast<size_t>(y)];
        ++foreground;
      }
      ++x;
    }
  }
  if (count > 0) {  // the background: every row and column the foreground does not fill
    int* row = stats.ptr<int>(0);
    for (int x = 0; x < cols; ++x)
      if (in_column[static_cast<size_t>(x)] < rows)
        row[cv::CC_STAT_LEFT] = std::min(row[cv::CC_STAT_LEFT], x),
        row[cv::CC_STAT_WIDTH] = std::max(row[cv::CC_STAT_WIDTH], x);
    for (int y = 0; y < rows; ++y)
      if (in_row[static_cast<size_t>(y)] < cols)
        row[cv::CC_STAT_TOP] = std::min(row[cv::CC_STAT_TOP], y),
        row[cv::CC_STAT_HEIGHT] = std::max(row[cv::CC_STAT_HEIGHT], y);
    row[cv::CC_STAT_AREA] = rows * cols - foreground;
  }
  // Right and bottom to width and height. A label with no pixel (only the background can be one, in a mask
  // all foreground; never the locator's, whose board middle is off the ring) as OpenCV 4.6 gives it.
  for (int b = 0; b < count; ++b) {
    int* row = stats.ptr<int>(b);
    if (row[cv::CC_STAT_AREA] == 0) {
      row[cv::CC_STAT_LEFT] = -1;
      row[cv::CC_STAT_WIDTH] = row[cv::CC_STAT_HEIGHT] = 0;
      continue;
    }
    row[cv::CC_STAT_WIDTH] -= row[cv::CC_STAT_LEFT] - 1;
    row[cv::CC_STAT_HEIGHT] -= row[cv::CC_STAT_TOP] - 1;
  }
  return count;
}

}  // namespace detail

cv::Vec3f TokenLocator::Impl::white_balance(const cv::Mat& top) const {
  std::array<std::vector<double>, 3> ratios;
  const size_t stride = std::max<size_t>(1, ring.size() / 3000);
  for (size_t k = 0; k < ring.size(); k += stride) {
    const int i = ring[k];
    const cv::Vec3b c = top.at<cv::Vec3b>(i), r = reference.at<cv::Vec3b>(i);
    if (r[0] + r[1] + r[2] < 150) continue;  // dark print says little about the light's colour
    for (int ch = 0; ch < 3; ++ch) ratios[static_cast<size_t>(ch)].push_back((c[ch] + 1.0) / (r[ch] + 1.0));
  }
  cv::Vec3f gain;
  for (int ch = 0; ch < 3; ++ch)
    gain[ch] = static_cast<float>(std::clamp(median(ratios[static_cast<size_t>(ch)]), 0.1, 5.0));
  return gain;
}

namespace {

// Per cell: light = sum / count where count > 0. Dips narrower than three cells are lifted to their
// surroundings' level; cells with no background stay without.
void close_light_dips(cv::Mat& sum, const cv::Mat& count) {
  const cv::Mat seen = count > 0.5f;
  cv::Mat light = cv::Mat::zeros(sum.size(), CV_32F);
  cv::divide(sum, count, light);
  light.setTo(0.0f, ~seen);  // never the largest neighbour
  const cv::Mat square = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3));
  cv::Mat lifted;
  cv::dilate(light, lifted, square, cv::Point(-1, -1), 1, cv::BORDER_REPLICATE);
  lifted.setTo(1e6f, lifted <= 0.0f);  // no neighbour seen: never the smallest
  cv::Mat closed;
  cv::erode(lifted, closed, square, cv::Point(-1, -1), 1, cv::BORDER_REPLICATE);
  // Only ever lift a cell: a brighter cell (a sheen, a lamp's spot) keeps its own light.
  cv::Mat raised = cv::max(light, closed);
  cv::Mat updated = raised.mul(count);
  updated.copyTo(sum, seen);
}

}  // namespace

int TokenLocator::Impl::token_at(const Features& f, const std::vector<TokenAppearance>& tokens) const {
  int best = -1;
  double best_d = 16.0;  // squared distance in spreads: about four standard deviations
  for (size_t k = 0; k < tokens.size(); ++k) {
    if (tokens[k].faint()) continue;  // its pixels are the paper's within noise: found by locate_faint
    const auto& m = tokens[k].mean;
    const auto& s = tokens[k].spread;
    const double dr = (f.r - m[0]) / s[0], dg = (f.g - m[1]) / s[1], di = (f.i - m[2]) / s[2];
    const double d = dr * dr + dg * dg + di * di;
    if (d < best_d) best_d = d, best = static_cast<int>(k);
  }
  return best;
}

TokenLocator::TokenLocator(const SpaceMap& map, Settings settings, MarkerLayout markers)
    : impl_(std::make_unique<Impl>()) {
  Impl& im = *impl_;
  im.map = map;
  im.settings = settings;
  im.markers = markers;
  const int s = settings.top_side;
  assert(s >= 100);
  im.labels = cv::Mat(s, s, CV_16S);
  for (int y = 0; y < s; ++y)
    for (int x = 0; x < s; ++x) {
      const int label = map.space_at({(x + 0.5) / s, (y + 0.5) / s});
      im.labels.at<int16_t>(y, x) = static_cast<int16_t>(label);
      if (label >= 0) im.ring.push_back(y * s + x);
    }
  im.foreground_share.assign(static_cast<size_t>(map.space_count()), 0.0);
  const int cells = (s + cell - 1) / cell;
  im.ring_per_space.assign(static_cast<size_t>(map.space_count()), 0);
  for (int i : im.ring) {
    im.ring_cell.push_back(i / s / cell * cells + i % s / cell);
    ++im.ring_per_space[static_cast<size_t>(im.labels.at<int16_t>(i))];
  }
}

TokenLocator::~TokenLocator() = default;

const SpaceMap& TokenLocator::map() const { return impl_->map; }
const TokenLocator::Settings& TokenLocator::settings() const { return impl_->settings; }
const std::vector<double>& TokenLocator::foreground_by_space() const { return impl_->foreground_share; }
bool TokenLocator::has_reference() const { return !impl_->reference.empty(); }

void TokenLocator::top_view(const cv::Mat& frame, const Calibration& calibration, cv::Mat& out) const {
  const int s = impl_->settings.top_side;
  const Homography top_to_board({1.0 / s, 0, 0, 0, 1.0 / s, 0, 0, 0, 1});
  const Homography top_to_image = top_to_board.then(calibration.board_to_image);
  cv::warpPerspective(frame, out, cv::Matx33d(top_to_image.matrix().data()), cv::Size(s, s),
                      cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_REPLICATE);
}

void TokenLocator::top_view(const cv::Mat& frame, const Calibration& calibration, cv::Mat& out,
                            const std::vector<std::array<int, 4>>& parts) {
  Impl& im = *impl_;
  const int s = im.settings.top_side;
  assert(out.rows == s && out.cols == s && out.type() == frame.type());
  const Homography top_to_board({1.0 / s, 0, 0, 0, 1.0 / s, 0, 0, 0, 1});
  const std::array<double, 9> fit = top_to_board.then(calibration.board_to_image).matrix();
  if (im.parts_fit != fit || im.parts_of != parts) {
    // Each part warped in place, from (x, y) of the view: its maps, as cv::warpPerspective makes them.
    const cv::Matx33d top_to_image(fit.data());
    im.parts_xy.resize(parts.size());
    im.parts_weights.resize(parts.size());
    for (size_t p = 0; p < parts.size(); ++p) {
      const auto [x, y, w, h] = parts[p];
      const cv::Matx33d from_part = top_to_image * cv::Matx33d(1, 0, x, 0, 1, y, 0, 0, 1);
      std::array<double, 9> m;
      std::copy(std::begin(from_part.val), std::end(from_part.val), m.begin());
      detail::perspective_maps(m, w, h, im.parts_xy[p], im.parts_weights[p]);
    }
    im.parts_fit = fit;
    im.parts_of = parts;
  }
  for (size_t p = 0; p < parts.size(); ++p) {
    const auto [x, y, w, h] = parts[p];
    cv::Mat part = out(cv::Rect(x, y, w, h));
    cv::remap(frame, part, im.parts_xy[p], im.parts_weights[p], cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  }
}

std::vector<TokenObservation> TokenLocator::locate(const cv::Mat& top,
                                                   const std::vector<TokenAppearance>& tokens,
                                                   const std::vector<int>& last_spaces) {
  assert(last_spaces.empty() || last_spaces.size() == tokens.size());
  impl_->last_spaces = last_spaces;
  return impl_->find(top, tokens, nullptr);
}

std::vector<TokenObservation> TokenLocator::Impl::find(const cv::Mat& top,
                                                       const std::vector<TokenAppearance>& tokens,
                                                       const std::vector<Point2>* near) {
  Impl& im = *this;
  const int s = im.settings.top_side;
  assert(!im.reference.empty() && top.rows == s && top.cols == s && top.type() == CV_8UC3);
  const cv::Vec3f gain = im.white_balance(top);
  const cv::Vec3f unit(1, 1, 1);
  // Pass 1 made thirteen divisions a ring pixel (perf at 720p: about a third of find()'s own time on them):
  // six were the reference's features, the same every frame while it is (kept per ring pixel, checked
  // against a copy of the reference: 480 KB compared, 25 thousand instructions), three the light's colour
  // (a table).
  const bool reference_same = im.ring_reference.size() == im.ring.size() &&
                              im.ring_reference_of.size() == im.reference.size() &&
                              im.ring_reference_of.type() == im.reference.type() &&
                              im.reference.isContinuous() && im.ring_reference_of.isContinuous() &&
                              std::memcmp(im.reference.data, im.ring_reference_of.data,
                                          im.reference.total() * im.reference.elemSize()) == 0;
  if (!reference_same) {
    im.ring_reference.resize(im.ring.size());
    for (size_t k = 0; k < im.ring.size(); ++k)
      im.ring_reference[k] = features(im.reference.at<cv::Vec3b>(im.ring[k]), unit);
    im.reference.copyTo(im.ring_reference_of);
  }
  im.current_top = &top;
  im.token_area.resize(tokens.size());
  for (size_t t = 0; t < tokens.size(); ++t) im.token_area[t] = tokens[t].area_px;
  im.faint_fresh = false;
  im.faint_planes_current = false;

  // Pass 1: colour change against the reference, and the brightness ratio that feeds the light field.
  const size_t ring_size = im.ring.size();
  im.ratio.resize(ring_size);
  im.chroma_fg.resize(ring_size);
  const int cells = (s + cell - 1) / cell;
  im.lsum = cv::Mat::zeros(cells, cells, CV_32F);
  im.lcount = cv::Mat::zeros(cells, cells, CV_32F);
  const float mean_gain = (gain[0] + gain[1] + gain[2]) / 3;
  const cv::Vec3f chroma_gain = gain / mean_gain;
  im.last_chroma_gain = chroma_gain;
  im.last_mean_gain = mean_gain;
  im.claimed = cv::Mat::zeros(s, s, CV_8U);
  const GainedFeatures gained(chroma_gain);
  const auto* top_px = top.ptr<cv::Vec3b>();
  auto* light_sum = im.lsum.ptr<float>();
  auto* light_count = im.lcount.ptr<float>();
  for (size_t k = 0; k < ring_size; ++k) {
    const Features f = gained(top_px[im.ring[k]]);
    const Features& r = im.ring_reference[k];
    const double q = (f.i + 0.02) / (r.i * mean_gain + 0.02);
    im.ratio[k] = static_cast<float>(q);
    const bool dark = f.i < 0.1 && r.i < 0.1;
    const bool changed = !dark && chroma_distance(f, r) > im.settings.chroma_threshold;
    im.chroma_fg[k] = changed;
    if (!changed && q > 0.2 && q < 3.0) {
      light_sum[im.ring_cell[k]] += static_cast<float>(q);
      light_count[im.ring_cell[k]] += 1.0f;
    }
  }
  // A grey or black token changes no colour, so its pixels feed the light field and darken their cell as
  // if a small shadow lay there: the token would then hide in its own shadow. Shadows and light changes
  // span many cells, a token one or two: a grey closing of the cells' light (largest of the neighbours,
  // then smallest) lifts the token-sized dips and keeps a shadow's straight edge where it is. Only where
  // it is needed: while tokens are put down alone (any colour may come) or when a learned token is
  // neutral. Coloured tokens never feed the field, and their outlines, which tell tokens of one colour
  // apart, are kept exactly as measured (closing changed a near tie between a square and a star).
  const bool neutral_token = std::any_of(tokens.begin(), tokens.end(), [](const TokenAppearance& t) {
    return chroma_distance({t.mean[0], t.mean[1], 0}, {1.0 / 3, 1.0 / 3, 0}) < 0.1;
  });
  if (neutral_token || !im.board_before.empty()) close_light_dips(im.lsum, im.lcount);
  // Normalised convolution fills cells with no background (under a hand, the board's centre).
  cv::blur(im.lsum, im.lsum, cv::Size(3, 3));
  cv::blur(im.lcount, im.lcount, cv::Size(3, 3));
  for (int pass = 0; pass < 2; ++pass) {
    cv::Mat empty = im.lcount < 1e-3;
    if (cv::countNonZero(empty) == 0) break;
    cv::Mat s2, c2;
    cv::blur(im.lsum, s2, cv::Size(5, 5));
    cv::blur(im.lcount, c2, cv::Size(5, 5));
    s2.copyTo(im.lsum, empty);
    c2.copyTo(im.lcount, empty);
  }
  cv::Mat field_cells = im.lsum / cv::max(im.lcount, 1e-3);
  field_cells.setTo(1.0, im.lcount < 1e-3);
  cv::resize(field_cells, im.field, cv::Size(s, s), 0, 0, cv::INTER_LINEAR);

  // Pass 2: foreground, cleaned of speckle.
  im.mask = cv::Mat::zeros(s, s, CV_8U);
  for (size_t k = 0; k < ring_size; ++k) {
    const int i = im.ring[k];
    const double light = im.field.at<float>(i);
    if (im.chroma_fg[k] || std::abs(im.ratio[k] / light - 1.0) > im.settings.brightness_threshold)
      im.mask.at<uint8_t>(i) = 255;
  }
  const cv::Mat kernel = cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(3, 3));
  cv::morphologyEx(im.mask, im.mask, cv::MORPH_OPEN, kernel);
  cv::morphologyEx(im.mask, im.mask, cv::MORPH_CLOSE, kernel);
  detail::label_blobs(im.mask, im.blobs, im.stats);

  // Pass 3: each foreground pixel to the token it matches; tokens alike in colour count as one group, whose
  // pixels are gathered per blob and told apart by outline afterwards.
  const int spaces = im.map.space_count();
  std::vector<int> group(tokens.size());
  for (size_t t = 0; t < tokens.size(); ++t) {
    group[t] = static_cast<int>(t);
    for (size_t u = 0; u < t && !tokens[t].faint(); ++u)
      if (!tokens[u].faint() && alike(tokens[t], tokens[u])) {
        group[t] = group[u];
        break;
      }
  }
  im.token_group = group;
  std::map<std::pair<int, int>, Tally> by_blob;  // (group, blob)
  std::vector<int> fg_per_space(static_cast<size_t>(spaces), 0);
  const std::vector<int>& px_per_space = im.ring_per_space;
  const uint8_t* mask_px = im.mask.ptr<uint8_t>();
  for (size_t k = 0; k < ring_size; ++k) {
    const int i = im.ring[k];
    if (!mask_px[i]) continue;
    const int space = im.labels.at<int16_t>(i);
    ++fg_per_space[static_cast<size_t>(space)];
    if (tokens.empty()) continue;
    Features f = gained(top_px[i]);
    f.i /= mean_gain * im.field.at<float>(i);
    const int t = im.token_at(f, tokens);
    if (t < 0) continue;
    auto& tally = by_blob[{group[static_cast<size_t>(t)], im.blobs.at<int>(i)}];
    if (tally.per_space.empty()) tally.per_space.assign(static_cast<size_t>(spaces), 0);
    ++tally.per_space[static_cast<size_t>(space)];
    tally.pixels.push_back(i);
  }
  for (int sp = 0; sp < spaces; ++sp)
    im.foreground_share[static_cast<size_t>(sp)] =
        px_per_space[static_cast<size_t>(sp)]
            ? double(fg_per_space[static_cast<size_t>(sp)]) / px_per_space[static_cast<size_t>(sp)]
            : 0;

  std::vector<TokenObservation> out(tokens.size());
  for (size_t t = 0; t < tokens.size(); ++t) out[t].token = static_cast<int>(t);
  std::map<int, double> blob_brightness;
  auto brightness_of = [&](int blob) {
    if (const auto it = blob_brightness.find(blob); it != blob_brightness.end()) return it->second;
    const cv::Rect box(im.stats.at<int>(blob, cv::CC_STAT_LEFT), im.stats.at<int>(blob, cv::CC_STAT_TOP),
                       im.stats.at<int>(blob, cv::CC_STAT_WIDTH), im.stats.at<int>(blob, cv::CC_STAT_HEIGHT));
    std::vector<double> levels;
    for (int y = box.y; y < box.y + box.height; ++y)
      for (int x = box.x; x < box.x + box.width; ++x) {
        if (im.blobs.at<int>(y, x) != blob) continue;
        const int i = y * s + x;
        levels.push_back(features(top.at<cv::Vec3b>(i), chroma_gain).i / (mean_gain * im.field.at<float>(i)));
      }
    return blob_brightness[blob] = std::max(0.01, median(levels));
  };
  // Grey or black, found by its pixels (a faint white token is found apart, by its place's score).
  auto neutral = [](const TokenAppearance& t) {
    return !t.faint() && chroma_distance({t.mean[0], t.mean[1], 0}, {1.0 / 3, 1.0 / 3, 0}) < 0.1;
  };
  // A grey or black token's brightness is its colour: of two blobs that both match its pixels, the one
  // clearly nearer its learned brightness (by more than a factor of two) is its own; the other is a
  // token of the other neutral look, or a shadow.
  auto clearly_own = [&](size_t t, int own, int other) {
    if (!neutral(tokens[t]) || own == other) return false;
    const double level = std::log(std::max(0.01, tokens[t].mean[2]));
    return std::abs(std::log(brightness_of(other)) - level) - std::abs(std::log(brightness_of(own)) - level) >
           std::log(2.0);
  };
  // Per token told by colour alone: its foreground blob, and every blob nearly as much like it.
  std::vector<int> component(tokens.size(), -1);
  std::vector<std::vector<int>> looks_like(tokens.size());
  std::vector<std::vector<const Tally*>> others_found(tokens.size());  // a lone token's blobs not its own
  std::vector<Tally> joined_pieces(tokens.size());             // a lone token's blob in two pieces, joined
  std::vector<const Tally*> own_blob(tokens.size(), nullptr);  // a lone token's blob
  for (size_t first = 0; first < tokens.size(); ++first) {
    if (group[first] != static_cast<int>(first) || tokens[first].faint()) continue;
    std::vector<size_t> members;
    double smallest = 1e18, largest = 0;
    for (size_t t = first; t < tokens.size(); ++t)
      if (group[t] == static_cast<int>(first)) {
        members.push_back(t);
        smallest = std::min(smallest, tokens[t].area_px);
        largest = std::max(largest, tokens[t].area_px);
      }
    // Too small is noise; far too large is a sleeve or a hand of the token's colour (or, for a group,
    // two of its tokens touching).
    std::vector<Tally*> found;
    std::vector<Tally> parts;  // a group's blobs split where its own colour does not connect
    parts.reserve(64);
    for (auto it = by_blob.lower_bound({static_cast<int>(first), 0});
         it != by_blob.end() && it->first.first == static_cast<int>(first); ++it) {
      if (members.size() > 1) {
        // Two tokens of one look standing close share a foreground blob through their shadows and rims;
        // their own colour seldom touches.
        for (auto& part : split_by_colour(it->second, s))
          if (parts.size() < parts.capacity()) parts.push_back(std::move(part));
        continue;
      }
      const double count = static_cast<double>(it->second.pixels.size());
      if (count < std::max(6.0, 0.25 * smallest) || count > 3.0 * largest) continue;
      found.push_back(&it->second);
    }
    if (near && members.size() > 1) im.split_touching(parts, members, *near, s);
    for (Tally& part : parts) {
      const double count = static_cast<double>(part.pixels.size());
      // At setup the areas learned so far are of a stricter mask (a soft picture's token is twice as large
      // here): only where it stands says which blob is a token.
      if (count >= std::max(6.0, 0.25 * smallest) && (near || count <= 2.6 * largest)) found.push_back(&part);
    }
    std::sort(found.begin(), found.end(),
              [](const Tally* a, const Tally* b) { return a->pixels.size() > b->pixels.size(); });
    for (Tally* b : found) {
      b->shape = shape_of(b->pixels, s, &b->centre);
      if (members.size() > 1) b->cap = im.cap_of(*b, top, chroma_gain);
      // Grey and black tokens of one group differ in brightness (their outlines blur alike).
      if (members.size() > 1 && neutral(tokens[first])) {
        std::vector<double> levels;
        levels.reserve(b->pixels.size());
        for (int i : b->pixels)
          levels.push_back(features(top.at<cv::Vec3b>(i), chroma_gain).i /
                           (mean_gain * im.field.at<float>(i)));
        b->brightness = std::max(0.01, median(levels));
      }
    }
    // A blob where a token of another look stood, untouched, is that token's; one unchanged since the
    // last decision, while the group's only token stood elsewhere, is not it.
    if (!near)
      std::erase_if(found, [&](const Tally* b) {
        return im.held_by_another(members, *b) ||
               (members.size() == 1 &&
                im.stood_elsewhere(members.front(), *b, tokens[members.front()].area_px));
      });
    if (members.size() == 1) {
      const size_t t = members.front();
      if (found.empty()) continue;
      // A soft view breaks a token's blob in two (its sheen, a blurred rim): a second piece on the same
      // space, within the token's reach, the two together no larger than it, is the same token, not a
      // second place that looks like it.
      const double area = tokens[t].area_px;
      const auto main_space = [](const Tally& b) {
        return std::max_element(b.per_space.begin(), b.per_space.end()) - b.per_space.begin();
      };
      const auto pieces_of_one = [&](const Tally& a, const Tally& b) {
        const double na = static_cast<double>(a.pixels.size()), nb = static_cast<double>(b.pixels.size());
        return main_space(a) == main_space(b) && na + nb <= 1.5 * area &&
               std::hypot(a.centre.x - b.centre.x, a.centre.y - b.centre.y) <= 1.2 * std::sqrt(area);
      };
      const auto join = [&](const Tally& a, const Tally& b) {
        const double na = static_cast<double>(a.pixels.size()), nb = static_cast<double>(b.pixels.size());
        Tally both = a;
        both.pixels.insert(both.pixels.end(), b.pixels.begin(), b.pixels.end());
        for (size_t sp = 0; sp < both.per_space.size(); ++sp) both.per_space[sp] += b.per_space[sp];
        both.centre = {(a.centre.x * na + b.centre.x * nb) / (na + nb),
                       (a.centre.y * na + b.centre.y * nb) / (na + nb)};
        return both;
      };
      Tally& joined = joined_pieces[t];
      // Untouched where it stood when last decided, its blob is its own even when a larger one of its
      // look has come (in a shadow or dim light another neutral token, moved, matches it): a hand moves one
      // token at a time, and this one's pixels did not change. Its blob then may have been two pieces of a
      // soft view, joined (below), and is found again as the same two pieces (hard1/blur: the metal grey
      // token held so, and the black one moved beside it, were asked about as a pair that might have
      // swapped).
      bool held = !near && im.untouched(t, *found.front(), area);
      for (auto it = found.begin() + 1; !near && !held && it != found.end(); ++it)
        if (im.untouched(t, **it, area)) {
          std::rotate(found.begin(), it, it + 1);
          held = true;
        }
      for (size_t i = 0; !near && !held && i < found.size(); ++i)
        for (size_t j = i + 1; !held && j < found.size(); ++j) {
          if (!pieces_of_one(*found[i], *found[j])) continue;
          Tally both = join(*found[i], *found[j]);
          if (!im.untouched(t, both, area)) continue;
          joined = std::move(both);
          found.erase(found.begin() + static_cast<long>(j));
          found[i] = &joined;
          std::rotate(found.begin(), found.begin() + static_cast<long>(i),
                      found.begin() + static_cast<long>(i) + 1);
          held = true;
        }
      if (!near && !held)
        for (auto it = found.begin() + 1; it != found.end(); ++it) {
          if (!pieces_of_one(*found.front(), **it)) continue;
          joined = join(*found.front(), **it);
          found.erase(it);
          found.front() = &joined;
          break;
        }
      out[t] = observe(static_cast<int>(t), *found.front(), tokens[t].area_px);
      own_blob[t] = found.front();
      component[t] = im.blobs.at<int>(found.front()->pixels.front());
      for (const Tally* b : found)
        if (b->pixels.size() >= 0.5 * found.front()->pixels.size())
          looks_like[t].push_back(im.blobs.at<int>(b->pixels.front()));
      for (int i : found.front()->pixels) im.claimed.at<uint8_t>(i) = 255;
      others_found[t].assign(found.begin() + 1, found.end());
      // Untouched where it stood when last decided: another blob like it is not this token.
      out[t].untouched = !near && im.untouched(t, *found.front(), tokens[t].area_px);
      if (!out[t].untouched && found.size() > 1 &&
          found[1]->pixels.size() >= 0.5 * found.front()->pixels.size() &&
          !clearly_own(t, component[t], im.blobs.at<int>(found[1]->pixels.front())))
        ask_between(out[t], *found[1]);  // two places look like this token
      continue;
    }
    assign_by_outline(members, found, tokens, near, out);
  }
  // A grey token in a shadow (or a black one in bright light) may match only the other neutral token's
  // look: every pixel of it goes to that one, and it would be said hidden. While that other token is
  // untouched on its own blob, a blob of its look that has come since the last decision, of about the
  // unseen token's size and the only such one, is the unseen token (a hand moves one token at a time).
  for (size_t t = 0; t < tokens.size() && !near; ++t) {
    if (out[t].visible || !neutral(tokens[t])) continue;
    const Tally* arrived = nullptr;
    int count = 0;
    for (size_t u = 0; u < tokens.size(); ++u) {
      if (u == t || !neutral(tokens[u]) || !out[u].untouched) continue;
      for (const Tally* b : others_found[u]) {
        const double size = static_cast<double>(b->pixels.size()) / tokens[t].area_px;
        if (size > 0.6 && size < 1.5 && im.changed_share(*b) > 0.5) arrived = b, ++count;
      }
    }
    if (count != 1) continue;
    out[t] = observe(static_cast<int>(t), *arrived, tokens[t].area_px);
    component[t] = im.blobs.at<int>(arrived->pixels.front());
    for (int i : arrived->pixels) im.claimed.at<uint8_t>(i) = 255;
  }
  // A metal grey token in a shadow: its shaded side matches the black token's look and its lit side its
  // own, one foreground blob whose pixels the two looks share out (hard1/shadow: 62 pixels of the grey
  // token's look and 39 of the black one's, their centres a pixel apart, 0.44 of the grey token's size
  // with the next space near: a question). While the black token stands untouched on its own blob, the
  // pixels of its look in the grey one's blob, new since the last decision, are the grey token's: a hand
  // moves one token at a time. Only for a token seen under its size and nowhere else (no question).
  std::vector<Tally> with_shaded_side(tokens.size());
  for (size_t t = 0; t < tokens.size() && !near; ++t) {
    if (!own_blob[t] || !out[t].visible || out[t].untouched || out[t].visible_fraction >= 1.0 ||
        !neutral(tokens[t]))
      continue;
    const double own_size = static_cast<double>(own_blob[t]->pixels.size());
    if (std::any_of(others_found[t].begin(), others_found[t].end(),
                    [&](const Tally* b) { return static_cast<double>(b->pixels.size()) >= 0.5 * own_size; }))
      continue;
    Tally& whole = with_shaded_side[t];
    whole = *own_blob[t];
    bool grew = false;
    for (size_t u = 0; u < tokens.size(); ++u) {
      if (u == t || !neutral(tokens[u]) || !out[u].untouched) continue;
      for (const Tally* b : others_found[u]) {
        if (im.blobs.at<int>(b->pixels.front()) != component[t] || im.changed_share(*b) <= 0.5 ||
            static_cast<double>(whole.pixels.size() + b->pixels.size()) > 1.5 * tokens[t].area_px)
          continue;
        whole.pixels.insert(whole.pixels.end(), b->pixels.begin(), b->pixels.end());
        for (size_t sp = 0; sp < whole.per_space.size(); ++sp) whole.per_space[sp] += b->per_space[sp];
        grew = true;
      }
    }
    if (!grew) continue;
    whole.shape = shape_of(whole.pixels, s, &whole.centre);
    out[t] = observe(static_cast<int>(t), whole, tokens[t].area_px);
    for (int i : whole.pixels) im.claimed.at<uint8_t>(i) = 255;
  }
  // Grey and black tokens differ only in brightness: in a shadow or dim light one matches the other. Two
  // of them where one's blob looks like the other too may have swapped: both are questions (a grey
  // token's move was once reported onto the black one's space, the black one taking the grey's blob).
  // Unless the two blobs' brightness says which is which: a blob's median brightness (its top, rim and
  // shadow together, under the light's correction) pairs with the tokens' learned brightness clearly
  // better one way than swapped. A shadow or dim light over both changes both blobs alike, not which of
  // them is the brighter.
  auto told_apart = [&](size_t a, size_t b) {
    if (component[a] == component[b]) return false;  // touching: one blob for both
    const double la = std::log(brightness_of(component[a])), lb = std::log(brightness_of(component[b]));
    const double ta = std::log(std::max(0.01, tokens[a].mean[2])),
                 tb = std::log(std::max(0.01, tokens[b].mean[2]));
    const double direct = std::abs(la - ta) + std::abs(lb - tb),
                 swapped = std::abs(la - tb) + std::abs(lb - ta);
    return swapped - direct > std::log(2.0);
  };
  // One blob (they touch) holding a token's worth of each one's own pixels, both sure on one space where
  // one of them stood already (the other moved onto it): swapping them changes no token's space. The
  // pixels were given to each by colour, and disjointly: a blob of one token and its rim cannot hold two
  // tokens' worth.
  auto one_space_holds_both = [&](size_t a, size_t b) {
    const double sure = im.settings.unsure_below;
    for (size_t t : {a, b})
      if (!out[t].visible || out[t].confidence < sure || out[t].visible_fraction < 0.6 ||
          out[t].visible_fraction > 1.5)
        return false;
    if (out[a].space != out[b].space) return false;
    return !im.last_spaces.empty() &&
           (im.last_spaces[a] == out[a].space || im.last_spaces[b] == out[a].space);
  };
  for (size_t a = 0; a < tokens.size() && !near; ++a)
    for (size_t b = a + 1; b < tokens.size(); ++b) {
      auto seen_in = [&](size_t t, int blob) {
        return std::find(looks_like[t].begin(), looks_like[t].end(), blob) != looks_like[t].end();
      };
      if (component[a] < 0 || component[b] < 0 || !neutral(tokens[a]) || !neutral(tokens[b])) continue;
      if (!seen_in(a, component[b]) && !seen_in(b, component[a])) continue;
      if (told_apart(a, b)) continue;
      // One of them untouched on its own blob, the other elsewhere: they cannot have swapped.
      if (component[a] != component[b] && (out[a].untouched || out[b].untouched)) continue;
      if (component[a] == component[b] && one_space_holds_both(a, b)) continue;
      for (size_t t : {a, b}) im.hold_to_question(out[t], t, out[t == a ? b : a].space);
    }
  // A token seen off its last space at under half its size, centred on another token seen whole and sure,
  // is a question, not a move: two tokens cannot stand that close, so the piece is likely the other one's
  // shaded side or rim (OpenCV 4.10's frames: a metal grey token at 0.48 of its size reported onto the
  // space a blue one had just reached, its piece 4 pixels from the blue one's centre, while it stood still
  // on GO). A token moved onto a place of its own and seen at under half its size (in a shadow) is told as
  // before.
  const auto centred_on_another = [&](size_t t) {
    for (size_t u = 0; u < tokens.size(); ++u)
      if (u != t && out[u].visible && out[u].confidence >= im.settings.unsure_below &&
          out[u].visible_fraction >= 0.6 &&
          std::hypot(out[t].centre.x - out[u].centre.x, out[t].centre.y - out[u].centre.y) <
              0.5 * std::sqrt(tokens[u].area_px))
        return true;
    return false;
  };
  for (size_t t = 0; t < tokens.size() && !im.last_spaces.empty(); ++t) {
    if (!out[t].visible || out[t].visible_fraction >= 0.5 || out[t].space == im.last_spaces[t] ||
        !centred_on_another(t))
      continue;
    im.hold_to_question(out[t], t);
  }
  // A white token on pale paper: by its place's score, clear of everything the colours above explained.
  if (!near) im.locate_faint(tokens, out);
  return out;
}

TokenObservation TokenLocator::Impl::observe(int token, const Tally& blob, double area) const {
  TokenObservation o;
  o.token = token;
  const double total = static_cast<double>(blob.pixels.size());
  o.visible = true;
  o.visible_fraction = total / area;
  o.blob_pixels = total;
  o.shape = blob.shape;
  o.cap = blob.cap;
  o.outline_cut = blob.divided;
  o.centre = blob.centre;
  std::vector<std::pair<double, int>> shares;
  for (size_t sp = 0; sp < blob.per_space.size(); ++sp)
    if (blob.per_space[sp] > 0) shares.emplace_back(blob.per_space[sp] / total, static_cast<int>(sp));
  std::sort(shares.rbegin(), shares.rend());
  o.space = shares.front().second;
  const double visibility = std::min(1.0, o.visible_fraction / 0.6);
  o.confidence = shares.front().first * visibility;
  for (const auto& [share, sp] : shares)
    if (share >= 0.15) o.candidates.push_back(sp);
  return o;
}

void TokenLocator::Impl::hold_to_question(TokenObservation& o, size_t t, std::optional<int> other) const {
  o.confidence = std::min(o.confidence, 0.5);
  auto add = [&o](int space) {
    if (std::find(o.candidates.begin(), o.candidates.end(), space) == o.candidates.end())
      o.candidates.push_back(space);
  };
  if (other) add(*other);
  if (!last_spaces.empty()) add(last_spaces[t]);
}

void TokenLocator::Impl::ask_between(TokenObservation& o, const Tally& other) const {
  // Two places look like this token: a question for the table, never a guess.
  o.confidence = std::min(o.confidence, 0.5);
  const auto most = std::max_element(other.per_space.begin(), other.per_space.end());
  const int where = static_cast<int>(most - other.per_space.begin());
  if (std::find(o.candidates.begin(), o.candidates.end(), where) == o.candidates.end())
    o.candidates.push_back(where);
}

void TokenLocator::set_empty_reference(const cv::Mat& top) {
  const int s = impl_->settings.top_side;
  assert(top.rows == s && top.cols == s && top.type() == CV_8UC3);
  impl_->reference = top.clone();
}

void TokenLocator::rewarp_reference(const Calibration& taken_with, const Calibration& now) {
  Impl& im = *impl_;
  if (im.reference.empty()) return;
  const int s = im.settings.top_side;
  // A top-view pixel through `now` shows the image point that, through `taken_with`, was this top pixel.
  const Homography top_to_board({1.0 / s, 0, 0, 0, 1.0 / s, 0, 0, 0, 1});
  const Homography board_to_top({1.0 * s, 0, 0, 0, 1.0 * s, 0, 0, 0, 1});
  const Homography new_to_old =
      top_to_board.then(now.board_to_image).then(taken_with.image_to_board).then(board_to_top);
  for (cv::Mat* look : {&im.reference, &im.board_before}) {
    if (look->empty()) continue;
    cv::Mat rewarped;
    cv::warpPerspective(*look, rewarped, cv::Matx33d(new_to_old.matrix().data()), cv::Size(s, s),
                        cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_REPLICATE);
    *look = rewarped;
  }
}

std::expected<void, std::string> TokenLocator::save_reference(const std::string& png_path) const {
  if (impl_->reference.empty()) return std::unexpected("there is no board reference yet; calibrate first");
  if (auto written = write_image(png_path, impl_->reference); !written)
    return std::unexpected(written.error().message);
  return {};
}

std::expected<void, std::string> TokenLocator::load_reference(const std::string& png_path) {
  cv::Mat image;
  const int s = impl_->settings.top_side;
  if (auto read = read_image(png_path, ImageColour::colour, image); !read)
    return std::unexpected(read.error().message + "; run the set-up again");
  if (image.rows != s || image.cols != s)
    return std::unexpected(png_path + " was made for another top-view size; run the set-up again");
  impl_->reference = image;
  return {};
}

}  // namespace bb::vision
