#include "vision/token_locator.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>
#include <numbers>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <optional>

#include "vision/marker_patch.h"

namespace bb::vision {

namespace {

constexpr int cell = 16;  // illumination field resolution, top-view pixels

struct Features {
  double r, g, i;  // chromaticity and brightness 0..1
};

// L1 distance of chromaticities (blue's share is 1 - r - g, so it counts too).
inline double chroma_distance(const Features& a, const Features& b) {
  const double dr = a.r - b.r, dg = a.g - b.g;
  return std::abs(dr) + std::abs(dg) + std::abs(dr + dg);
}

inline Features features(const cv::Vec3b& p, const cv::Vec3f& gain) {
  const double b = p[0] / gain[0], g = p[1] / gain[1], r = p[2] / gain[2];
  const double s = b + g + r + 3.0;
  return {r / s, g / s, (b + g + r) / (3 * 255.0)};
}

// Two tokens whose colours the per-pixel match cannot keep apart: within about two spreads on every axis.
bool alike(const TokenAppearance& a, const TokenAppearance& b) {
  double d = 0;
  for (size_t c = 0; c < 3; ++c) {
    const double z = (a.mean[c] - b.mean[c]) / (a.spread[c] + b.spread[c]);
    d += z * z;
  }
  return d < 4.0;
}

ShapeFeatures shape_of(const std::vector<int>& pixels, int side, Point2* centre) {
  const double n = static_cast<double>(pixels.size());
  double cx = 0, cy = 0;
  for (int i : pixels) cx += i % side, cy += i / side;
  cx /= n;
  cy /= n;
  double xx = 0, yy = 0, xy = 0, reach = 0;
  for (int i : pixels) {
    const double dx = i % side - cx, dy = i / side - cy;
    xx += dx * dx, yy += dy * dy, xy += dx * dy;
    reach = std::max(reach, dx * dx + dy * dy);
  }
  // Pixels are squares: each adds 1/12 to its own second moment, and reaches half a pixel further.
  xx = xx / n + 1.0 / 12, yy = yy / n + 1.0 / 12, xy /= n;
  const double root = std::sqrt((xx - yy) * (xx - yy) + 4 * xy * xy);
  const double major = (xx + yy + root) / 2, minor = (xx + yy - root) / 2;
  const double radius = std::sqrt(reach) + 0.5;
  *centre = {cx, cy};
  return {(xx + yy) / n, major > 0 ? std::max(0.0, minor) / major : 1.0,
          n / (std::numbers::pi * radius * radius)};
}

double median(std::vector<double>& v) {
  if (v.empty()) return 1.0;
  auto mid = v.begin() + static_cast<long>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

}  // namespace

// The pixels of one colour group within one foreground blob.
struct Tally {
  std::vector<int> per_space;  // pixels on each space
  std::vector<int> pixels;     // top-view indices
  ShapeFeatures shape;
  CapFeatures cap;
  Point2 centre;
};

struct TokenLocator::Impl {
  SpaceMap map;
  Settings settings;
  MarkerLayout markers;
  cv::Mat labels;         // CV_16S: space under each top-view pixel, -1 none
  std::vector<int> ring;  // indices of pixels on a space
  cv::Mat reference;      // CV_8UC3 top view of the empty board
  std::vector<double> foreground_share;
  // Scratch, kept between frames to avoid allocation in the steady state.
  cv::Mat mask, blobs, stats, centroids, lsum, lcount, field;
  std::vector<float> ratio;
  std::vector<int> last_spaces;  // of the current locate() call, empty when unknown
  std::vector<uint8_t> chroma_fg;
  // Of the last find(): foreground pixels given to a learned token's blob, and the light's correction.
  mutable cv::Mat claimed;
  cv::Vec3f last_chroma_gain{1, 1, 1};
  float last_mean_gain = 1;

  cv::Vec3f white_balance(const cv::Mat& top) const;
  // locate(); with `near` (top-view pixels per token) tokens of one colour are told apart by position
  // instead of outline, for measuring them at setup.
  std::vector<TokenObservation> find(const cv::Mat& top, const std::vector<TokenAppearance>& tokens,
                                     const std::vector<Point2>* near);
  int token_at(const Features& f, const std::vector<TokenAppearance>& tokens) const;
  TokenObservation observe(int token, const Tally& blob, double area) const;
  std::vector<Tally> split_by_colour(const Tally& tally, int side) const;
  CapFeatures cap_of(const Tally& blob, const cv::Mat& top, const cv::Vec3f& gain) const;
  void ask_between(TokenObservation& o, const Tally& other) const;
  void assign_by_outline(const std::vector<size_t>& members, const std::vector<Tally*>& blobs,
                         const std::vector<TokenAppearance>& tokens, const std::vector<Point2>* near,
                         std::vector<TokenObservation>& out) const;
};

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

int TokenLocator::Impl::token_at(const Features& f, const std::vector<TokenAppearance>& tokens) const {
  int best = -1;
  double best_d = 16.0;  // squared distance in spreads: about four standard deviations
  for (size_t k = 0; k < tokens.size(); ++k) {
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

std::vector<TokenAppearance> TokenLocator::learn(const cv::Mat& top, int start_space) {
  Impl& im = *impl_;
  const int s = im.settings.top_side;
  assert(top.rows == s && top.cols == s && top.type() == CV_8UC3);
  im.reference = top.clone();

  // The paper's colour: the median over the rest of the ring, which is mostly unprinted.
  std::array<std::vector<double>, 3> channels;
  for (size_t k = 0; k < im.ring.size(); k += 7) {
    const int i = im.ring[k];
    if (im.labels.at<int16_t>(i) == start_space) continue;
    const cv::Vec3b p = top.at<cv::Vec3b>(i);
    for (int ch = 0; ch < 3; ++ch) channels[static_cast<size_t>(ch)].push_back(p[ch]);
  }
  const cv::Vec3b paper(cv::saturate_cast<uchar>(median(channels[0])),
                        cv::saturate_cast<uchar>(median(channels[1])),
                        cv::saturate_cast<uchar>(median(channels[2])));
  const cv::Vec3f unit(1, 1, 1);
  const Features pf = features(paper, unit);

  // Tokens: coloured, not ink (dark), not the paper or the marker's white. Where the start corner's marker
  // is, the empty look is rebuilt from its known pattern: tokens standing on it are learned like the rest,
  // and the reference under them is the marker, not paper.
  cv::Mat candidate = cv::Mat::zeros(s, s, CV_8U);
  const int corner_id = start_space / im.map.spaces_per_side();
  const bool start_is_corner = start_space % im.map.spaces_per_side() == 0;
  std::optional<MarkerPatch> marker;
  if (start_is_corner)
    marker = rebuild_marker_patch(top, corner_id, im.markers, {paper[0], paper[1], paper[2]});
  const Features marker_white =
      marker ? features(cv::Vec3b(marker->white[0], marker->white[1], marker->white[2]), unit) : pf;
  for (int i : im.ring) {
    if (im.labels.at<int16_t>(i) != start_space) continue;
    const int x = i % s, y = i / s;
    // The board's outer rim blends with the table when the view is soft: no token is learned from it.
    const int rim = std::max(2, s / 100);
    if (x < rim || y < rim || x >= s - rim || y >= s - rim) continue;
    const Features f = features(top.at<cv::Vec3b>(i), unit);
    // Only clearly coloured pixels: a token's soft edge, blended with the paper, would join neighbours.
    // Dark tokens in a shadow are still well above black, whose chromaticity is only noise. On the marker
    // the neutral is its white (the black cells are too dark to count).
    const Features& neutral = marker && marker->contains(x, y) ? marker_white : pf;
    if (chroma_distance(f, neutral) > 0.25 && f.i > 0.1 * pf.i) candidate.at<uint8_t>(i) = 255;
  }
  const cv::Mat kernel = cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(3, 3));
  // Opening with a 5x5 disc breaks the thin necks between tokens standing close.
  cv::morphologyEx(candidate, candidate, cv::MORPH_CLOSE, kernel);
  cv::morphologyEx(candidate, candidate, cv::MORPH_OPEN,
                   cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(5, 5)));
  cv::Mat cc;
  const int n = cv::connectedComponents(candidate, cc, 8, CV_32S);
  const double w = im.map.space_width() * s;
  const double min_area = 0.04 * w * w, max_area = 1.2 * w * w;

  std::vector<std::vector<int>> pieces(static_cast<size_t>(n));
  for (int i = 0; i < s * s; ++i)
    if (const int b = cc.at<int>(i); b > 0) pieces[static_cast<size_t>(b)].push_back(i);

  struct Found {
    TokenAppearance look;
    double distance;
    std::vector<int> pixels;
    Point2 centre;  // top-view pixels
  };
  std::vector<Found> found;
  const Point2 corner = im.map.point_in_space(start_space, 0, 0);
  static constexpr std::array<double, 3> floor{0.02, 0.02, 0.08};
  // Tokens that touch form one blob of two colours: split such blobs by colour until each is one token.
  std::vector<std::vector<int>> queue(pieces.begin() + 1, pieces.end());
  std::vector<int> caps;  // pixels of caps stuck on the tokens
  while (!queue.empty()) {
    std::vector<int> piece = std::move(queue.back());
    queue.pop_back();
    if (piece.size() < min_area) continue;
    std::array<double, 3> sum{}, sq{};
    cv::Mat samples(static_cast<int>(piece.size()), 2, CV_32F);
    double cx = 0, cy = 0;
    for (size_t k = 0; k < piece.size(); ++k) {
      const Features f = features(top.at<cv::Vec3b>(piece[k]), unit);
      const std::array<double, 3> v{f.r, f.g, f.i};
      for (size_t c = 0; c < 3; ++c) sum[c] += v[c], sq[c] += v[c] * v[c];
      samples.at<float>(static_cast<int>(k), 0) = static_cast<float>(f.r);
      samples.at<float>(static_cast<int>(k), 1) = static_cast<float>(f.g);
      cx += piece[k] % s;
      cy += piece[k] / s;
    }
    const double count = static_cast<double>(piece.size());
    std::array<double, 3> mean{}, spread{};
    for (size_t c = 0; c < 3; ++c) {
      mean[c] = sum[c] / count;
      spread[c] = std::sqrt(std::max(0.0, sq[c] / count - mean[c] * mean[c]));
    }
    if (std::max(spread[0], spread[1]) > 0.06 && piece.size() >= 2 * min_area) {
      cv::Mat labels, centres;
      cv::kmeans(samples, 2, labels,
                 cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 20, 1e-3), 3,
                 cv::KMEANS_PP_CENTERS, centres);
      std::vector<int> a, b;
      for (size_t k = 0; k < piece.size(); ++k)
        (labels.at<int>(static_cast<int>(k)) ? b : a).push_back(piece[k]);
      const Features ca{centres.at<float>(0, 0), centres.at<float>(0, 1), 0};
      const Features cb{centres.at<float>(1, 0), centres.at<float>(1, 1), 0};
      // A cap: a smaller patch of another colour in the middle. The token is learned from its body's
      // colour; the cap is measured later, inside the outline, and painted out of the reference here.
      const auto& small = a.size() < b.size() ? a : b;
      const auto& large = a.size() < b.size() ? b : a;
      double sx = 0, sy = 0;
      for (int i : small) sx += i % s, sy += i / s;
      const double n_small = std::max<double>(1.0, static_cast<double>(small.size()));
      const double off = std::hypot(sx / n_small - cx / count, sy / n_small - cy / count);
      if (chroma_distance(ca, cb) > 0.25 && small.size() < 0.45 * count &&
          off < 0.35 * std::sqrt(count / std::numbers::pi) && large.size() >= min_area) {
        caps.insert(caps.end(), small.begin(), small.end());
        queue.push_back(large);
        continue;
      }
      // Two tokens, not one token and its shading: clearly different colours, both of token size, side by
      // side (a token on the marker's black and white cells, smeared by JPEG, splits into parts of two
      // hues that overlap). Each part loses the blend along the contact by an opening, and may fall into
      // pieces.
      double ax = 0, ay = 0, bx = 0, by = 0;
      for (int i : a) ax += i % s, ay += i / s;
      for (int i : b) bx += i % s, by += i / s;
      const double na = std::max<double>(1.0, static_cast<double>(a.size())),
                   nb = std::max<double>(1.0, static_cast<double>(b.size()));
      const bool side_by_side =
          std::hypot(ax / na - bx / nb, ay / na - by / nb) > std::sqrt(count / std::numbers::pi);
      if (chroma_distance(ca, cb) > 0.25 && side_by_side &&
          std::min(a.size(), b.size()) >= std::max(min_area, 0.25 * count)) {
        for (auto* part : {&a, &b}) {
          cv::Mat mask = cv::Mat::zeros(s, s, CV_8U), parts;
          for (int i : *part) mask.at<uint8_t>(i) = 255;
          cv::morphologyEx(mask, mask, cv::MORPH_OPEN, kernel);
          const int m = cv::connectedComponents(mask, parts, 8, CV_32S);
          std::vector<std::vector<int>> split(static_cast<size_t>(m));
          for (int i : *part)
            if (const int l = parts.at<int>(i); l > 0) split[static_cast<size_t>(l)].push_back(i);
          for (int l = 1; l < m; ++l) queue.push_back(std::move(split[static_cast<size_t>(l)]));
        }
        continue;
      }
    }
    if (count > max_area) continue;
    Found f;
    for (size_t c = 0; c < 3; ++c) {
      f.look.mean[c] = mean[c];
      f.look.spread[c] = std::max(floor[c], spread[c]);
    }
    f.look.area_px = count;
    cv::Mat mask = cv::Mat::zeros(s, s, CV_8U);
    for (int i : piece) mask.at<uint8_t>(i) = 255;
    double hu[7];
    cv::HuMoments(cv::moments(mask, true), hu);
    for (size_t c = 0; c < 7; ++c)
      f.look.hu[c] = hu[c] == 0 ? 0 : -std::copysign(1.0, hu[c]) * std::log10(std::abs(hu[c]));
    f.distance = std::hypot((cx / count + 0.5) / s - corner.x, (cy / count + 0.5) / s - corner.y);
    f.centre = {cx / count, cy / count};
    f.pixels = std::move(piece);
    found.push_back(std::move(f));
  }
  // A cap that came apart from its token's body is a piece in the middle of a larger one: not a token.
  for (size_t k = 0; k < found.size();) {
    bool cap = false;
    for (size_t o = 0; o < found.size() && !cap; ++o) {
      const double own = static_cast<double>(found[k].pixels.size()),
                   other = static_cast<double>(found[o].pixels.size());
      cap = o != k && other > 1.5 * own &&
            std::hypot(found[k].centre.x - found[o].centre.x, found[k].centre.y - found[o].centre.y) <
                0.6 * std::sqrt(other / std::numbers::pi);
    }
    if (!cap) {
      ++k;
      continue;
    }
    caps.insert(caps.end(), found[k].pixels.begin(), found[k].pixels.end());
    found.erase(found.begin() + static_cast<long>(k));
  }
  std::sort(found.begin(), found.end(),
            [](const Found& a, const Found& b) { return a.distance < b.distance; });

  // Paint the tokens out of the reference: under them is the start space's paper.
  cv::Mat painted = cv::Mat::zeros(s, s, CV_8U);
  std::vector<TokenAppearance> tokens;
  std::vector<Point2> centres;
  for (size_t k = 0; k < found.size(); ++k) {
    found[k].look.name = "T" + std::to_string(k + 1);
    tokens.push_back(found[k].look);
    centres.push_back(found[k].centre);
    for (int i : found[k].pixels) painted.at<uint8_t>(i) = 255;
  }
  for (int i : caps) painted.at<uint8_t>(i) = 255;
  cv::dilate(painted, painted, kernel, cv::Point(-1, -1), 2);
  im.reference.setTo(cv::Scalar(paper[0], paper[1], paper[2]), painted);
  if (marker)
    for (int y = marker->y; y < marker->y + marker->height; ++y)
      for (int x = marker->x; x < marker->x + marker->width; ++x)
        if (painted.at<uint8_t>(y, x)) {
          const auto c = marker->at(x, y);
          im.reference.at<cv::Vec3b>(y, x) = cv::Vec3b(c[0], c[1], c[2]);
        }

  // Measure each token's area and outline the way locate() will see them, so that visibility and shape
  // compare like with like. Tokens of one colour are told apart here by where they stand.
  if (!tokens.empty()) {
    const auto seen = im.find(top, tokens, &centres);
    for (size_t k = 0; k < tokens.size(); ++k) {
      if (seen[k].visible_fraction > 0.3) tokens[k].area_px *= seen[k].visible_fraction;
      tokens[k].shape = seen[k].shape;
      tokens[k].cap = seen[k].cap;
    }
  }
  return tokens;
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
  for (size_t k = 0; k < ring_size; ++k) {
    const int i = im.ring[k];
    const Features f = features(top.at<cv::Vec3b>(i), chroma_gain);
    const Features r = features(im.reference.at<cv::Vec3b>(i), unit);
    const double q = (f.i + 0.02) / (r.i * mean_gain + 0.02);
    im.ratio[k] = static_cast<float>(q);
    const bool dark = f.i < 0.1 && r.i < 0.1;
    const bool changed = !dark && chroma_distance(f, r) > im.settings.chroma_threshold;
    im.chroma_fg[k] = changed;
    if (!changed && q > 0.2 && q < 3.0) {
      const int x = i % s, y = i / s;
      im.lsum.at<float>(y / cell, x / cell) += static_cast<float>(q);
      im.lcount.at<float>(y / cell, x / cell) += 1.0f;
    }
  }
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
  cv::connectedComponentsWithStats(im.mask, im.blobs, im.stats, im.centroids, 8, CV_32S);

  // Pass 3: each foreground pixel to the token it matches; tokens alike in colour count as one group, whose
  // pixels are gathered per blob and told apart by outline afterwards.
  const int spaces = im.map.space_count();
  std::vector<int> group(tokens.size());
  for (size_t t = 0; t < tokens.size(); ++t) {
    group[t] = static_cast<int>(t);
    for (size_t u = 0; u < t; ++u)
      if (alike(tokens[t], tokens[u])) {
        group[t] = group[u];
        break;
      }
  }
  std::map<std::pair<int, int>, Tally> by_blob;  // (group, blob)
  std::vector<int> fg_per_space(static_cast<size_t>(spaces), 0), px_per_space(static_cast<size_t>(spaces), 0);
  for (size_t k = 0; k < ring_size; ++k) {
    const int i = im.ring[k];
    const int space = im.labels.at<int16_t>(i);
    ++px_per_space[static_cast<size_t>(space)];
    if (!im.mask.at<uint8_t>(i)) continue;
    ++fg_per_space[static_cast<size_t>(space)];
    if (tokens.empty()) continue;
    Features f = features(top.at<cv::Vec3b>(i), chroma_gain);
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
  for (size_t first = 0; first < tokens.size(); ++first) {
    if (group[first] != static_cast<int>(first)) continue;
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
    for (Tally& part : parts) {
      const double count = static_cast<double>(part.pixels.size());
      if (count >= std::max(6.0, 0.25 * smallest) && count <= 2.6 * largest) found.push_back(&part);
    }
    std::sort(found.begin(), found.end(),
              [](const Tally* a, const Tally* b) { return a->pixels.size() > b->pixels.size(); });
    for (Tally* b : found) {
      b->shape = shape_of(b->pixels, s, &b->centre);
      if (members.size() > 1) b->cap = im.cap_of(*b, top, chroma_gain);
    }
    if (members.size() == 1) {
      const size_t t = members.front();
      if (found.empty()) continue;
      out[t] = observe(static_cast<int>(t), *found.front(), tokens[t].area_px);
      for (int i : found.front()->pixels) im.claimed.at<uint8_t>(i) = 255;
      if (found.size() > 1 && found[1]->pixels.size() >= 0.5 * found.front()->pixels.size())
        ask_between(out[t], *found[1]);  // two places look like this token
      continue;
    }
    assign_by_outline(members, found, tokens, near, out);
  }
  return out;
}

void TokenLocator::Impl::assign_by_outline(const std::vector<size_t>& members,
                                           const std::vector<Tally*>& all_blobs,
                                           const std::vector<TokenAppearance>& tokens,
                                           const std::vector<Point2>* near,
                                           std::vector<TokenObservation>& out) const {
  // Every way of giving the group's tokens to its largest blobs (or to none: covered), scored by outline
  // (or, at setup, by position). A blob twice a token's size is two of them touching and may take two,
  // with no say about which is which. The best way is taken for each token whose blob no nearly as good
  // way changes; the others become questions between the blobs those ways give them. The ways grow as
  // (blobs + 1) to the power of tokens: beyond five look-alikes only the two largest blobs are weighed
  // and every answer is a question.
  const size_t n = members.size();
  const bool too_many = n > 5;
  const std::vector<Tally*> found(
      all_blobs.begin(),
      all_blobs.begin() + static_cast<long>(std::min(all_blobs.size(), too_many ? 2 : n + 2)));
  double mean_area = 0;
  for (size_t m : members) mean_area += tokens[m].area_px / static_cast<double>(n);
  // In shape_distance's units; the size of a blob against the learned area counts too (a token's area
  // varies by 3-10% between frames).
  constexpr double absent_cost = 6.0, pair_cost = 3.0, margin = 3.0, size_scale = 0.12, stay_bonus = 2.0;
  auto cost = [&](size_t m, const Tally& b) {
    const double count = static_cast<double>(b.pixels.size());
    const double size = std::abs(std::log(count / tokens[m].area_px)) / size_scale;
    if (near) {
      // At setup only the blob where the token stands is it (the areas learned so far are of a stricter
      // mask, so size says nothing yet).
      const Point2 p = (*near)[m];
      const double off = std::hypot(p.x - b.centre.x, p.y - b.centre.y);
      return off > 5.0 ? 1e6 : off / 4.0;
    }
    if (count > 1.6 * mean_area) return pair_cost;
    // Usually one token moves at a time: the others' blobs are still on their spaces.
    const bool stayed = !last_spaces.empty() && b.per_space[static_cast<size_t>(last_spaces[m])] * 2 >
                                                    static_cast<int>(b.pixels.size());
    const double prior = stayed ? -stay_bonus : 0.0;
    if (!tokens[m].shape.known()) return prior;  // an old set-up without outlines: only where it stood
    return shape_distance(tokens[m].shape, b.shape) + cap_distance(tokens[m].cap, b.cap) + size + prior;
  };
  std::vector<int> choice(n, -1), best_choice(n, -1);
  std::vector<int> used(found.size(), 0);
  std::vector<double> best_with(n * (found.size() + 1), 1e18);  // per token and blob (last: none)
  double best = 1e18;
  auto search = [&](auto&& self, size_t i, double total) -> void {
    if (i == n) {
      if (total < best) best = total, best_choice = choice;
      for (size_t k = 0; k < n; ++k) {
        const size_t slot = choice[k] < 0 ? found.size() : static_cast<size_t>(choice[k]);
        double& b = best_with[k * (found.size() + 1) + slot];
        b = std::min(b, total);
      }
      return;
    }
    choice[i] = -1;
    self(self, i + 1, total + absent_cost);
    for (size_t b = 0; b < found.size(); ++b) {
      const int capacity = !near && found[b]->pixels.size() > 1.6 * mean_area ? 2 : 1;
      if (used[b] >= capacity) continue;
      ++used[b];
      choice[i] = static_cast<int>(b);
      self(self, i + 1, total + cost(members[i], *found[b]));
      --used[b];
    }
    choice[i] = -1;
  };
  search(search, 0, 0.0);
  for (size_t k = 0; k < n; ++k) {
    const size_t t = members[k];
    if (best_choice[k] < 0) continue;  // covered, or gone
    const Tally& mine = *found[static_cast<size_t>(best_choice[k])];
    out[t] = observe(static_cast<int>(t), mine, tokens[t].area_px);
    for (int i : mine.pixels) claimed.at<uint8_t>(i) = 255;
    const bool shared = mine.pixels.size() > 1.6 * mean_area;
    if (shared) out[t].visible_fraction = std::min(1.0, out[t].visible_fraction / 2);
    for (size_t b = 0; b < found.size(); ++b) {
      if (static_cast<int>(b) == best_choice[k]) continue;
      if (best_with[k * (found.size() + 1) + b] < best + margin) ask_between(out[t], *found[b]);
    }
    // A token whose outline could not be learned (it touched another of its look at setup) makes every
    // answer in its group a guess, unless a token simply stayed where it was.
    bool unknown_outline = false;
    for (size_t m : members) unknown_outline |= !tokens[m].shape.known();
    const bool stayed = !last_spaces.empty() && out[t].space == last_spaces[t];
    if (best_with[k * (found.size() + 1) + found.size()] < best + margin ||
        (!near && (unknown_outline || too_many) && !stayed)) {
      // The blob might as well be another of the same look, this token being covered or elsewhere.
      out[t].confidence = std::min(out[t].confidence, 0.5);
      if (!last_spaces.empty() && std::find(out[t].candidates.begin(), out[t].candidates.end(),
                                            last_spaces[t]) == out[t].candidates.end())
        out[t].candidates.push_back(last_spaces[t]);
    }
  }
}

CapFeatures TokenLocator::Impl::cap_of(const Tally& blob, const cv::Mat& top, const cv::Vec3f& gain) const {
  // A cap is foreground of another colour in the middle of the token's own colour.
  const int side = top.cols;
  const double n = static_cast<double>(blob.pixels.size());
  const double reach = 0.55 * std::sqrt(n / std::numbers::pi);
  const int x0 = std::max(0, static_cast<int>(blob.centre.x - reach)),
            x1 = std::min(side - 1, static_cast<int>(blob.centre.x + reach + 1));
  const int y0 = std::max(0, static_cast<int>(blob.centre.y - reach)),
            y1 = std::min(side - 1, static_cast<int>(blob.centre.y + reach + 1));
  if (x1 < x0 || y1 < y0) return {};
  cv::Mat own = cv::Mat::zeros(y1 - y0 + 1, x1 - x0 + 1, CV_8U);
  for (int i : blob.pixels) {
    const int x = i % side, y = i / side;
    if (x >= x0 && x <= x1 && y >= y0 && y <= y1) own.at<uint8_t>(y - y0, x - x0) = 1;
  }
  double r = 0, g = 0, count = 0;
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x) {
      if (std::hypot(x - blob.centre.x, y - blob.centre.y) > reach) continue;
      if (own.at<uint8_t>(y - y0, x - x0) || !mask.at<uint8_t>(y, x)) continue;
      const Features f = features(top.at<cv::Vec3b>(y, x), gain);
      r += f.r, g += f.g, ++count;
    }
  if (count == 0) return {};
  return {count / n, r / count, g / count};
}

std::vector<Tally> TokenLocator::Impl::split_by_colour(const Tally& tally, int side) const {
  int x0 = side, y0 = side, x1 = 0, y1 = 0;
  for (int i : tally.pixels) {
    x0 = std::min(x0, i % side), x1 = std::max(x1, i % side);
    y0 = std::min(y0, i / side), y1 = std::max(y1, i / side);
  }
  cv::Mat local = cv::Mat::zeros(y1 - y0 + 1, x1 - x0 + 1, CV_8U), labels_here;
  for (int i : tally.pixels) local.at<uint8_t>(i / side - y0, i % side - x0) = 255;
  const int n = cv::connectedComponents(local, labels_here, 8, CV_32S);
  std::vector<Tally> parts(static_cast<size_t>(std::max(0, n - 1)));
  for (auto& p : parts) p.per_space.assign(tally.per_space.size(), 0);
  for (int i : tally.pixels) {
    Tally& p = parts[static_cast<size_t>(labels_here.at<int>(i / side - y0, i % side - x0) - 1)];
    p.pixels.push_back(i);
    ++p.per_space[static_cast<size_t>(labels.at<int16_t>(i))];
  }
  return parts;
}

TokenObservation TokenLocator::Impl::observe(int token, const Tally& blob, double area) const {
  TokenObservation o;
  o.token = token;
  const double total = static_cast<double>(blob.pixels.size());
  o.visible = true;
  o.visible_fraction = total / area;
  o.shape = blob.shape;
  o.cap = blob.cap;
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

std::expected<NewToken, std::string> TokenLocator::find_new_token(const cv::Mat& top) {
  Impl& im = *impl_;
  const int s = im.settings.top_side;
  if (im.reference.empty() || im.mask.empty() || im.claimed.empty())
    return std::unexpected("the empty board is not known yet");
  // Foreground no learned token took, without the slivers along learned tokens' edges.
  cv::Mat unexplained = im.mask & ~im.claimed;
  cv::Mat near_claimed;
  cv::dilate(im.claimed, near_claimed, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(5, 5)));
  unexplained.setTo(0, near_claimed);
  cv::morphologyEx(unexplained, unexplained, cv::MORPH_OPEN,
                   cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(5, 5)));
  cv::Mat labels, stats, centroids;
  const int n = cv::connectedComponentsWithStats(unexplained, labels, stats, centroids, 8, CV_32S);
  const double w = im.map.space_width() * s;
  const double min_area = 0.06 * w * w, max_area = 0.6 * w * w;  // a token is about 0.15 w^2 with its rim
  auto feature_at = [&](int i) {
    Features f = features(top.at<cv::Vec3b>(i), im.last_chroma_gain);
    f.i /= im.last_mean_gain * im.field.at<float>(i);
    return f;
  };
  // The paper, to tell a place left bare from a token put down.
  std::array<std::vector<double>, 3> channels;
  for (size_t k = 0; k < im.ring.size(); k += 11) {
    const cv::Vec3b p = im.reference.at<cv::Vec3b>(im.ring[k]);
    for (int ch = 0; ch < 3; ++ch) channels[static_cast<size_t>(ch)].push_back(p[ch]);
  }
  const cv::Vec3b paper(cv::saturate_cast<uchar>(median(channels[0])),
                        cv::saturate_cast<uchar>(median(channels[1])),
                        cv::saturate_cast<uchar>(median(channels[2])));
  const Features pf = features(paper, cv::Vec3f(1, 1, 1));
  int chosen = -1, count = 0;
  for (int b = 1; b < n; ++b) {
    const int area = stats.at<int>(b, cv::CC_STAT_AREA);
    if (area < min_area || area > max_area) continue;
    const cv::Rect box(stats.at<int>(b, cv::CC_STAT_LEFT), stats.at<int>(b, cv::CC_STAT_TOP),
                       stats.at<int>(b, cv::CC_STAT_WIDTH), stats.at<int>(b, cv::CC_STAT_HEIGHT));
    int bare = 0;
    for (int y = box.y; y < box.y + box.height; ++y)
      for (int x = box.x; x < box.x + box.width; ++x) {
        if (labels.at<int>(y, x) != b) continue;
        const Features f = feature_at(y * s + x);
        bare += chroma_distance(f, pf) < im.settings.chroma_threshold && std::abs(f.i / pf.i - 1) < 0.2;
      }
    if (bare > 0.7 * area) {
      // Left bare: from now on this is the board here (in the reference's light).
      cv::Mat place = labels(box) == b;
      cv::dilate(place, place, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(7, 7)));
      for (int y = 0; y < box.height; ++y)
        for (int x = 0; x < box.width; ++x) {
          if (!place.at<uint8_t>(y, x)) continue;
          const int i = (box.y + y) * s + box.x + x;
          const float light = im.last_mean_gain * im.field.at<float>(i);
          const cv::Vec3b c = top.at<cv::Vec3b>(i);
          cv::Vec3b& r = im.reference.at<cv::Vec3b>(i);
          for (int ch = 0; ch < 3; ++ch)
            r[ch] = cv::saturate_cast<uchar>(c[ch] / (light * im.last_chroma_gain[ch]));
        }
      continue;
    }
    chosen = b;
    ++count;
  }
  if (count == 0) return std::unexpected("nothing new is on the board");
  if (count > 1)
    return std::unexpected("more than one new thing is on the board; put one token down at a time");

  // Its colour from the inside (the rim, the shadow and the soft edge are left out), in the units locate()
  // compares with: chromaticity under the light's correction, brightness over the light field.
  cv::Mat blob = labels == chosen, core;
  cv::erode(blob, core, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(5, 5)));
  if (cv::countNonZero(core) < 6) core = blob;
  std::array<double, 3> sum{}, sq{};
  double core_n = 0;
  for (int i = 0; i < s * s; ++i) {
    if (!core.at<uint8_t>(i)) continue;
    const Features f = feature_at(i);
    const std::array<double, 3> v{f.r, f.g, f.i};
    for (size_t c = 0; c < 3; ++c) sum[c] += v[c], sq[c] += v[c] * v[c];
    ++core_n;
  }
  static constexpr std::array<double, 3> floor{0.02, 0.02, 0.08};
  NewToken found;
  for (size_t c = 0; c < 3; ++c) {
    found.look.mean[c] = sum[c] / core_n;
    found.look.spread[c] = std::max(
        floor[c], std::sqrt(std::max(0.0, sq[c] / core_n - found.look.mean[c] * found.look.mean[c])));
  }
  // Its size and outline as locate() will see them: the blob's pixels its colour claims.
  const std::vector<TokenAppearance> alone{found.look};
  std::vector<int> pixels, per_space(static_cast<size_t>(im.map.space_count()), 0);
  for (int i = 0; i < s * s; ++i) {
    if (!blob.at<uint8_t>(i) || im.labels.at<int16_t>(i) < 0) continue;
    if (im.token_at(feature_at(i), alone) < 0) continue;
    pixels.push_back(i);
    ++per_space[static_cast<size_t>(im.labels.at<int16_t>(i))];
  }
  if (pixels.size() < 0.5 * min_area)
    return std::unexpected("the new thing on the board has no single colour; is it a token?");
  found.look.area_px = static_cast<double>(pixels.size());
  cv::Mat mask = cv::Mat::zeros(s, s, CV_8U);
  for (int i : pixels) mask.at<uint8_t>(i) = 255;
  double hu[7];
  cv::HuMoments(cv::moments(mask, true), hu);
  for (size_t c = 0; c < 7; ++c)
    found.look.hu[c] = hu[c] == 0 ? 0 : -std::copysign(1.0, hu[c]) * std::log10(std::abs(hu[c]));
  found.look.shape = shape_of(pixels, s, &found.centre);
  found.space = static_cast<int>(std::max_element(per_space.begin(), per_space.end()) - per_space.begin());
  return found;
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
  cv::Mat rewarped;
  cv::warpPerspective(im.reference, rewarped, cv::Matx33d(new_to_old.matrix().data()), cv::Size(s, s),
                      cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_REPLICATE);
  im.reference = rewarped;
}

std::expected<void, std::string> TokenLocator::save_reference(const std::string& png_path) const {
  if (impl_->reference.empty()) return std::unexpected("there is no board reference yet; calibrate first");
  if (!cv::imwrite(png_path, impl_->reference))
    return std::unexpected("cannot write " + png_path + "; check the folder exists and is writable");
  return {};
}

std::expected<void, std::string> TokenLocator::load_reference(const std::string& png_path) {
  cv::Mat image = cv::imread(png_path, cv::IMREAD_COLOR);
  const int s = impl_->settings.top_side;
  if (image.empty()) return std::unexpected("cannot read " + png_path + "; run the set-up again");
  if (image.rows != s || image.cols != s)
    return std::unexpected(png_path + " was made for another top-view size; run the set-up again");
  impl_->reference = image;
  return {};
}

}  // namespace bb::vision
