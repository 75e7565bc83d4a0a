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

// A point of the faint score's lattice (score_faint, faint_change_peaks): scored there, or not but with a
// pixel within one that may be.
struct LatticeSample {
  int at;  // top-view index
  float score;
  bool scored;
};

// A token's radius in top-view pixels: a token is about 0.15 of a space's width squared with its rim (as
// find_new_token takes it), a disc of 0.22 widths.
double token_radius(const SpaceMap& map, int side) { return 0.22 * map.space_width() * side; }

int odd(double v) { return std::max(3, 2 * static_cast<int>(std::lround(v / 2)) + 1); }

}  // namespace

namespace {

// The sum of a square `side` across whose top left corner is at index `at` of an integral image.
int square_sum(const int* sums, int stride, int at, int side) {
  return sums[at + side * stride + side] - sums[at + side * stride] - sums[at + side] + sums[at];
}

// Enough of the middle (0.8 of it) and of the ring around it (half) was measured for a score.
bool faint_enough(int inner_count, int around_count, int inner_area, int outer_area) {
  return static_cast<float>(inner_count / static_cast<double>(inner_area)) >= 0.8f &&
         2 * around_count >= outer_area - inner_area;
}

// The score from a view's sums (its changes' high and low bytes) over the middle and the whole square,
// whose measured pixels are counted apart. Pixels not measured hold 0 (32768). Inlined: called on its own,
// it cost score_faint 0.06 million instructions a frame more than its earlier lambda.
[[gnu::always_inline]] inline float faint_score_from(const int* high, const int* low, int stride,
                                                     int inner_at, int outer_at, int inner, int outer,
                                                     int inner_count, int around_count) {
  const int middle = 256 * square_sum(high, stride, inner_at, inner) +
                     square_sum(low, stride, inner_at, inner) - 32768 * inner * inner;
  const int all = 256 * square_sum(high, stride, outer_at, outer) + square_sum(low, stride, outer_at, outer) -
                  32768 * outer * outer;
  const double step = 0.6 / 32767;
  return static_cast<float>(
      step * (static_cast<double>(middle) / inner_count - static_cast<double>(all - middle) / around_count));
}

}  // namespace

auto TokenLocator::Impl::faint_scorer(const std::array<cv::Mat, 3>& integrals) const {
  // The score: the mean change over a square the size of a white top's middle, less the mean over the ring
  // between it and a square holding the token's rim and shadow and some paper, both over measured pixels
  // only. A white top and a dark rim both raise it; a change of light (divided out, and the same in the
  // middle and around) and misaligned print (as much brighter as darker) do not.
  const int inner = faint_inner, outer = faint_outer, stride = integrals[0].cols;
  const int inner_area = inner * inner, outer_area = outer * outer;
  // The squares' top left corners in the sums (whose first row and column are 0) are the pixel's index
  // there and that less half the difference of their sides on each axis.
  const int inner_offset = (outer / 2 - inner / 2) * (stride + 1);
  return [=, high = integrals[0].ptr<int>(), low = integrals[1].ptr<int>(),
          measured = integrals[2].ptr<int>()](int x, int y, float& score) {
    const int outer_at = y * stride + x, inner_at = outer_at + inner_offset;
    const int inner_count = square_sum(measured, stride, inner_at, inner);
    const int around_count = square_sum(measured, stride, outer_at, outer) - inner_count;
    if (!faint_enough(inner_count, around_count, inner_area, outer_area)) return false;
    score = faint_score_from(high, low, stride, inner_at, outer_at, inner, outer, inner_count, around_count);
    return true;
  };
}

// The same for two views measured alike (faint_change_peaks: the ring clear of what either left out), whose
// sums share their counts: each view's score, made as faint_scorer makes it, and the first less the second,
// where enough was measured. Each place's counts are read once for both.
auto TokenLocator::Impl::faint_change_scorer(const std::array<cv::Mat, 3>& now_sums,
                                             const std::array<cv::Mat, 3>& before_sums) const {
  const int inner = faint_inner, outer = faint_outer, stride = now_sums[0].cols;
  const int inner_area = inner * inner, outer_area = outer * outer;
  const int inner_offset = (outer / 2 - inner / 2) * (stride + 1);
  return [=, now_high = now_sums[0].ptr<int>(), now_low = now_sums[1].ptr<int>(),
          before_high = before_sums[0].ptr<int>(), before_low = before_sums[1].ptr<int>(),
          measured = now_sums[2].ptr<int>()](int x, int y, float& change, float& now) {
    const int outer_at = y * stride + x, inner_at = outer_at + inner_offset;
    const int inner_count = square_sum(measured, stride, inner_at, inner);
    const int around_count = square_sum(measured, stride, outer_at, outer) - inner_count;
    if (!faint_enough(inner_count, around_count, inner_area, outer_area)) return false;
    now = faint_score_from(now_high, now_low, stride, inner_at, outer_at, inner, outer, inner_count,
                           around_count);
    const float before = faint_score_from(before_high, before_low, stride, inner_at, outer_at, inner, outer,
                                          inner_count, around_count);
    change = now - before;
    return true;
  };
}

bool TokenLocator::Impl::faint_score_at(int x, int y, float& score) const {
  return faint_scorer(faint_sums)(x, y, score);
}

bool TokenLocator::Impl::faint_neighbour_may_score(int x, int y) const {
  // A pixel one further out counts at most a row and a column more of each square as measured.
  const int inner = faint_inner, outer = faint_outer, stride = faint_sums[0].cols;
  const int inner_reach = inner * inner - (inner - 1) * (inner - 1);
  const int around_reach = outer * outer - (outer - 1) * (outer - 1) + inner_reach;
  const int* measured = faint_sums[2].ptr<int>();
  auto measured_in = [&](int side) {
    const int at = (y + outer / 2 - side / 2) * stride + x + outer / 2 - side / 2;
    return measured[at + side * stride + side] - measured[at + side * stride] - measured[at + side] +
           measured[at];
  };
  const int inner_count = measured_in(inner), around_count = measured_in(outer) - inner_count;
  return inner_count + inner_reach >= 0.8 * inner * inner &&
         2 * (around_count + around_reach) >= outer * outer - inner * inner;
}

void TokenLocator::Impl::score_faint(const cv::Mat& top, bool whole, double least_floor) {
  const int s = settings.top_side;
  const double r = token_radius(map, s);
  const double one_token_area = std::numbers::pi * r * r;
  // Left out: what tokens seen by their colour claimed, anything of a colour (a hand, a sleeve, a token not
  // learned) and any foreground blob of half a token or more (a black token not learned yet, a resting
  // hand's shadow), with a margin for their soft edges and shadows: paper beside anything dark scores like
  // a white top in its dark ring (0.155 beside the black token put down in white1/bright, before it was
  // learned). A white token's own rim and shadow are thinner than the speckle filter: what is left of them
  // in the foreground is a few small pieces.
  // Blob by blob over its box (the whole ring's pixels took 0.9 million instructions a frame): the ring
  // position of each pixel, for its colour's change (the ring is made once, with the locator).
  if (faint_ring_at.size() != static_cast<size_t>(s) * s) {
    faint_ring_at.assign(static_cast<size_t>(s) * s, -1);
    for (size_t k = 0; k < ring.size(); ++k)
      faint_ring_at[static_cast<size_t>(ring[k])] = static_cast<int>(k);
  }
  const int blob_count = stats.rows;
  auto box_of = [&](int b) {
    return cv::Rect(stats.at<int>(b, cv::CC_STAT_LEFT), stats.at<int>(b, cv::CC_STAT_TOP),
                    stats.at<int>(b, cv::CC_STAT_WIDTH), stats.at<int>(b, cv::CC_STAT_HEIGHT));
  };
  // Calls f(top-view index, ring position) for each of blob b's pixels on the ring.
  auto each_of = [&](int b, auto&& f) {
    const cv::Rect box = box_of(b);
    for (int y = box.y; y < box.y + box.height; ++y) {
      const int* label = blobs.ptr<int>(y);
      for (int x = box.x; x < box.x + box.width; ++x)
        if (label[x] == b)
          if (const int k = faint_ring_at[static_cast<size_t>(y * s + x)]; k >= 0) f(y * s + x, k);
    }
  };
  std::vector<int> coloured(static_cast<size_t>(blob_count), 0), held(static_cast<size_t>(blob_count), 0);
  int held_in_blobs = 0;
  for (int b = 1; b < blob_count; ++b)
    each_of(b, [&](int i, int k) {
      coloured[static_cast<size_t>(b)] += chroma_fg[static_cast<size_t>(k)];
      const bool taken = claimed.at<uint8_t>(i) != 0;
      held[static_cast<size_t>(b)] += taken;
      held_in_blobs += taken;
    });
  faint_marks.create(s, s, CV_8U);
  faint_marks.setTo(0);
  std::vector<cv::Rect> around;  // of everything marked
  if (cv::countNonZero(claimed) != held_in_blobs) {
    // Claimed pixels not counted above, in no blob or off the ring (not expected: a token's pixels are a
    // blob's ring pixels): found over the whole view.
    cv::Rect stray;
    for (int i = 0; i < s * s; ++i)
      if (claimed.at<uint8_t>(i) && (blobs.at<int>(i) <= 0 || faint_ring_at[static_cast<size_t>(i)] < 0)) {
        faint_marks.at<uint8_t>(i) = 255;
        stray |= cv::Rect(i % s, i / s, 1, 1);
      }
    if (!stray.empty()) around.push_back(stray);
  }
  for (int b = 1; b < blob_count; ++b) {
    if (held[static_cast<size_t>(b)] == 0 && coloured[static_cast<size_t>(b)] < 8 &&
        stats.at<int>(b, cv::CC_STAT_AREA) <= 0.5 * one_token_area)
      continue;
    each_of(b, [&](int i, int) { faint_marks.at<uint8_t>(i) = 255; });
    around.push_back(box_of(b));
  }
  faint_excluded.create(s, s, CV_8U);
  faint_excluded.setTo(0);
  const cv::Mat margin = cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(7, 7));
  for (const cv::Rect& box : around) {
    // Its pixels within 3 of anything marked; a part of the view is read with the pixels around it.
    const cv::Rect part = (box + cv::Point(-3, -3) + cv::Size(6, 6)) & cv::Rect(0, 0, s, s);
    cv::Mat widened;
    cv::dilate(faint_marks(part), widened, margin);
    cv::Mat into = faint_excluded(part);
    cv::bitwise_or(into, widened, into);
  }

  faint_fresh = true;
  faint_whole = whole;
  if (whole) {
    faint_score = faint_score_of(top);
    faint_valid = faint_score_of_valid;
    faint_noise = noise_of(faint_score, faint_valid);
    return;
  }
  // In play, every deciding frame: the score over the whole ring cost 3.2 ms of the frame's 7.8 at 720p
  // (29.5 of 75 million instructions). It is made on a lattice of every third pixel across and down, which
  // every pixel is within one of (its rows and columns clamped to the view), and then at every ring pixel
  // within one of a lattice point that scores half the floor or more (a place a pixel off its best scores
  // nearly as well), or that is not scored but may have a pixel within one that is (beside what is left
  // out, where the score changes from pixel to pixel with what is measured: a square shifted by one shares
  // (side - 1)^2 of its pixels). The places found are then those of the whole ring's score.
  faint_sums_of(top);
  // Its planes are this find()'s view's: round 9's search, when it runs, reads them again
  // (faint_change_peaks).
  faint_planes_current = &top == current_top;
  faint_scored.clear();
  if (faint_stamp.size() != static_cast<size_t>(s) * s || ++faint_stamp_now == 0) {
    faint_stamp.assign(static_cast<size_t>(s) * s, 0);
    faint_stamp_now = 1;
  }
  if (faint_lattice.empty()) {  // the lattice points with a ring pixel within one (the ring does not change)
    for (int y0 = 1; y0 < s + 1; y0 += 3)
      for (int x0 = 1; x0 < s + 1; x0 += 3) {
        const int y = std::min(y0, s - 1), x = std::min(x0, s - 1);
        bool near_ring = false;
        for (int v = std::max(0, y - 1); v <= std::min(s - 1, y + 1); ++v)
          for (int u = std::max(0, x - 1); u <= std::min(s - 1, x + 1); ++u)
            near_ring |= labels.at<int16_t>(v, u) >= 0;
        if (near_ring) faint_lattice.push_back(y * s + x);
      }
  }
  const auto score_at = faint_scorer(faint_sums);
  std::vector<LatticeSample> lattice;
  lattice.reserve(faint_lattice.size());
  std::vector<float> spread;  // of the lattice's ring pixels, for a bound on the noise
  for (int i : faint_lattice) {
    const int x = i % s, y = i / s;
    float value = 0;
    if (score_at(x, y, value)) {
      lattice.push_back({i, value, true});
      if (labels.at<int16_t>(i) >= 0) spread.push_back(std::abs(value));
    } else if (faint_neighbour_may_score(x, y)) {
      lattice.push_back({i, 0, false});
    }
  }
  // The noise as noise_of takes it (every fifth ring pixel) only where it may raise the floor: the lattice's
  // is another sample of the same (measured in white1: within 4%), so where a quarter more than it would
  // not raise the floor, the floor is beyond doubt the same with either.
  auto median_of = [](std::vector<float>& v) {
    auto mid = v.begin() + static_cast<long>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return 1.4826 * *mid;  // the median absolute score, as a sigma
  };
  const double lattice_noise = spread.empty() ? 1.0 : median_of(spread);
  faint_noise = 0;
  const double quiet_floor = std::max(faint_floor(), least_floor);
  faint_noise = 1.25 * lattice_noise;
  if (std::max(faint_floor(), least_floor) > quiet_floor) {
    spread.clear();
    for (size_t k = 0; k < ring.size(); k += 5) {
      float value = 0;
      if (score_at(ring[k] % s, ring[k] / s, value)) spread.push_back(std::abs(value));
    }
    faint_noise = spread.empty() ? 1.0 : median_of(spread);
  } else {
    faint_noise = lattice_noise;
  }
  const double near_floor = 0.5 * std::max(faint_floor(), least_floor);
  for (const LatticeSample& l : lattice) {
    if (l.scored && l.score < near_floor) continue;
    const int x0 = l.at % s, y0 = l.at / s;
    for (int y = std::max(0, y0 - 1); y <= std::min(s - 1, y0 + 1); ++y)
      for (int x = std::max(0, x0 - 1); x <= std::min(s - 1, x0 + 1); ++x) {
        const int i = y * s + x;
        float value = 0;
        if (faint_stamp[static_cast<size_t>(i)] == faint_stamp_now || labels.at<int16_t>(i) < 0) continue;
        faint_stamp[static_cast<size_t>(i)] = faint_stamp_now;
        if (score_at(x, y, value)) faint_scored.push_back({i, value});
      }
  }
}

namespace {

// What faint_change_planes' loop reads: each view pixel, the reference's, 1 / the paper's brightness in this
// light, what is left out, the light's colour and the paper's level in the reference.
struct FaintChangeInputs {
  const cv::Vec3b* now_px;
  const cv::Vec3b* was_px;
  const float* unlit_px;
  const uint8_t* left_out;
  cv::Vec3f chroma_gain;
  double paper;
};

// Each ring pixel's change not left out, as faint_change_planes says, into the high and low planes. Its
// tables are its own, on its stack: read through pointers they took two more registers, and the loop kept a
// pointer on the stack (0.06 million instructions a frame).
void faint_change_loop(const std::vector<int>& ring, const FaintChangeInputs& in, uint8_t* high,
                       uint8_t* low) {
  // features(view, last_chroma_gain).i and features(reference, unit).i over the paper's brightness, by
  // table: no division but one per pixel, for the light.
  const double to_unit = 1.0 / (3 * 255.0);
  std::array<std::array<float, 256>, 3> now_of{};
  for (int v = 0; v < 256; ++v)
    for (int c = 0; c < 3; ++c)
      now_of[static_cast<size_t>(c)][static_cast<size_t>(v)] =
          static_cast<float>(v * to_unit / in.chroma_gain[c]);
  std::array<float, 3 * 255 + 1> was_of{};
  for (size_t v = 0; v < was_of.size(); ++v) was_of[v] = static_cast<float>(v * to_unit / in.paper);
  const cv::Vec3b* now_px = in.now_px;
  const cv::Vec3b* was_px = in.was_px;
  const float* unlit_px = in.unlit_px;
  const uint8_t* left_out = in.left_out;
  const float bound = 0.6f, steps = 32767 / bound;
  for (int i : ring) {
    if (left_out[i]) continue;
    const cv::Vec3b& p = now_px[i];
    const cv::Vec3b& q = was_px[i];
    const float now = now_of[0][p[0]] + now_of[1][p[1]] + now_of[2][p[2]];
    // (now - was * light) / (paper * light), light = last_mean_gain * field. Bounded: one pixel of a stray
    // dark speck must not outweigh a token's worth of slight change.
    const float change = std::clamp(now * unlit_px[i] - was_of[q[0] + q[1] + q[2]], -bound, bound);
    const int code = static_cast<int>(change * steps + 32768.5f);
    high[i] = static_cast<uint8_t>(code >> 8);
    low[i] = static_cast<uint8_t>(code & 255);
  }
}

}  // namespace

void TokenLocator::Impl::faint_sums_of(const cv::Mat& view) {
  faint_make_light();
  faint_change_planes(view, true);
  faint_sum_planes(faint_sums, 3);
  faint_planes_current = false;  // score_faint says when they are *current_top's
}

void TokenLocator::Impl::faint_make_light() {
  const int s = settings.top_side;
  const double r = token_radius(map, s);
  faint_inner = odd(r);
  faint_outer = odd(2.6 * r);
  // The change of brightness over the empty board in this light, as a share of the paper's brightness (not
  // the pixel's own: on dark print a few grey levels of noise are a large share).
  // The paper's level: the median of features(reference, unit).i over every eleventh ring pixel, that is
  // of the sums of their channels over 765, found by counting the sums (no sort).
  std::array<int, 3 * 255 + 1> sums{};
  int sampled = 0;
  for (size_t k = 0; k < ring.size(); k += 11, ++sampled) {
    const cv::Vec3b& p = reference.at<cv::Vec3b>(ring[k]);
    ++sums[static_cast<size_t>(p[0] + p[1] + p[2])];
  }
  size_t level = 0;
  for (int below = 0; level < sums.size(); ++level)
    if ((below += sums[level]) > sampled / 2) break;
  faint_paper = sampled == 0 ? 1.0 : std::max(0.05, static_cast<double>(level) / (3 * 255.0));
  // The paper's brightness in this light, 1 / (paper * last_mean_gain * field), by OpenCV's vector code over
  // the view (0.1 million instructions), so that each ring pixel's change takes a multiplication, not a
  // division: on a core whose divider is slow (the Pi's) the loop in faint_change_planes waited on it. Each
  // change differs from the quotient's by a float's rounding (1e-7 of it), under the step it is kept in
  // (0.6/32767).
  field.convertTo(faint_light, CV_32F, faint_paper * last_mean_gain);
  cv::divide(1.0, faint_light, faint_light);
}

void TokenLocator::Impl::faint_change_planes(const cv::Mat& view, bool measured_too) {
  const int s = settings.top_side;
  // Each change, bounded to +-0.6, is kept in 16 bits (steps of 0.6/32767, 0 at 32768) as two 8-bit
  // planes, and summed by cv::integral, whose vector code is for 1-channel 8-bit images (from floats it took
  // 1.7 million instructions a frame, the three planes 0.3). A mean over a square differs from one of
  // floats by 1e-6 at most, the score's noise 4e-4 at the least.
  for (cv::Mat* plane : {&faint_high, &faint_low, &faint_measured}) plane->create(s, s, CV_8U);
  faint_high.setTo(128);
  faint_low.setTo(0);
  const FaintChangeInputs in{view.ptr<cv::Vec3b>(),    reference.ptr<cv::Vec3b>(),
                             faint_light.ptr<float>(), faint_excluded.ptr<uint8_t>(),
                             last_chroma_gain,         faint_paper};
  faint_change_loop(ring, in, faint_high.ptr<uint8_t>(), faint_low.ptr<uint8_t>());
  if (measured_too) {
    // Measured: every ring pixel not left out (1), by OpenCV's vector code; written in the loop, one more
    // pointer there did not fit in a register (0.14 million instructions a frame).
    if (faint_ring_mask.size() != faint_excluded.size()) {
      faint_ring_mask = cv::Mat::zeros(s, s, CV_8U);
      for (int i : ring) faint_ring_mask.at<uint8_t>(i) = 1;
    }
    cv::compare(faint_excluded, 0, faint_measured, cv::CMP_EQ);
    cv::bitwise_and(faint_measured, faint_ring_mask, faint_measured);
  }
}

void TokenLocator::Impl::faint_sum_planes(std::array<cv::Mat, 3>& sums, size_t planes) {
  // Read past the view's edge as cv::boxFilter reads it (reflected), so the score is the same there.
  const int pad = faint_outer / 2;
  for (size_t p = 0; p < planes; ++p) {
    cv::copyMakeBorder(*std::array{&faint_high, &faint_low, &faint_measured}[p], faint_padded, pad, pad, pad,
                       pad, cv::BORDER_REFLECT_101);
    cv::integral(faint_padded, sums[p], CV_32S);
  }
}

cv::Mat TokenLocator::Impl::faint_score_of(const cv::Mat& view) {
  const int s = settings.top_side;
  faint_sums_of(view);
  cv::Mat score = cv::Mat::zeros(s, s, CV_32F);
  faint_score_of_valid = cv::Mat::zeros(s, s, CV_8U);
  for (int i : ring) {
    float value = 0;
    if (!faint_score_at(i % s, i / s, value)) continue;
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

std::vector<TokenLocator::Impl::FaintPeak> TokenLocator::Impl::faint_peaks(const cv::Mat& score,
                                                                           const cv::Mat& valid, double floor,
                                                                           size_t most) const {
  std::vector<FaintPeak> peaks;
  if (score.empty()) return peaks;
  const int s = settings.top_side;
  const double r = token_radius(map, s);
  cv::Mat left = score.clone();
  left.setTo(-1.0f, valid == 0);
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

template <class Score>
std::vector<TokenLocator::Impl::FaintPeak> TokenLocator::Impl::faint_peaks_among(
    const std::vector<FaintPoint>& scored, double floor, size_t most, const Score& score_at) const {
  const int s = settings.top_side;
  const double reach = std::ceil(2 * token_radius(map, s));
  std::vector<FaintPoint> candidates;
  for (const auto& p : scored)
    if (p.score >= floor && !claimed.at<uint8_t>(p.at)) candidates.push_back(p);
  std::sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) {
    return a.score != b.score ? a.score > b.score : a.at < b.at;  // minMaxLoc's first best
  });
  std::vector<FaintPeak> peaks;
  std::vector<cv::Point> taken;
  for (const auto& p : candidates) {
    if (peaks.size() >= most) break;
    const cv::Point at(p.at % s, p.at / s);
    if (std::any_of(taken.begin(), taken.end(),
                    [&](const cv::Point& t) { return std::hypot(at.x - t.x, at.y - t.y) <= reach; }))
      continue;
    double sx = 0, sy = 0, sw = 0;
    for (int y = std::max(0, at.y - 1); y <= std::min(s - 1, at.y + 1); ++y)
      for (int x = std::max(0, at.x - 1); x <= std::min(s - 1, at.x + 1); ++x) {
        float v = 0;
        if (labels.at<int16_t>(y, x) >= 0 && score_at(x, y, v) && v > 0) sx += v * x, sy += v * y, sw += v;
      }
    peaks.push_back({{sw > 0 ? sx / sw : at.x, sw > 0 ? sy / sw : at.y}, p.score});
    taken.push_back(at);
  }
  return peaks;
}

std::vector<TokenLocator::Impl::FaintPeak> TokenLocator::Impl::faint_peaks_scored(double floor,
                                                                                  size_t most) const {
  return faint_peaks_among(faint_scored, floor, most, faint_scorer(faint_sums));
}

std::vector<TokenLocator::Impl::FaintPeak> TokenLocator::Impl::faint_change_peaks(double least_floor,
                                                                                  size_t most) {
  // Both views' sums, each clear of what either left out (faint_arrivals sets faint_excluded so): the
  // decided view's kept apart, this view's in faint_sums. Each view's change is taken in this frame's light.
  // This view's was made by score_faint clear of its own part of what is left out, a part of the union: the
  // rest is reset to not measured, the same to the bit as making it again (that took 2.7 million
  // instructions of the search's 11.1 a call, `bench_vision_speed unfound`). The decided view's is made in
  // this frame's light as made there, and its pixels measured are this view's (the ring clear of the same
  // union): one sum of them serves both.
  if (faint_planes_current) {
    faint_high.setTo(128, faint_excluded);
    faint_low.setTo(0, faint_excluded);
    faint_measured.setTo(0, faint_excluded);
  } else {
    faint_make_light();
    faint_change_planes(*current_top, true);
  }
  faint_sum_planes(faint_sums, 3);
  faint_change_planes(decided_top, false);
  faint_sum_planes(faint_decided_sums, 2);
  faint_decided_sums[2] = faint_sums[2];
  faint_planes_current = false;  // they hold the decided view's change now
  // What is measured is the same in both views (the ring clear of what is left out): a place is scored in
  // both or in neither.
  const auto change_at = faint_change_scorer(faint_sums, faint_decided_sums);
  // Scoring so now too: beside the place a white token left, its shadow's strongly negative score in the
  // decided view makes a difference as large as a token's arrival where nothing stands now.
  const auto arrival_at = [&](int x, int y, float& score) {
    float change = 0, now = 0;
    if (!change_at(x, y, change, now)) return false;
    score = std::min(change, now);
    return true;
  };
  // As score_faint in play: on the lattice, then at every ring pixel within one of a lattice point scoring
  // half the floor or more, or not scored but with a pixel within one that may be. The whole ring of both
  // views took 39.7 million instructions a call (white1/bright).
  const int s = settings.top_side;
  std::vector<LatticeSample> lattice;
  lattice.reserve(faint_lattice.size());
  std::vector<float> spread;  // of the change at the lattice's ring pixels, for a bound on its noise
  for (int i : faint_lattice) {
    float change = 0, now = 0;
    const bool scored = change_at(i % s, i / s, change, now);
    lattice.push_back({i, std::min(change, now), scored});
    if (scored && labels.at<int16_t>(i) >= 0) spread.push_back(std::abs(change));
  }
  // The floor, from the change's noise as noise_of takes it (every fifth ring pixel where measured) only
  // where that may raise it: as in score_faint, the lattice's noise is another sample of the same, and
  // where a quarter more than it would not raise the floor, the floor is beyond doubt the same with either
  // (white1: the same places and scores as the whole ring's in all 77 calls of the row; the two noises'
  // ratio for the change itself not measured apart).
  double floor = std::max(0.025, least_floor);
  auto sigma_of = [](auto& v) {
    auto mid = v.begin() + static_cast<long>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return 1.4826 * *mid;  // the median absolute change, as a sigma
  };
  if (spread.empty() || 8 * 1.25 * sigma_of(spread) > floor) {
    std::vector<double> ring_spread;
    for (size_t k = 0; k < ring.size(); k += 5) {
      float change = 0, now = 0;
      if (change_at(ring[k] % s, ring[k] / s, change, now)) ring_spread.push_back(std::abs(change));
    }
    floor = std::max(floor, 8 * (ring_spread.empty() ? 1.0 : 1.4826 * median(ring_spread)));
  }
  if (faint_stamp.size() != static_cast<size_t>(s) * s || ++faint_stamp_now == 0) {
    faint_stamp.assign(static_cast<size_t>(s) * s, 0);
    faint_stamp_now = 1;
  }
  std::vector<FaintPoint> scored;
  for (const LatticeSample& l : lattice) {
    const int x0 = l.at % s, y0 = l.at / s;
    if (l.scored && l.score < 0.5 * floor) continue;
    if (!l.scored && !faint_neighbour_may_score(x0, y0)) continue;
    for (int y = std::max(0, y0 - 1); y <= std::min(s - 1, y0 + 1); ++y)
      for (int x = std::max(0, x0 - 1); x <= std::min(s - 1, x0 + 1); ++x) {
        const int at = y * s + x;
        float value = 0;
        if (faint_stamp[static_cast<size_t>(at)] == faint_stamp_now || labels.at<int16_t>(at) < 0) continue;
        faint_stamp[static_cast<size_t>(at)] = faint_stamp_now;
        if (arrival_at(x, y, value)) scored.push_back({at, value});
      }
  }
  return faint_peaks_among(scored, floor, most, arrival_at);
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
  // A place counts from well above the noise and from 0.4 of the score the token was learned with (its
  // score varies about twofold from space to space in bright light, where only its rim and shadow show).
  score_faint(*current_top, false, 0.4 * weakest);
  auto peaks = faint_peaks_scored(std::max(faint_floor(), 0.4 * weakest), faint.size() + 1);
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
  if (!faint_fresh) {
    score_faint(top, true);
  } else if (!faint_whole) {  // locate() scored only where a faint token could be: the whole ring here
    faint_score = faint_score_of(top);
    faint_valid = faint_score_of_valid;
    faint_noise = noise_of(faint_score, faint_valid);
    faint_whole = true;
  }
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
  const auto peaks = faint_peaks(score, faint_valid, floor, 2);
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
