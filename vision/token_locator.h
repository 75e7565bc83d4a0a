#pragma once

#include <array>
#include <expected>
#include <memory>
#include <string>
#include <vector>

#include "vision/board_calibrator.h"
#include "vision/marker_layout.h"
#include "vision/space_map.h"
#include "vision/token_appearance.h"

namespace cv {
class Mat;
}

namespace bb::vision {

// Where one token appears to be in one frame.
struct TokenObservation {
  int token = -1;
  bool visible = false;         // false: covered (a hand) or gone; says nothing about where it is
  int space = -1;               // most likely space
  double confidence = 0;        // 0..1: share of the token on that space, lowered when partly hidden
  std::vector<int> candidates;  // spaces it touches, most likely first
  double visible_fraction = 0;  // seen area over learned area
  double blob_pixels = 0;       // in its blob (a shared blob: both tokens')
  ShapeFeatures shape;          // the outline seen
  CapFeatures cap;              // a cap seen inside it (tokens of one colour only)
  bool shared = false;          // its blob holds two tokens of one look (the outline is neither's)
  bool outline_cut = false;     // at setup: cut out of tokens of one look touching (a rough outline)
  // Its outline did not match its blob, but it is the only token of its look left for the only blob of
  // its look left, of its size, every other one matched without doubt: the learned outline was wrong.
  bool by_elimination = false;
  Point2 centre;  // of its blob, top-view pixels
  // Its blob is where it stood when last decided, of the same size, its pixels unchanged since: it was not
  // touched, and no other token of its look can be it.
  bool untouched = false;
};

// A token put down alone on a board whose empty look is known, learned by its difference from it.
struct NewToken {
  TokenAppearance look;  // named by the caller
  int space = -1;        // where it stands
  Point2 centre;         // top-view pixels
  // Its body looks like the board (a white token on pale paper): it is known by its cap alone, whose
  // colour and size are what `look` holds.
  bool by_cap_alone = false;
};

// Looks at the board from above (a fixed top view warped through the calibration) and says where each
// learned token is. Foreground is what differs in colour, or much in brightness, from the empty board's
// reference; shadows and light changes are divided out by a smooth illumination field estimated from the
// board itself; each foreground pixel is then given to the token whose colour it matches, so tokens that
// share a space (even touching) are told apart, and skin or sleeves (too large) are not taken for tokens.
class TokenLocator {
 public:
  struct Settings {
    int top_side = 400;             // pixels across the top view
    double unsure_below = 0.75;     // confidence under which a position is a question, not a fact
    double chroma_threshold = 0.1;  // L1 over the three chromaticities
    // Brightness change over the light field that is foreground: 0.25 sees a black token and often a
    // metal-grey one on the pale board (0.45 saw neither); the generated games are as right with it.
    double brightness_threshold = 0.25;
  };
  TokenLocator(const SpaceMap& map, Settings settings, MarkerLayout markers = {});
  ~TokenLocator();
  TokenLocator(const TokenLocator&) = delete;
  TokenLocator& operator=(const TokenLocator&) = delete;

  void top_view(const cv::Mat& frame, const Calibration& calibration, cv::Mat& out) const;
  // The same view warped only within `parts` (x, y, width, height, in the view's pixels); the rest of `out`,
  // of the view's size and type already, is left as it was. The tracker's deciding frames read only the
  // ring of spaces (TokenTracker): warping the board's middle too cost a third of the view. Each part's
  // maps are kept while the calibration and the parts stay the same (not const: it keeps them; one thread at
  // a time, the tracker's), so that a frame is only remapped; the same view to the bit as warping it.
  void top_view(const cv::Mat& frame, const Calibration& calibration, cv::Mat& out,
                const std::vector<std::array<int, 4>>& parts);

  // All tokens stand apart on `start_space` and the rest of the board is empty: records the board as the
  // reference (with the tokens painted out) and learns each token, named T1.. from the one nearest the
  // start space's outer corner.
  std::vector<TokenAppearance> learn(const cv::Mat& top, int start_space);
  // The same, knowing how many tokens the table expects: when fewer coloured ones are found, grey, black
  // and metal ones are looked for too, by their difference from the start space's empty look (the paper,
  // and the corner marker's pattern rebuilt from the calibration where it is hidden).
  std::vector<TokenAppearance> learn(const cv::Mat& top, int start_space, int expected_tokens);
  // `last_spaces` (optional, per token) is where each token was last decided to be: among tokens of one
  // colour, a blob still on a token's own space is more likely that token than another of the same look.
  std::vector<TokenObservation> locate(const cv::Mat& top, const std::vector<TokenAppearance>& tokens,
                                       const std::vector<int>& last_spaces = {});

  // The board is empty (the table said so): this top view is the reference, nothing is learned from it.
  void set_empty_reference(const cv::Mat& top);
  // After locate(): the one still, token-sized thing on the board that no learned token explains, learned
  // from its difference to the reference (any colour, grey and black included). An error says why not:
  // nothing new, or more than one new thing (one token at a time). A place that now shows the bare paper
  // where the reference has something (a token the start did not find, since lifted) is learned as empty
  // board into the reference.
  std::expected<NewToken, std::string> find_new_token(const cv::Mat& top);
  // The board as it stands now, settled (the empty board, or a token just learned alone): the next
  // find_new_token looks only at what changed since, so a new token is found even beside a learned one
  // whose colour it nearly matches (black beside metal grey).
  void remember_settled_board(const cv::Mat& top);
  // A token moved since: the next find_new_token goes by what no learned token's colour explains.
  void forget_settled_board();
  // Every token has just been decided on this top view: the tokens seen sure, alone in their blob (`decided`
  // per token; others not visible or below `sure`) are remembered with their blobs. While a token's blob
  // is later found there again, the same, the token has not been touched: it is that blob's, and its look-
  // alikes are told apart by elimination instead of by outline (a hand moves one token at a time).
  void remember_decided(const cv::Mat& top, const std::vector<TokenObservation>& decided, double sure);
  // The table settled a question about token `token`: it stands on `space`. Its look on the view last
  // remembered (remember_decided), unsure then, is remembered as its untouched blob when it was seen alone
  // at about its size on that space; false when there is nothing to remember (another space, a shared or
  // partial blob, or the view forgotten since).
  bool remember_settled(size_t token, int space);
  // The view moved (a bump, a better fit) or the tokens changed: nothing is known untouched.
  void forget_decided();

  // The reference was taken through `taken_with`; `now` is a better fit of the same, unmoved board (more
  // markers in view): the reference is resampled to stay true to the board through `now`.
  void rewarp_reference(const Calibration& taken_with, const Calibration& now);
  bool has_reference() const;
  std::expected<void, std::string> save_reference(const std::string& png_path) const;
  std::expected<void, std::string> load_reference(const std::string& png_path);

  const SpaceMap& map() const;
  const Settings& settings() const;
  // Fraction of each space's pixels that were foreground in the last locate() (hands, unknown objects).
  const std::vector<double>& foreground_by_space() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

namespace detail {
// cv::connectedComponentsWithStats(mask, blobs, stats, centroids, 8, CV_32S)'s labels and stats, the same
// to the bit, without the centroids (no caller reads them) and without measuring every pixel as the
// background's: the labels by cv::connectedComponents, the stats from the foreground pixels alone. Returns
// the number of labels. `mask` is CV_8U; any thread, on its own images. Declared here for its test.
int label_blobs(const cv::Mat& mask, cv::Mat& blobs, cv::Mat& stats);
// The maps cv::warpPerspective(frame, out, m, {cols, rows}, cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, border)
// makes for an out of `cols` x `rows` (`m` row by row): `xy` (CV_16SC2) each pixel's source pixel, `weights`
// (CV_16U) its interpolation weights' index; cv::remap(frame, out, xy, weights, cv::INTER_LINEAR, border) is
// then that warp, the same to the bit. Any thread. Declared here for its test.
void perspective_maps(const std::array<double, 9>& m, int cols, int rows, cv::Mat& xy, cv::Mat& weights);
}  // namespace detail

}  // namespace bb::vision
