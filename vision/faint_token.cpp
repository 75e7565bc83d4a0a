#include <algorithm>
#include <cmath>
#include <numbers>
#include <opencv2/imgproc.hpp>

#include "vision/token_locator_impl.h"

// Faint tokens: a white token on pale paper, found by what a token-sized region of it changes together
// (its top a little brighter, its rim and shadow darker around it), not by any pixel's colour.
//
// Measured on the accuracy bench's white1 scenes (bench_faint_token: the white token put down on 12 spaces
// per condition, 3 still frames averaged against the empty board from one frame), the change of brightness
// as a share of the paper's, the light divided out: its top +0.02 (bright light, where the paper is
// nearly white already) to +0.14, its rim -0.09 to -0.21, its shadow -0.21 to -0.37; one pixel's noise 0.002
// (bright) to 0.04 (dim). The centre-surround score below measured 0.037-0.22 at the token (its least, per
// condition, in bright light: 0.037), its noise 0.0004-0.009, and the largest score anywhere else on the
// ring of spaces 0.002-0.045 (dim, noise and JPEG views, and a shadow fallen over the board since the empty
// board was taken) but 0.095 where such a shadow falls in bright light (the paper, white in the empty
// board, shows its level again under it).

namespace bb::vision {

using locator_detail::features;
using locator_detail::log_hu_moments;
using locator_detail::median;
using locator_detail::shape_of;

namespace {

// A token's radius in top-view pixels: a token is about 0.15 of a space's width squared with its rim (as
// find_new_token takes it), a disc of 0.22 widths.
double token_radius(const SpaceMap& map, int side) { return 0.22 * map.space_width() * side; }

int odd(double v) { return std::max(3, 2 * static_cast<int>(std::lround(v / 2)) + 1); }

}  // namespace

void TokenLocator::Impl::score_faint(const cv::Mat& top) {
  const int s = settings.top_side;
  const double r = token_radius(map, s);
  const double one_token_area = std::numbers::pi * r * r;
  // Left out: what tokens seen by their colour claimed, anything of a colour (a hand, a sleeve, a token not
  // learned) and any foreground blob of half a token or more (a black token not learned yet, a resting
  // hand's shadow), with a margin for their soft edges and shadows: paper beside anything dark scores like
  // a white top in its dark ring (0.155 beside the black token put down in white1/bright, before it was
  // learned). A white token's own rim and shadow are thinner than the speckle filter: what is left of them
  // in the foreground is a few small pieces.
  const int blob_count = stats.rows;
  std::vector<int> coloured(static_cast<size_t>(blob_count), 0), held(static_cast<size_t>(blob_count), 0);
  for (size_t k = 0; k < ring.size(); ++k) {
    const int i = ring[k];
    const int blob = blobs.at<int>(i);
    if (blob <= 0) continue;
    coloured[static_cast<size_t>(blob)] += chroma_fg[k];
    held[static_cast<size_t>(blob)] += claimed.at<uint8_t>(i) != 0;
  }
  std::vector<uint8_t> leave_out(static_cast<size_t>(blob_count), 0);
  for (int b = 1; b < blob_count; ++b)
    leave_out[static_cast<size_t>(b)] = held[static_cast<size_t>(b)] > 0 ||
                                        coloured[static_cast<size_t>(b)] >= 8 ||
                                        stats.at<int>(b, cv::CC_STAT_AREA) > 0.5 * one_token_area;
  cv::Mat excluded = claimed.clone();
  for (int i : ring)
    if (const int blob = blobs.at<int>(i); blob > 0 && leave_out[static_cast<size_t>(blob)])
      excluded.at<uint8_t>(i) = 255;
  cv::dilate(excluded, excluded, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(7, 7)));

  faint_excluded = excluded;
  faint_score = faint_score_of(top);
  faint_valid = faint_score_of_valid;
  faint_noise = noise_of(faint_score, faint_valid);
  faint_fresh = true;
}

cv::Mat TokenLocator::Impl::faint_score_of(const cv::Mat& view) {
  const int s = settings.top_side;
  const double r = token_radius(map, s);
  // The change of brightness over the empty board in this light, as a share of the paper's brightness (not
  // the pixel's own: on dark print a few grey levels of noise are a large share).
  const cv::Vec3f unit(1, 1, 1);
  std::vector<double> levels;
  for (size_t k = 0; k < ring.size(); k += 11)
    levels.push_back(features(reference.at<cv::Vec3b>(ring[k]), unit).i);
  const double paper = std::max(0.05, median(levels));
  faint_change = cv::Mat::zeros(s, s, CV_32F);
  faint_weight = cv::Mat::zeros(s, s, CV_32F);
  for (int i : ring) {
    if (faint_excluded.at<uint8_t>(i)) continue;
    const double light = last_mean_gain * field.at<float>(i);
    const double now = features(view.at<cv::Vec3b>(i), last_chroma_gain).i;
    const double was = features(reference.at<cv::Vec3b>(i), unit).i;
    // Bounded: one pixel of a stray dark speck must not outweigh a token's worth of slight change.
    faint_change.at<float>(i) =
        static_cast<float>(std::clamp((now - was * light) / (paper * light), -0.6, 0.6));
    faint_weight.at<float>(i) = 1.0f;
  }
  // The score: the mean change over a square the size of a white top's middle, less the mean over the ring
  // between it and a square holding the token's rim and shadow and some paper, both over measured pixels
  // only. A white top and a dark rim both raise it; a change of light (divided out, and the same in the
  // middle and around) and misaligned print (as much brighter as darker) do not.
  const int inner = odd(r), outer = odd(2.6 * r);
  const double inner_area = inner * inner, outer_area = outer * outer;
  cv::Mat middle, middle_weight, whole, whole_weight;
  cv::boxFilter(faint_change, middle, CV_32F, cv::Size(inner, inner));
  cv::boxFilter(faint_weight, middle_weight, CV_32F, cv::Size(inner, inner));
  cv::boxFilter(faint_change, whole, CV_32F, cv::Size(outer, outer));
  cv::boxFilter(faint_weight, whole_weight, CV_32F, cv::Size(outer, outer));
  cv::Mat score = cv::Mat::zeros(s, s, CV_32F);
  faint_score_of_valid = cv::Mat::zeros(s, s, CV_8U);
  for (size_t k = 0; k < ring.size(); ++k) {
    const int i = ring[k];
    const float mw = middle_weight.at<float>(i);
    const double around_weight = whole_weight.at<float>(i) * outer_area - mw * inner_area;
    if (mw < 0.8f || around_weight < 0.5 * (outer_area - inner_area)) continue;
    const double around =
        (whole.at<float>(i) * outer_area - middle.at<float>(i) * inner_area) / around_weight;
    const float value = static_cast<float>(middle.at<float>(i) / mw - around);
    score.at<float>(i) = value;
    faint_score_of_valid.at<uint8_t>(i) = 255;
  }
  return score;
}

double TokenLocator::Impl::noise_of(const cv::Mat& score, const cv::Mat& valid) const {
  std::vector<double> spread;
  for (size_t k = 0; k < ring.size(); k += 5)
    if (valid.at<uint8_t>(ring[k])) spread.push_back(std::abs(score.at<float>(ring[k])));
  return spread.empty() ? 1.0 : 1.4826 * median(spread);  // the median absolute score, as a sigma
}

double TokenLocator::Impl::faint_floor() const { return std::max(0.05, 8 * faint_noise); }

std::vector<TokenLocator::Impl::FaintPeak> TokenLocator::Impl::faint_peaks(const cv::Mat& score, double floor,
                                                                           size_t most) const {
  std::vector<FaintPeak> peaks;
  if (score.empty()) return peaks;
  const int s = settings.top_side;
  const double r = token_radius(map, s);
  cv::Mat left = score.clone();
  left.setTo(-1.0f, faint_valid == 0);
  left.setTo(-1.0f, claimed != 0);  // a token already found there
  while (peaks.size() < most) {
    double best = 0;
    cv::Point at;
    cv::minMaxLoc(left, nullptr, &best, nullptr, &at);
    if (best < floor) break;
    // Its centre: the score-weighted centroid of the 3x3 around the best pixel (steadier than the pixel).
    double sx = 0, sy = 0, sw = 0;
    for (int y = std::max(0, at.y - 1); y <= std::min(s - 1, at.y + 1); ++y)
      for (int x = std::max(0, at.x - 1); x <= std::min(s - 1, at.x + 1); ++x)
        if (const float v = score.at<float>(y, x); v > 0) sx += v * x, sy += v * y, sw += v;
    peaks.push_back({{sw > 0 ? sx / sw : at.x, sw > 0 ? sy / sw : at.y}, best});
    cv::circle(left, at, static_cast<int>(std::ceil(2 * r)), cv::Scalar(-1.0), cv::FILLED);
  }
  return peaks;
}

std::vector<int> TokenLocator::Impl::faint_footprint(Point2 centre) const {
  const int s = settings.top_side;
  const double r = token_radius(map, s);
  std::vector<int> pixels;
  for (int y = std::max(0, static_cast<int>(centre.y - r));
       y <= std::min(s - 1, static_cast<int>(centre.y + r)); ++y)
    for (int x = std::max(0, static_cast<int>(centre.x - r));
         x <= std::min(s - 1, static_cast<int>(centre.x + r)); ++x)
      if (std::hypot(x - centre.x, y - centre.y) <= r && labels.at<int16_t>(y, x) >= 0)
        pixels.push_back(y * s + x);
  return pixels;
}

void TokenLocator::Impl::locate_faint(const std::vector<TokenAppearance>& tokens,
                                      std::vector<TokenObservation>& out) {
  std::vector<size_t> faint;
  double weakest = 1e9;
  for (size_t t = 0; t < tokens.size(); ++t)
    if (tokens[t].faint()) faint.push_back(t), weakest = std::min(weakest, tokens[t].faint_contrast);
  if (faint.empty()) return;
  score_faint(*current_top);
  // A place counts from well above the noise and from 0.4 of the score the token was learned with (its
  // score varies about twofold from space to space in bright light, where only its rim and shadow show).
  auto peaks = faint_peaks(faint_score, std::max(faint_floor(), 0.4 * weakest), faint.size() + 1);
  // Not all of them found by their place's score: what came since the last decision (bright light, a token
  // beside it; faint_token_arrived.cpp), away from the places found.
  if (peaks.size() < faint.size())
    for (const FaintPeak& arrived : faint_arrivals(weakest, faint.size() + 1 - peaks.size()))
      if (std::none_of(peaks.begin(), peaks.end(), [&](const FaintPeak& p) {
            return std::hypot(p.centre.x - arrived.centre.x, p.centre.y - arrived.centre.y) <
                   2 * token_radius(map, settings.top_side);
          }))
        peaks.push_back(arrived);
  std::vector<Tally> places;
  for (const FaintPeak& peak : peaks) {
    Tally place;
    place.pixels = faint_footprint(peak.centre);
    place.per_space.assign(static_cast<size_t>(map.space_count()), 0);
    for (int i : place.pixels) ++place.per_space[static_cast<size_t>(labels.at<int16_t>(i))];
    place.centre = peak.centre;
    places.push_back(std::move(place));
  }
  for (size_t k = 0; k < faint.size() && k < places.size(); ++k) {
    const size_t t = faint[k];
    out[t] = observe(static_cast<int>(t), places[k], tokens[t].area_px);
    for (int i : places[k].pixels) claimed.at<uint8_t>(i) = 255;
  }
  // Faint tokens look alike (white is white): with several, which is where is a question. And another place
  // scoring about as well as the weakest taken is a second place that looks like a faint token, unless it
  // lies on the space the token is seen on: then the token stands there either way (white1/warm: a second
  // peak of 0.065 beside the token's 0.092 on space 7, its shadow at the board's edge just past the first
  // peak's reach, made a question between space 7 and space 7).
  const auto main_space = [](const Tally& place) {
    return static_cast<int>(std::max_element(place.per_space.begin(), place.per_space.end()) -
                            place.per_space.begin());
  };
  const size_t taken = std::min(faint.size(), places.size());
  for (size_t k = 0; k < taken; ++k) {
    TokenObservation& o = out[faint[k]];
    for (size_t other = 0; other < places.size(); ++other) {
      const bool rival = other >= taken ? peaks[other].score >= 0.5 * peaks[taken - 1].score : other != k;
      if (rival && !(other >= taken && main_space(places[other]) == o.space)) ask_between(o, places[other]);
    }
  }
}

std::expected<NewToken, std::string> TokenLocator::Impl::find_faint_token(const cv::Mat& top) {
  if (!faint_fresh) score_faint(top);
  // Only what came since the board was last settled (the empty board, or the token learned before): where
  // nothing stands, the corner markers' print and the light field around them scored up to 0.035 in a
  // noisy view, and they scored as much before. Without a settled board (a token put down alone in play),
  // by the score itself.
  cv::Mat score = faint_score;
  double noise = faint_noise, floor = faint_floor();
  if (!board_before.empty()) {
    // The settled board's look is smoothed 3x3 (remember_settled_board): so is this view, or the print's
    // sharp edges (the markers' cells) differ between the two and score up to 0.13.
    cv::Mat smoothed;
    cv::blur(top, smoothed, cv::Size(3, 3));
    score = faint_score_of(smoothed) - faint_score_of(board_before);
    score.setTo(0.0f, faint_valid == 0);
    noise = noise_of(score, faint_valid);
    // A token's own place, new since: from well above the noise of the two views' difference.
    floor = std::max(0.025, 8 * noise);
  }
  const auto peaks = faint_peaks(score, floor, 2);
  if (peaks.empty()) return std::unexpected("nothing new is on the board");
  if (peaks.size() > 1 && peaks[1].score >= 0.5 * peaks[0].score)
    return std::unexpected("more than one new thing is on the board; put one token down at a time");
  const FaintPeak& peak = peaks.front();
  const std::vector<int> footprint = faint_footprint(peak.centre);
  if (footprint.size() < 20) return std::unexpected("nothing new is on the board");
  NewToken found;
  // Its colour from its middle (the rim and shadow left out), in locate()'s units, for what it is called;
  // locate() finds it by its score, not by its pixels' colour (they are the paper's, within noise).
  const double r = token_radius(map, settings.top_side);
  std::array<double, 3> sum{}, sq{};
  double n = 0;
  std::vector<int> per_space(static_cast<size_t>(map.space_count()), 0);
  const int s = settings.top_side;
  for (int i : footprint) {
    ++per_space[static_cast<size_t>(labels.at<int16_t>(i))];
    if (std::hypot(i % s - peak.centre.x, i / s - peak.centre.y) > 0.5 * r) continue;
    Features f = features(top.at<cv::Vec3b>(i), last_chroma_gain);
    f.i /= last_mean_gain * field.at<float>(i);
    const std::array<double, 3> v{f.r, f.g, f.i};
    for (size_t c = 0; c < 3; ++c) sum[c] += v[c], sq[c] += v[c] * v[c];
    ++n;
  }
  static constexpr std::array<double, 3> least_spread{0.02, 0.02, 0.08};
  for (size_t c = 0; c < 3; ++c) {
    found.look.mean[c] = sum[c] / std::max(1.0, n);
    found.look.spread[c] = std::max(
        least_spread[c],
        std::sqrt(std::max(0.0, sq[c] / std::max(1.0, n) - found.look.mean[c] * found.look.mean[c])));
  }
  found.look.area_px = static_cast<double>(footprint.size());
  cv::Mat disc = cv::Mat::zeros(s, s, CV_8U);
  for (int i : footprint) disc.at<uint8_t>(i) = 255;
  found.look.hu = log_hu_moments(disc);
  Point2 centre;
  found.look.shape = shape_of(footprint, s, &centre);
  found.look.faint_contrast = faint_score.at<float>(static_cast<int>(std::lround(peak.centre.y)),
                                                    static_cast<int>(std::lround(peak.centre.x)));
  found.centre = peak.centre;
  found.space = static_cast<int>(std::max_element(per_space.begin(), per_space.end()) - per_space.begin());
  return found;
}

}  // namespace bb::vision
