#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>
#include <opencv2/imgproc.hpp>
#include <optional>

#include "vision/marker_patch.h"
#include "vision/token_locator_impl.h"
#include "vision/token_names.h"

// Learning the tokens: all together on the start space (GO, also on its marker), or one put down alone,
// by its difference from the empty board.

namespace bb::vision {

using locator_detail::alike;
using locator_detail::cell;
using locator_detail::chroma_distance;
using locator_detail::features;
using locator_detail::log_hu_moments;
using locator_detail::median;
using locator_detail::shape_of;

namespace {

// Fills each piece of `mask` out to its convex outline (pieces of a few pixels are left as they are).
void fill_convex(cv::Mat& mask) {
  std::vector<std::vector<cv::Point>> pieces;
  cv::findContours(mask, pieces, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
  std::vector<cv::Point> hull;
  for (const auto& piece : pieces) {
    if (piece.size() < 3) continue;
    cv::convexHull(piece, hull);
    cv::fillConvexPoly(mask, hull, cv::Scalar(255));
  }
}

// Fills the holes inside each piece of `mask` (what the outside cannot reach).
void fill_holes(cv::Mat& mask) {
  cv::Mat outside = cv::Mat::zeros(mask.rows + 2, mask.cols + 2, CV_8U);
  mask.copyTo(outside(cv::Rect(1, 1, mask.cols, mask.rows)));
  cv::floodFill(outside, cv::Point(0, 0), cv::Scalar(128));
  mask.setTo(255, outside(cv::Rect(1, 1, mask.cols, mask.rows)) == 0);
}

// Splits chromaticity samples (one row of red, green per pixel) into two colours by k-means from the same
// start every time: the line from the mean to the sample farthest from it, cut halfway (k-means's own
// start is random, and the same frames must learn the same tokens). `labels` gets 0 or 1 per sample,
// `centres` the two colours; returns the farthest sample's distance from the mean (how far apart the
// colours can be at most).
double split_two_colours(const cv::Mat& samples, cv::Mat& labels, cv::Mat& centres) {
  double mr = 0, mg = 0;
  for (int k = 0; k < samples.rows; ++k) mr += samples.at<float>(k, 0), mg += samples.at<float>(k, 1);
  mr /= std::max(1, samples.rows), mg /= std::max(1, samples.rows);
  int far = 0;
  double far_d = -1;
  for (int k = 0; k < samples.rows; ++k) {
    const double d = std::hypot(samples.at<float>(k, 0) - mr, samples.at<float>(k, 1) - mg);
    if (d > far_d) far_d = d, far = k;
  }
  const double dr = samples.at<float>(far, 0) - mr, dg = samples.at<float>(far, 1) - mg;
  labels.create(samples.rows, 1, CV_32S);
  for (int k = 0; k < samples.rows; ++k)
    labels.at<int>(k) = (samples.at<float>(k, 0) - mr) * dr + (samples.at<float>(k, 1) - mg) * dg > 0;
  cv::kmeans(samples, 2, labels, cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 20, 1e-3),
             1, cv::KMEANS_USE_INITIAL_LABELS, centres);
  return far_d;
}

cv::Vec3b median_colour(std::array<std::vector<double>, 3>& channels) {
  return {cv::saturate_cast<uchar>(median(channels[0])), cv::saturate_cast<uchar>(median(channels[1])),
          cv::saturate_cast<uchar>(median(channels[2]))};
}

}  // namespace

std::vector<TokenAppearance> TokenLocator::learn(const cv::Mat& top, int start_space) {
  return learn(top, start_space, 0);
}

std::vector<TokenAppearance> TokenLocator::learn(const cv::Mat& top, int start_space, int expected_tokens) {
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
      split_two_colours(samples, labels, centres);
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
    f.look.hu = log_hu_moments(mask);
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
  // Grey, black and metal tokens change no colour: the coloured look above passes them over. With fewer
  // coloured tokens than the table expects, the start space is compared with its empty look, which is
  // known without them: the paper, and on the corner marker its pattern rebuilt from the calibration.
  // What is clearly darker or brighter there, token-sized and clear of the coloured tokens (their rims
  // and shadows), is a token too. Only then: a board printed on its start space would be taken for
  // tokens, and a set of coloured tokens never needs it.
  const int missing = expected_tokens - static_cast<int>(found.size());
  if (missing > 0) {
    cv::Mat near_coloured;
    cv::dilate(candidate, near_coloured, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(5, 5)),
               cv::Point(-1, -1), 2);
    // The space's printed border lines are not paper: a few pixels inside them.
    cv::Mat inside = im.labels == start_space;
    cv::erode(inside, inside, kernel, cv::Point(-1, -1), 2);
    cv::Mat neutral = cv::Mat::zeros(s, s, CV_8U);
    const int rim = std::max(2, s / 100);
    constexpr double change = 0.22;  // of the brightness: a metal grey token is about 30% darker
    // The paper's level nearby (the brightest of it within a token's width or so): a shadow over the
    // start space darkens the paper and the token alike.
    cv::Mat brightness = cv::Mat::zeros(s, s, CV_32F), paper_level;
    for (int i : im.ring) {
      const int x = i % s, y = i / s;
      // The marker's rebuilt look is too soft to tell a grey token on it from its own black cells.
      const bool usable = inside.at<uint8_t>(i) && !near_coloured.at<uint8_t>(i) &&
                          !(x < rim || y < rim || x >= s - rim || y >= s - rim) &&
                          !(marker && marker->contains(x, y));
      if (usable) brightness.at<float>(i) = static_cast<float>(features(top.at<cv::Vec3b>(i), unit).i);
    }
    const int reach = 2 * static_cast<int>(0.5 * w) + 1;
    cv::dilate(brightness, paper_level, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(reach, reach)));
    for (int i : im.ring) {
      const float now = brightness.at<float>(i);
      if (now > 0 && now < paper_level.at<float>(i) * (1 - change)) neutral.at<uint8_t>(i) = 255;
    }
    // Print edges and speckle go first; then the hole a metal token's sheen leaves (as bright as the
    // paper) is filled, the thin necks where tokens nearly touch are broken, and what is left of each
    // token (a metal one's lit side may be missing) is filled out to its convex outline.
    cv::morphologyEx(neutral, neutral, cv::MORPH_OPEN, kernel);
    fill_holes(neutral);
    cv::morphologyEx(neutral, neutral, cv::MORPH_OPEN,
                     cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(5, 5)));
    cv::Mat parts;
    const int m = cv::connectedComponents(neutral, parts, 8, CV_32S);
    std::vector<std::vector<int>> pieces_left(static_cast<size_t>(std::max(0, m - 1)));
    for (int i = 0; i < s * s; ++i)
      if (const int b = parts.at<int>(i); b > 0) pieces_left[static_cast<size_t>(b - 1)].push_back(i);
    // Tokens standing close join through their shadows: a piece the size of several tokens is split
    // between as many, each pixel to the nearest centre (k-means on where the pixels are).
    double token_area = 0.15 * w * w;
    if (!found.empty()) {
      std::vector<double> areas;
      for (const auto& f : found) areas.push_back(static_cast<double>(f.pixels.size()));
      token_area = median(areas);
    }
    std::vector<std::vector<int>> plain_pieces;
    for (auto& piece : pieces_left) {
      // Several tokens: larger than one and drawn out (one token seen from above is about round).
      Point2 centre;
      const double size = static_cast<double>(piece.size()) / token_area;
      const bool several = size > 1.25 && shape_of(piece, s, &centre).elongation < 0.6;
      const int k = several ? std::min(missing, std::max(2, static_cast<int>(std::lround(size)))) : 1;
      if (k < 2) {
        plain_pieces.push_back(std::move(piece));
        continue;
      }
      cv::Mat where(static_cast<int>(piece.size()), 2, CV_32F), labels_here(where.rows, 1, CV_32S), centres;
      double mx = 0, my = 0;
      for (size_t q = 0; q < piece.size(); ++q) {
        where.at<float>(static_cast<int>(q), 0) = static_cast<float>(piece[q] % s);
        where.at<float>(static_cast<int>(q), 1) = static_cast<float>(piece[q] / s);
        mx += piece[q] % s, my += piece[q] / s;
      }
      mx /= static_cast<double>(piece.size()), my /= static_cast<double>(piece.size());
      // The same start every time: slices across the piece's longer side.
      const cv::Rect box = cv::boundingRect(where);
      const bool wide = box.width >= box.height;
      for (int q = 0; q < where.rows; ++q) {
        const double along = wide ? where.at<float>(q, 0) - box.x : where.at<float>(q, 1) - box.y;
        labels_here.at<int>(q) =
            std::min(k - 1, static_cast<int>(along * k / ((wide ? box.width : box.height) + 1)));
      }
      cv::kmeans(where, k, labels_here,
                 cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 20, 0.1), 1,
                 cv::KMEANS_USE_INITIAL_LABELS, centres);
      std::vector<std::vector<int>> split(static_cast<size_t>(k));
      for (size_t q = 0; q < piece.size(); ++q)
        split[static_cast<size_t>(labels_here.at<int>(static_cast<int>(q)))].push_back(piece[q]);
      for (auto& p : split) plain_pieces.push_back(std::move(p));
    }
    std::vector<Found> plain;
    for (const auto& piece : plain_pieces) {
      cv::Mat blob = cv::Mat::zeros(s, s, CV_8U), core;
      for (int i : piece) blob.at<uint8_t>(i) = 255;
      fill_convex(blob);
      const int area = cv::countNonZero(blob);
      if (area < 0.06 * w * w || area > 0.6 * w * w) continue;
      cv::erode(blob, core, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(5, 5)));
      if (cv::countNonZero(core) < 6) core = blob;
      Found f;
      std::array<double, 3> sum{}, sq{};
      double n_core = 0, cx = 0, cy = 0;
      for (int i = 0; i < s * s; ++i) {
        if (blob.at<uint8_t>(i)) f.pixels.push_back(i), cx += i % s, cy += i / s;
        if (!core.at<uint8_t>(i)) continue;
        const Features c = features(top.at<cv::Vec3b>(i), unit);
        const std::array<double, 3> v{c.r, c.g, c.i};
        for (size_t ch = 0; ch < 3; ++ch) sum[ch] += v[ch], sq[ch] += v[ch] * v[ch];
        ++n_core;
      }
      static constexpr std::array<double, 3> ceiling{0.06, 0.06, 1.0};
      for (size_t ch = 0; ch < 3; ++ch) {
        f.look.mean[ch] = sum[ch] / n_core;
        f.look.spread[ch] =
            std::clamp(std::sqrt(std::max(0.0, sq[ch] / n_core - f.look.mean[ch] * f.look.mean[ch])),
                       floor[ch], ceiling[ch]);
      }
      const double count = static_cast<double>(f.pixels.size());
      f.look.area_px = count;
      f.look.hu = log_hu_moments(blob);
      f.distance = std::hypot((cx / count + 0.5) / s - corner.x, (cy / count + 0.5) / s - corner.y);
      f.centre = {cx / count, cy / count};
      plain.push_back(std::move(f));
    }
    // The largest first: the ones missing, no more (a speckle left by the marker's rebuild is smaller).
    std::sort(plain.begin(), plain.end(),
              [](const Found& a, const Found& b) { return a.pixels.size() > b.pixels.size(); });
    for (size_t k = 0; k < plain.size() && k < static_cast<size_t>(missing); ++k)
      found.push_back(std::move(plain[k]));
  }
  std::sort(found.begin(), found.end(),
            [](const Found& a, const Found& b) { return a.distance < b.distance; });

  // Paint the tokens out of the reference: under them is the start space's paper.
  cv::Mat painted = cv::Mat::zeros(s, s, CV_8U);
  std::vector<TokenAppearance> tokens;
  std::vector<Point2> centres;
  for (size_t k = 0; k < found.size(); ++k) {
    found[k].look.name = learned_token_name(static_cast<int>(k));
    tokens.push_back(found[k].look);
    centres.push_back(found[k].centre);
    for (int i : found[k].pixels) painted.at<uint8_t>(i) = 255;
  }
  for (int i : caps) painted.at<uint8_t>(i) = 255;
  cv::dilate(painted, painted, kernel, cv::Point(-1, -1), 2);
  // At the light it stands in there: a shadow over the start space darkens its paper, and the board's
  // paper painted under a token was, once the token left, a token-sized dark place of a grey token's look
  // (in hard/shadow, taken for the metal grey token at every move). Per token, the paper's level is the
  // upper quartile of the start space's brightness around it (print is darker, the marker is left out).
  {
    cv::Mat parts;
    const int part_count = cv::connectedComponents(painted, parts, 8, CV_32S);
    const int reach = static_cast<int>(0.5 * w) + 1;
    for (int part = 1; part < part_count; ++part) {
      const cv::Mat mine = parts == part;
      const cv::Rect box =
          (cv::boundingRect(mine) + cv::Size(2 * reach, 2 * reach) - cv::Point(reach, reach)) &
          cv::Rect(0, 0, s, s);
      std::vector<double> levels;
      for (int y = box.y; y < box.y + box.height; ++y)
        for (int x = box.x; x < box.x + box.width; ++x)
          if (im.labels.at<int16_t>(y, x) == start_space && !painted.at<uint8_t>(y, x) &&
              !(marker && marker->contains(x, y)))
            levels.push_back(features(top.at<cv::Vec3b>(y, x), unit).i);
      double scale = 1.0;
      if (levels.size() >= 20) {
        auto upper = levels.begin() + static_cast<long>(levels.size() * 3 / 4);
        std::nth_element(levels.begin(), upper, levels.end());
        scale = std::clamp(*upper / std::max(0.01, pf.i), 0.3, 2.5);
      }
      // Only a clear difference (a shadow, a lamp): a few percent is the paper's own grain and print, and
      // the grey token's outline measured against the paint below shifts with it.
      if (scale > 0.87 && scale < 1.15) scale = 1.0;
      im.reference.setTo(cv::Scalar(paper[0] * scale, paper[1] * scale, paper[2] * scale), mine);
    }
  }
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
    im.learned_seen = seen;
    for (size_t k = 0; k < tokens.size(); ++k) {
      if (seen[k].visible_fraction > 0.3) tokens[k].area_px *= seen[k].visible_fraction;
      tokens[k].shape = seen[k].shape;
      tokens[k].cap = seen[k].cap;
      tokens[k].outline_cut = seen[k].outline_cut;
    }
  }
  return tokens;
}

// Where the empty board is dark (ink, a marker's black cells) a few grey levels of sensor noise are a large
// ratio of brightness: locate()'s foreground speckles there, harmlessly for tokens of a known colour, but
// a speckle filled out to its convex outline below would look like a new thing. Such pixels count as new
// only when their colour changed or their brightness changed by a share of the paper's, not of the ink's.
void TokenLocator::Impl::drop_unsteady_dark(const cv::Mat& top, cv::Mat& unexplained) const {
  const Impl& im = *this;
  const cv::Vec3f unit(1, 1, 1);
  std::vector<double> brightness;
  for (size_t k = 0; k < im.ring.size(); k += 11)
    brightness.push_back(features(im.reference.at<cv::Vec3b>(im.ring[k]), unit).i);
  const double paper = median(brightness);
  for (size_t k = 0; k < im.ring.size(); ++k) {
    const int i = im.ring[k];
    if (!unexplained.at<uint8_t>(i) || im.chroma_fg[k]) continue;
    const double light = im.last_mean_gain * im.field.at<float>(i);
    const double was = features(im.reference.at<cv::Vec3b>(i), unit).i * light;
    const double now = features(top.at<cv::Vec3b>(i), im.last_chroma_gain).i;
    if (std::abs(now - was) < im.settings.brightness_threshold * std::max(was, 0.3 * paper * light))
      unexplained.at<uint8_t>(i) = 0;
  }
}

void TokenLocator::Impl::keep_changed_since_before(const cv::Mat& top, cv::Mat& unexplained) const {
  // Moments apart in the same light: colours compare directly, a little smoothed against sensor noise
  // and JPEG. By the mean change over the three channels, as a share of the brightness there (on dark
  // print and in dim light, of a quarter of the paper's: noise there is a large ratio).
  cv::Mat now;
  cv::blur(top, now, cv::Size(3, 3));
  for (int i : ring) {
    if (!unexplained.at<uint8_t>(i)) continue;
    const cv::Vec3b a = now.at<cv::Vec3b>(i), b = board_before.at<cv::Vec3b>(i);
    const double change =
        (std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]) + std::abs(a[2] - b[2])) / (3 * 255.0);
    const double was = (b[0] + b[1] + b[2]) / (3 * 255.0);
    if (change < settings.brightness_threshold * std::max(was, 0.25 * board_before_paper))
      unexplained.at<uint8_t>(i) = 0;
  }
}

bool TokenLocator::Impl::drop_cap(std::vector<int>& core_pixels, const cv::Mat& top) const {
  const int s = top.cols;
  const double count = static_cast<double>(core_pixels.size());
  if (count < 12) return false;
  cv::Mat samples(static_cast<int>(core_pixels.size()), 2, CV_32F);
  double cx = 0, cy = 0;
  for (size_t k = 0; k < core_pixels.size(); ++k) {
    const Features f = features(top.at<cv::Vec3b>(core_pixels[k]), last_chroma_gain);
    samples.at<float>(static_cast<int>(k), 0) = static_cast<float>(f.r);
    samples.at<float>(static_cast<int>(k), 1) = static_cast<float>(f.g);
    cx += core_pixels[k] % s, cy += core_pixels[k] / s;
  }
  cx /= count, cy /= count;
  cv::Mat start, centres;
  if (split_two_colours(samples, start, centres) < 0.12) return false;  // one colour, with its shading
  std::vector<int> a, b;
  for (size_t k = 0; k < core_pixels.size(); ++k)
    (start.at<int>(static_cast<int>(k)) ? b : a).push_back(core_pixels[k]);
  const Features ca{centres.at<float>(0, 0), centres.at<float>(0, 1), 0};
  const Features cb{centres.at<float>(1, 0), centres.at<float>(1, 1), 0};
  const auto& small = a.size() < b.size() ? a : b;
  auto& large = a.size() < b.size() ? b : a;
  double sx = 0, sy = 0;
  for (int i : small) sx += i % s, sy += i / s;
  const double n_small = std::max<double>(1.0, static_cast<double>(small.size()));
  const double off = std::hypot(sx / n_small - cx, sy / n_small - cy);
  // As at setup on the start space: a smaller patch of another colour in the middle.
  if (chroma_distance(ca, cb) <= 0.25 || small.size() >= 0.45 * count ||
      off >= 0.35 * std::sqrt(count / std::numbers::pi) || large.size() < 6)
    return false;
  core_pixels = std::move(large);
  return true;
}

void TokenLocator::remember_settled_board(const cv::Mat& top) {
  Impl& im = *impl_;
  const int s = im.settings.top_side;
  assert(top.rows == s && top.cols == s && top.type() == CV_8UC3);
  cv::blur(top, im.board_before, cv::Size(3, 3));
  std::vector<double> brightness;
  for (size_t k = 0; k < im.ring.size(); k += 11)
    brightness.push_back(features(im.board_before.at<cv::Vec3b>(im.ring[k]), cv::Vec3f(1, 1, 1)).i);
  im.board_before_paper = median(brightness);
}

void TokenLocator::forget_settled_board() { impl_->board_before.release(); }

std::expected<NewToken, std::string> TokenLocator::find_new_token(const cv::Mat& top) {
  Impl& im = *impl_;
  const int s = im.settings.top_side;
  if (im.reference.empty() || im.mask.empty() || im.claimed.empty())
    return std::unexpected("the empty board is not known yet");
  cv::Mat unexplained;
  if (!im.board_before.empty()) {
    // What differs from the empty board and changed since the board was last settled (the previous token
    // learned): the tokens already down are in both looks, whatever colour the new one matches.
    unexplained = im.mask.clone();
    im.keep_changed_since_before(top, unexplained);
  } else {
    // Foreground no learned token took, without the slivers along learned tokens' edges.
    unexplained = im.mask & ~im.claimed;
    cv::Mat near_claimed;
    cv::dilate(im.claimed, near_claimed, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(5, 5)));
    unexplained.setTo(0, near_claimed);
  }
  im.drop_unsteady_dark(top, unexplained);
  // A metal token's sheen is as bright as the paper (in bright light its whole lit side is): a hole or a
  // gap in its blob that would leave only a thin ring or arc for the opening below to wipe away. A token
  // is about convex from above, so each piece is filled out to its convex outline.
  fill_convex(unexplained);
  cv::morphologyEx(unexplained, unexplained, cv::MORPH_OPEN,
                   cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(5, 5)));
  cv::Mat labels, stats, centroids;
  const int n = cv::connectedComponentsWithStats(unexplained, labels, stats, centroids, 8, CV_32S);
  const double w = im.map.space_width() * s;
  const double min_area = 0.06 * w * w, max_area = 0.6 * w * w;  // a token is about 0.15 w^2 with its rim
  // A white token on pale paper changes nothing but its thin rim, which a dim, noisy or soft view loses: a
  // cap stuck on it is then all that shows. A cap is about 0.025 w^2; the new thing counts as the token
  // (known by its cap) when it is that large, clearly coloured against the board around it, and nothing
  // token-sized is new.
  const double cap_min_area = 0.015 * w * w;
  // The white token's changed rim around its cap measures from under to a little over the smallest token
  // frame by frame (0.046 to 0.064 w^2 in one still scene): by area alone the same token flipped between
  // "a cap" and "a token", and a flip more (as floating-point rounding on another CPU gave) kept it from
  // being learned while it stood still. Up to this area (midway between the largest such cap with its rim
  // seen, 0.087 w^2 in dim light, and the smallest white token seen whole, 0.11 w^2) a piece whose
  // coloured part is one colour and no larger than two caps is the cap, however its rim measures; a
  // coloured token this small is coloured all over, far more than two caps, and a grey or metal one has
  // no coloured part.
  const double cap_rim_area = 0.1 * w * w, cap_max_area = 0.05 * w * w;
  constexpr double cap_chroma = 0.2;
  auto feature_at = [&](int i) {
    Features f = features(top.at<cv::Vec3b>(i), im.last_chroma_gain);
    f.i /= im.last_mean_gain * im.field.at<float>(i);
    return f;
  };
  const cv::Vec3f unit(1, 1, 1);
  int chosen = -1, count = 0;
  std::vector<std::vector<int>> caps_alone;  // the coloured pixels of each
  for (int b = 1; b < n; ++b) {
    const int area = stats.at<int>(b, cv::CC_STAT_AREA);
    if (area < cap_min_area || area > max_area) continue;
    const cv::Rect box(stats.at<int>(b, cv::CC_STAT_LEFT), stats.at<int>(b, cv::CC_STAT_TOP),
                       stats.at<int>(b, cv::CC_STAT_WIDTH), stats.at<int>(b, cv::CC_STAT_HEIGHT));
    // Left bare, or a token put down? Bare where the place now looks like the board around it and the
    // reference did not look like its own surroundings (something stood there when it was taken). Both
    // are compared within one small neighbourhood, so a shadow or dim light changes neither; a grey token
    // on paper, whose top and sheen are near the paper's look, is never taken into the reference as board.
    const cv::Rect around = (box + cv::Size(12, 12) - cv::Point(6, 6)) & cv::Rect(0, 0, s, s);
    std::array<std::vector<double>, 3> now_around, then_around;
    for (int y = around.y; y < around.y + around.height; ++y)
      for (int x = around.x; x < around.x + around.width; ++x) {
        if (im.mask.at<uint8_t>(y, x) || im.labels.at<int16_t>(y, x) < 0) continue;
        const cv::Vec3b c = top.at<cv::Vec3b>(y, x), r = im.reference.at<cv::Vec3b>(y, x);
        for (size_t ch = 0; ch < 3; ++ch) now_around[ch].push_back(c[ch]), then_around[ch].push_back(r[ch]);
      }
    if (now_around[0].size() < 20) continue;  // no board to compare with: not decided here
    const Features now_board = features(median_colour(now_around), unit);
    const Features then_board = features(median_colour(then_around), unit);
    auto alike_board = [&](const Features& f, const Features& board) {
      return chroma_distance(f, board) < im.settings.chroma_threshold && std::abs(f.i / board.i - 1) < 0.15;
    };
    int bare = 0;
    for (int y = box.y; y < box.y + box.height; ++y)
      for (int x = box.x; x < box.x + box.width; ++x) {
        if (labels.at<int>(y, x) != b) continue;
        bare += alike_board(features(top.at<cv::Vec3b>(y, x), unit), now_board) &&
                !alike_board(features(im.reference.at<cv::Vec3b>(y, x), unit), then_board);
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
    if (area < cap_rim_area) {
      // Smaller than a token: only a clearly coloured cap, of one colour (the piece may hold a few pixels
      // of the white body's rim beside it, which filling out to the convex outline joined). About a
      // token's least size: a cap with its rim, or a small token.
      std::vector<int> coloured;
      std::array<double, 2> sum{}, sq{};
      for (int y = box.y; y < box.y + box.height; ++y)
        for (int x = box.x; x < box.x + box.width; ++x) {
          if (labels.at<int>(y, x) != b) continue;
          const Features f = features(top.at<cv::Vec3b>(y, x), unit);
          if (chroma_distance(f, now_board) <= cap_chroma) continue;
          coloured.push_back(y * s + x);
          sum[0] += f.r, sum[1] += f.g, sq[0] += f.r * f.r, sq[1] += f.g * f.g;
        }
      const double k = static_cast<double>(coloured.size());
      const bool one_colour = k >= 0.6 * cap_min_area && sq[0] / k - sum[0] * sum[0] / (k * k) < 0.1 * 0.1 &&
                              sq[1] / k - sum[1] * sum[1] / (k * k) < 0.1 * 0.1;
      if (area < min_area) {
        if (one_colour) caps_alone.push_back(std::move(coloured));
        continue;
      }
      if (one_colour && k <= cap_max_area) {
        caps_alone.push_back(std::move(coloured));
        continue;
      }
    }
    chosen = b;
    ++count;
  }
  const bool by_cap_alone = count == 0 && caps_alone.size() == 1;
  if (by_cap_alone) {
    // The cap's own pixels are the token: its body is the board's colour.
    labels.setTo(0);
    chosen = 1, count = 1;
    for (int i : caps_alone.front()) labels.at<int>(i) = chosen;
  }
  // Nothing new by its pixels: perhaps something faint (a white token on pale paper), by its place's score.
  if (count == 0) return im.find_faint_token(top);
  if (count > 1)
    return std::unexpected("more than one new thing is on the board; put one token down at a time");

  // Its colour from the inside (the rim, the shadow and the soft edge are left out), in the units locate()
  // compares with: chromaticity under the light's correction, brightness over the light field.
  cv::Mat blob = labels == chosen, core;
  cv::erode(blob, core, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(5, 5)));
  if (by_cap_alone || cv::countNonZero(core) < 6) core = blob;
  std::vector<int> core_pixels;
  for (int i = 0; i < s * s; ++i)
    if (core.at<uint8_t>(i)) core_pixels.push_back(i);
  // A cap of another colour stuck on the token: its body's colour is what locate() matches, so the cap is
  // left out of it (a mean over both matched neither, and its spread took in other tokens' colours).
  const bool has_cap = !by_cap_alone && im.drop_cap(core_pixels, top);
  std::array<double, 3> sum{}, sq{};
  const double core_n = static_cast<double>(core_pixels.size());
  for (int i : core_pixels) {
    const Features f = feature_at(i);
    const std::array<double, 3> v{f.r, f.g, f.i};
    for (size_t c = 0; c < 3; ++c) sum[c] += v[c], sq[c] += v[c] * v[c];
  }
  static constexpr std::array<double, 3> floor{0.02, 0.02, 0.08};
  // A token is one colour: a chromaticity spread wider than this is shading or a rim of another hue
  // mixed in (a white token's shaded side around its cap), which would claim other tokens' pixels.
  static constexpr std::array<double, 3> ceiling{0.06, 0.06, 1.0};
  NewToken found;
  for (size_t c = 0; c < 3; ++c) {
    found.look.mean[c] = sum[c] / core_n;
    found.look.spread[c] =
        std::clamp(std::sqrt(std::max(0.0, sq[c] / core_n - found.look.mean[c] * found.look.mean[c])),
                   floor[c], ceiling[c]);
  }
  // Its size and outline as locate() will see them: the blob's pixels its colour claims.
  const std::vector<TokenAppearance> alone{found.look};
  std::vector<int> pixels, per_space(static_cast<size_t>(im.map.space_count()), 0);
  for (int i = 0; i < s * s; ++i) {
    // Only what locate() will count as foreground (not the parts filled out above).
    if (!blob.at<uint8_t>(i) || !im.mask.at<uint8_t>(i) || im.labels.at<int16_t>(i) < 0) continue;
    if (im.token_at(feature_at(i), alone) < 0) continue;
    pixels.push_back(i);
    ++per_space[static_cast<size_t>(im.labels.at<int16_t>(i))];
  }
  if (pixels.size() < 0.5 * (by_cap_alone ? cap_min_area : min_area))
    return std::unexpected("the new thing on the board has no single colour; is it a token?");
  found.look.area_px = static_cast<double>(pixels.size());
  cv::Mat mask = cv::Mat::zeros(s, s, CV_8U);
  for (int i : pixels) mask.at<uint8_t>(i) = 255;
  found.look.hu = log_hu_moments(mask);
  found.look.shape = shape_of(pixels, s, &found.centre);
  if (has_cap) {
    Tally body;
    body.pixels = pixels;
    body.centre = found.centre;
    found.look.cap = im.cap_of(body, top, im.last_chroma_gain);
  }
  found.by_cap_alone = by_cap_alone;
  found.space = static_cast<int>(std::max_element(per_space.begin(), per_space.end()) - per_space.begin());
  return found;
}

}  // namespace bb::vision
