#include <algorithm>
#include <cmath>
#include <opencv2/core.hpp>

#include "vision/token_locator_impl.h"

// A faint token's arrival, when its place's score alone is under the floor (faint_token.cpp): what is new
// on the board since the last decision. Instrumented on the accuracy bench's white1 row (each place's score
// per deciding frame): in bright light, where the paper is nearly white and only the white token's rim and
// shadow show, its new place scored 0.029-0.046 (spaces 11 and 18), under the floor of 0.05 that keeps the
// print, a noisy view and a shadow fallen since the empty board from being taken for it: both moves were
// missed. The same place scored nothing at the decision before, and print, noise and light score alike in
// both views: their difference is the token's arrival (as when a faint token is learned, against the board
// last settled). Runs only on a deciding frame where a faint token was not found: no cost otherwise.

namespace bb::vision {

std::vector<TokenLocator::Impl::FaintPeak> TokenLocator::Impl::faint_arrivals(double weakest, size_t most) {
  if (decided_top.empty() || decided_excluded.empty() || !current_top ||
      decided_excluded.size() != faint_excluded.size())
    return {};
  // Clear of what either view left out: a coloured token that left a place, or came, changes its place's
  // score by far more than a white token does.
  const cv::Mat own_excluded = faint_excluded;
  faint_excluded = own_excluded | decided_excluded;
  // From 0.025, 8 times the change's noise and 0.4 of the weakest faint token's learned score; the change
  // taken where it scores so now too (faint_change_peaks: beside the place a white token left, its
  // shadow's strongly negative score in the decided view, -0.106 in white1/bright, makes a difference as
  // large as a token's arrival where nothing stands now).
  auto got = faint_change_peaks(0.4 * weakest, most);
  faint_excluded = own_excluded;
  // Only a place about clear of what either view left out over the whole square its score reads (a few
  // pixels may be: 3 of 441 by the white token's own rim in white1/bright): beside another token, whose
  // place and margin are left out, the part left of a white token's place puts its centre off (white1/
  // clean: beside another token on space 7 it scored best over the part of its place on space 6, a tenth
  // of the square left out). A place so read that scored better than the one kept, on another space,
  // leaves no answer.
  const int s = settings.top_side;
  const int reach = static_cast<int>(std::ceil(1.3 * 0.22 * map.space_width() * s));
  const auto space_at = [&](const FaintPeak& p) {
    return labels.at<int16_t>(static_cast<int>(std::lround(p.centre.y)),
                              static_cast<int>(std::lround(p.centre.x)));
  };
  std::vector<FaintPeak> clear;
  int off_space = -1;  // the space of the best place not clear, -1 none
  for (const FaintPeak& p : got) {
    const int cx = static_cast<int>(std::lround(p.centre.x)), cy = static_cast<int>(std::lround(p.centre.y));
    const cv::Rect square =
        cv::Rect(cx - reach, cy - reach, 2 * reach + 1, 2 * reach + 1) & cv::Rect(0, 0, s, s);
    const int left_out = cv::countNonZero(faint_excluded(square) | decided_excluded(square));
    if (left_out <= square.area() / 20) {
      if (off_space >= 0 && off_space != space_at(p)) return {};
      clear.push_back(p);
    } else if (off_space < 0 && clear.empty()) {
      off_space = space_at(p);
    }
  }
  return clear;
}

}  // namespace bb::vision
