#pragma once

// Private to token_locator*.cpp: the locator's state and the helpers its parts share. OpenCV appears here
// (never in a public header); nothing outside vision/token_locator*.cpp includes this file.
//
// The locator is split by concern: token_locator.cpp (the per-frame look: light, foreground, colour),
// token_learning.cpp (learning tokens on the start space and one at a time by difference from the empty
// board), token_identity.cpp (telling tokens of one colour apart by outline and cap), faint_token.cpp
// (tokens too close to the board's look for any pixel to tell: a white token on pale paper).

#include <algorithm>
#include <array>
#include <cmath>
#include <opencv2/core.hpp>
#include <optional>
#include <vector>

#include "vision/token_locator.h"

namespace bb::vision::locator_detail {

inline constexpr int cell = 16;  // illumination field resolution, top-view pixels

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

// features(p, gain) for one light's colour by table: each channel's p / gain for its 256 levels, made as
// features() makes it (a float division, then widened), so that every result is the same to the bit. For
// the per-pixel loops of find(), where the divider was the bottleneck.
class GainedFeatures {
 public:
  explicit GainedFeatures(const cv::Vec3f& gain) {
    for (size_t c = 0; c < 3; ++c)
      for (int v = 0; v < 256; ++v)
        level_[c][static_cast<size_t>(v)] =
            static_cast<double>(static_cast<float>(v) / gain[static_cast<int>(c)]);
  }
  Features operator()(const cv::Vec3b& p) const {
    const double b = level_[0][p[0]], g = level_[1][p[1]], r = level_[2][p[2]];
    const double s = b + g + r + 3.0;
    return {r / s, g / s, (b + g + r) / (3 * 255.0)};
  }

 private:
  std::array<std::array<double, 256>, 3> level_;
};

// Two tokens whose colours the per-pixel match cannot keep apart: within about two spreads on every axis.
inline bool alike(const TokenAppearance& a, const TokenAppearance& b) {
  double d = 0;
  for (size_t c = 0; c < 3; ++c) {
    const double z = (a.mean[c] - b.mean[c]) / (a.spread[c] + b.spread[c]);
    d += z * z;
  }
  return d < 4.0;
}

// A blob's outline as numbers that do not change when it is turned; `centre` gets its centroid.
ShapeFeatures shape_of(const std::vector<int>& pixels, int side, Point2* centre);

// The log Hu moments of a mask's outline (sign kept, 0 for a moment of 0), as TokenAppearance::hu keeps them.
std::array<double, 7> log_hu_moments(const cv::Mat& mask);

inline double median(std::vector<double>& v) {
  if (v.empty()) return 1.0;
  auto mid = v.begin() + static_cast<long>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

}  // namespace bb::vision::locator_detail

namespace bb::vision {

using locator_detail::Features;

// The pixels of one colour group within one foreground blob.
struct Tally {
  std::vector<int> per_space;  // pixels on each space
  std::vector<int> pixels;     // top-view indices
  ShapeFeatures shape;
  CapFeatures cap;
  Point2 centre;
  bool divided = false;   // cut out of a blob of touching tokens at setup: its outline is only rough
  double brightness = 0;  // median of its pixels under the light's correction; 0 when not measured
};

struct TokenLocator::Impl {
  SpaceMap map;
  Settings settings;
  MarkerLayout markers;
  cv::Mat labels;         // CV_16S: space under each top-view pixel, -1 none
  std::vector<int> ring;  // indices of pixels on a space
  cv::Mat reference;      // CV_8UC3 top view of the empty board
  cv::Mat board_before;   // CV_8UC3 top view when the last token was learned alone (empty: not known),
                          // smoothed 3x3
  double board_before_paper = 1;  // its median brightness on the ring, 0..1
  std::vector<double> foreground_share;
  // Per ring pixel (find()'s pass 1): features(reference, unit), made again whenever the reference's bytes
  // differ from `ring_reference_of` (a copy: the reference is written in learning, rewarping and loading);
  // its light cell's index in lsum and lcount. And each space's ring pixels.
  std::vector<Features> ring_reference;
  cv::Mat ring_reference_of;
  std::vector<int> ring_cell;
  std::vector<int> ring_per_space;
  // Scratch, kept between frames to avoid allocation in the steady state.
  cv::Mat mask, blobs, stats, lsum, lcount, field;
  // top_view() within parts: the fit and the parts its maps (perspective_maps) were made for, and the maps.
  std::array<double, 9> parts_fit{};
  std::vector<std::array<int, 4>> parts_of;
  std::vector<cv::Mat> parts_xy, parts_weights;
  std::vector<float> ratio;
  std::vector<int> last_spaces;  // of the current locate() call, empty when unknown
  // remember_decided(): the top view when every token was last decided, and per token its blob's centre
  // and size then (size 0: not remembered).
  cv::Mat decided_top;
  std::vector<Point2> decided_centre;
  std::vector<double> decided_area;
  std::vector<TokenObservation> decided_seen;  // as remember_decided was given them
  cv::Mat decided_excluded;  // of decided_top: what the faint score left out then (empty: not scored)
  // learn(): each token as measured on the start space, tokens of one look touching there divided between
  // them; the first remember_decided after learning (the same view) holds each divided token by its piece,
  // and goes on holding it so while it stays there in a shared blob: its piece's centre and space (x < 0:
  // not so held).
  std::vector<TokenObservation> learned_seen;
  std::vector<Point2> piece_centre;
  std::vector<int> piece_space;
  std::vector<double> piece_area;  // over the token's learned area
  std::vector<int> token_group;    // per token, its colour group in the last find() (look-alikes share one)
  std::vector<double> token_area;  // the tokens' learned areas, as the last find() was given them
  const cv::Mat* current_top = nullptr;  // of the current find()
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
  // At setup: a blob holding several of the group's tokens (touching on the start space) is divided
  // between them, each pixel to the nearest token's centre, so that each token's size and outline are
  // measured (their outlines, cut straight where they touch, are marked rough).
  void split_touching(std::vector<Tally>& parts, const std::vector<size_t>& members,
                      const std::vector<Point2>& near, int side) const;
  // For find_new_token: clears pixels of `unexplained` that are foreground only through noise on dark
  // print (a ratio of a small brightness).
  void drop_unsteady_dark(const cv::Mat& top, cv::Mat& unexplained) const;
  // For find_new_token: keeps the pixels of `unexplained` that changed since `board_before`.
  void keep_changed_since_before(const cv::Mat& top, cv::Mat& unexplained) const;
  // After assign_by_outline's search: the member given, by elimination, the one blob left (its index in
  // `members`, or members.size() for none); `best_choice` is updated.
  size_t by_elimination(const std::vector<size_t>& members, const std::vector<Tally*>& found,
                        const std::vector<TokenAppearance>& tokens, const std::vector<Point2>* near,
                        double best, std::vector<int>& best_choice,
                        const std::vector<double>& best_with) const;
  CapFeatures cap_of(const Tally& blob, const cv::Mat& top, const cv::Vec3f& gain) const;
  // For find_new_token: `core_pixels` of one token holding a cap of another colour in its middle keep only
  // the body's; true when a cap was found (the light's correction is the last find()'s).
  bool drop_cap(std::vector<int>& core_pixels, const cv::Mat& top) const;
  void ask_between(TokenObservation& o, const Tally& other) const;
  // Holds token `t`'s observation `o` to a question for the table between where it was seen, `other` (where
  // given) and its last space (where known): its confidence at most 0.5, those spaces among its candidates
  // after the ones it has. A look-alike that may have swapped with it, a piece centred on another token, a
  // blob that might as well be another of its look: asked, never guessed.
  void hold_to_question(TokenObservation& o, size_t t, std::optional<int> other = std::nullopt) const;
  // True when `blob` is token `t`'s blob as last decided, unchanged (remember_decided); `area`: the
  // token's learned area.
  bool untouched(size_t t, const Tally& blob, double area) const;
  // True when `blob` stands where a token not among `members` stood when last decided, its pixels
  // unchanged: it is that token's, whatever colour it matches now (a grey token in a shadow matches an
  // untouched black one).
  bool held_by_another(const std::vector<size_t>& members, const Tally& blob) const;
  // True when `blob` is not token `t` (of learned `area`): t was somewhere else when last decided, and
  // the blob is unchanged since (had t come here, its arrival would have changed the pixels). A blob of the
  // board itself that matches t's look (a shadow, the start space's print) is kept from being taken for it.
  bool stood_elsewhere(size_t t, const Tally& blob, double area) const;
  // remember_decided(): tokens of one look decided sharing one blob are held by their pieces of it, the one
  // held at the decision before (`held_centre`, `held_area`) by its blob then, the other by the rest.
  void hold_shared_by_pieces(const std::vector<TokenObservation>& decided,
                             const std::vector<Point2>& held_centre, const std::vector<double>& held_area);
  // True when `blob` holds where look-alike `t` stood when last decided (held there, its centre on the
  // blob), has grown by a third of a token or more since, and is partly new: another token of its look has
  // come to touch it, one blob for both (pairs/mixed: 248 pixels, under the 1.6 token areas that make a
  // blob a pair by size alone, so neither token took it).
  bool grown_by_arrival(size_t t, const Tally& blob) const;
  // The share of `blob`'s pixels changed since remember_decided's view (1 when none is remembered).
  double changed_share(const Tally& blob) const;
  void assign_by_outline(const std::vector<size_t>& members, const std::vector<Tally*>& blobs,
                         const std::vector<TokenAppearance>& tokens, const std::vector<Point2>* near,
                         std::vector<TokenObservation>& out) const;

  // Faint tokens (faint_token.cpp). A white token on pale paper changes no pixel beyond noise and the
  // foreground threshold: its top is about a tenth brighter than the paper, its one-pixel rim and its
  // shadow darker, each too thin or too slight alone. Over a token-sized place they add up: the mean change
  // of brightness over the empty board in its middle, less the mean over a ring around it, is 4-40 times
  // the same score's noise. Of the last find(): that score (CV_32F; `faint_valid`: where it was measured,
  // clear of tokens seen by colour, hands and their shadows), and its noise. In play (locate()) the score is
  // made only where it is needed, `faint_scored`: at every ring pixel near a lattice point (every third
  // pixel across and down) that scores half the floor or more, or beside what is left out; its noise then
  // is the lattice's while that is beyond doubt too small to change the floor. `faint_whole` says the Mats
  // hold it at every ring pixel and the noise is noise_of's (learning, find_faint_token).
  struct FaintPeak {
    Point2 centre;  // top-view pixels
    double score = 0;
  };
  struct FaintPoint {
    int at;  // top-view index
    float score;
  };
  cv::Mat faint_score, faint_valid, faint_excluded, faint_score_of_valid;
  cv::Mat faint_marks;  // score_faint's scratch: what is left out, before its margin
  double faint_noise = 0;
  bool faint_fresh = false;  // the score is of the last find()
  bool faint_whole = false;  // ... and in the Mats, at every ring pixel
  std::vector<FaintPoint> faint_scored;
  // Scratch of faint_sums_of, kept between frames: each ring pixel's change (16 bits: its high and low
  // bytes) and whether it was measured, each given a reflected border as wide as half the surround's square
  // (as cv::boxFilter reads past the edge) and summed (integral images, in that order); the squares' sides.
  cv::Mat faint_high, faint_low, faint_measured, faint_padded;
  cv::Mat faint_ring_mask;  // CV_8U: 1 on the ring, 0 elsewhere (the ring does not change)
  cv::Mat faint_light;      // CV_32F: 1 / (the paper's brightness at each pixel in the last find()'s light)
  double faint_paper = 1;   // the paper's level in the reference, 0..1, as faint_light was made with it
  // The planes hold the current find()'s view's change, clear of faint_excluded as score_faint set it (in
  // play), and faint_light is that find()'s: faint_change_peaks reads them rather than making them again.
  bool faint_planes_current = false;
  std::array<cv::Mat, 3> faint_sums;
  // The same of the decided view (faint_change_peaks); its counts of what was measured are faint_sums[2]
  // (both views are measured alike there).
  std::array<cv::Mat, 3> faint_decided_sums;
  int faint_inner = 0, faint_outer = 0;
  std::vector<int> faint_ring_at;     // per top-view pixel, its position in `ring` (-1: none)
  std::vector<int> faint_lattice;     // score_faint's lattice points near the ring (top-view indices)
  std::vector<uint32_t> faint_stamp;  // per top-view pixel: the faint_stamp_now it was last scored in
  uint32_t faint_stamp_now = 0;
  // Fills the above from the last find()'s light and foreground; `top` is that find()'s view. `whole`:
  // the score at every ring pixel, in the Mats; otherwise only in `faint_scored`, where needed to find every
  // place scoring from max(faint_floor(), least_floor).
  void score_faint(const cv::Mat& top, bool whole, double least_floor = 0);
  // Each ring pixel's change of `view` against the empty board, in the last find()'s light, clear of
  // `faint_excluded`, summed for faint_score_at. In parts: the squares' sides, the paper's level and the
  // light (faint_make_light); each ring pixel's change in the planes (faint_change_planes; `measured_too`
  // false leaves faint_measured as it is, for a view measured where the last one was); the first `planes`
  // of them summed into `sums` (faint_sum_planes).
  void faint_sums_of(const cv::Mat& view);
  void faint_make_light();
  void faint_change_planes(const cv::Mat& view, bool measured_too);
  void faint_sum_planes(std::array<cv::Mat, 3>& sums, size_t planes);
  // The score at top-view pixel (x, y) of the view last given to faint_sums_of; false where too little
  // around it was measured. faint_scorer(sums) is the same as a function object reading `sums` (made by
  // faint_sums_of), for loops (faint_token.cpp).
  bool faint_score_at(int x, int y, float& score) const;
  // Where (x, y) was not scored: whether enough of its squares is measured (by the last faint_sums_of's
  // count) that a pixel within one of it may be, so the lattice's refinement looks around it.
  bool faint_neighbour_may_score(int x, int y) const;
  auto faint_scorer(const std::array<cv::Mat, 3>& sums) const;
  // For two views' sums measured alike (faint_change_peaks): f(x, y, change, now) gives the first view's
  // score and it less the second's, each as faint_scorer makes it; false where too little was measured.
  auto faint_change_scorer(const std::array<cv::Mat, 3>& now_sums,
                           const std::array<cv::Mat, 3>& before_sums) const;
  // The score of `view` at every ring pixel; `faint_score_of_valid` gets where it was measured.
  cv::Mat faint_score_of(const cv::Mat& view);
  // The score's spread where it was measured (the median absolute score, as a standard deviation).
  double noise_of(const cv::Mat& score, const cv::Mat& valid) const;
  // The places where `score` is at least `floor`, best first, each at least a token's width from a better
  // one, none where it was not measured (`valid` 0) or where a token was found.
  std::vector<FaintPeak> faint_peaks(const cv::Mat& score, const cv::Mat& valid, double floor,
                                     size_t most) const;
  // The same among `faint_scored` (the view last given to faint_sums_of).
  std::vector<FaintPeak> faint_peaks_scored(double floor, size_t most) const;
  // The same among `scored` (ring pixels and their scores, by `score_at`, which the centres read too): the
  // best place left, its centre the score-weighted centroid of the 3x3 around it, then nothing within two
  // token radii of it (faint_token.cpp).
  template <class Score>
  std::vector<FaintPeak> faint_peaks_among(const std::vector<FaintPoint>& scored, double floor, size_t most,
                                           const Score& score_at) const;
  // The least score a faint token counts from: far above the noise (and the false peaks it makes: at most
  // 0.045 measured, a shadow fallen since the empty board was taken included).
  double faint_floor() const;
  // The token-sized disc of pixels on the ring around `centre`.
  std::vector<int> faint_footprint(Point2 centre) const;
  // For faint_arrivals, with faint_excluded what either view left out: the places where the score of the
  // last find()'s view less the decided view's (and no more than the former) is from max(0.025, 8 times
  // that difference's noise, `least_floor`), best first, found as score_faint finds its own in play (on the
  // lattice, then where needed; the noise the lattice's while a quarter more would not raise the floor).
  // faint_score_at reads the last find()'s view after it.
  std::vector<FaintPeak> faint_change_peaks(double least_floor, size_t most);
  // The places new since the last decision (remember_decided) where a faint token may have come, best
  // first: this view's score less the decided view's, both clear of what either left out, from 0.025, 8
  // times that difference's noise and 0.4 of `weakest` (faint_token_arrived.cpp). Empty without a decided
  // view scored. Only after score_faint in play (it reads its lattice).
  std::vector<FaintPeak> faint_arrivals(double weakest, size_t most);
  // The faint tokens among `tokens` located on the last find(), written into `out`; their footprints are
  // claimed. Several faint tokens look alike: each takes a place, and all of them are questions.
  void locate_faint(const std::vector<TokenAppearance>& tokens, std::vector<TokenObservation>& out);
  // For find_new_token: the one faint new thing on the board as a token, or why not.
  std::expected<NewToken, std::string> find_faint_token(const cv::Mat& top);
};

}  // namespace bb::vision
