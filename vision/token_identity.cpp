#include <algorithm>
#include <cmath>
#include <numbers>
#include <opencv2/imgproc.hpp>

#include "vision/token_locator_impl.h"

// Telling tokens of one colour apart: their outline and cap, weighed jointly per colour group; a near tie
// is a question, never a guess.

namespace bb::vision {

using locator_detail::alike;
using locator_detail::cell;
using locator_detail::chroma_distance;
using locator_detail::features;
using locator_detail::median;
using locator_detail::shape_of;

namespace locator_detail {

std::array<double, 7> log_hu_moments(const cv::Mat& mask) {
  double hu[7];
  cv::HuMoments(cv::moments(mask, true), hu);
  std::array<double, 7> out{};
  for (size_t c = 0; c < 7; ++c)
    out[c] = hu[c] == 0 ? 0 : -std::copysign(1.0, hu[c]) * std::log10(std::abs(hu[c]));
  return out;
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

}  // namespace locator_detail

// Two tokens of one look decided in one blob (a look-alike came onto a token's space, or a soft view
// joined two standing close) were held by neither: the next move of either was a question by outline, and
// blur or JPEG make a square and a star alike (pairs/blur's eleventh move, pairs/mixed's first blue one).
// A hand moves one token at a time, and each token's pixels are a piece of the shared blob: the one held
// at the decision before (`held_centre`, `held_area`) by its blob then, still inside the shared one; the
// other, when it came, by the rest of the shared blob (its centre and size are the shared blob's less
// the held one's piece). When one of them leaves, the blob left is the other's piece, unchanged: it is
// told untouched, and the one that moved by elimination.
void TokenLocator::Impl::hold_shared_by_pieces(const std::vector<TokenObservation>& decided,
                                               const std::vector<Point2>& held_centre,
                                               const std::vector<double>& held_area) {
  Impl& im = *this;
  const size_t n = decided.size();
  auto sharing = [&](size_t t) {
    const TokenObservation& o = decided[t];
    return o.visible && o.shared && im.piece_centre[t].x < 0;
  };
  auto same_blob = [&](size_t a, size_t b) {
    return decided[a].space == decided[b].space &&
           std::hypot(decided[a].centre.x - decided[b].centre.x, decided[a].centre.y - decided[b].centre.y) <
               0.5;
  };
  for (size_t t = 0; t < n; ++t) {
    if (!sharing(t) || t >= held_area.size() || held_area[t] <= 0) continue;
    const Point2 was = held_centre[t];
    // Its blob then lies inside the shared one: within a token's width of its centre.
    if (std::hypot(was.x - decided[t].centre.x, was.y - decided[t].centre.y) > std::sqrt(im.token_area[t]))
      continue;
    im.piece_centre[t] = was;
    im.piece_space[t] = decided[t].space;
    im.piece_area[t] = held_area[t];
  }
  for (size_t t = 0; t < n; ++t) {
    if (!sharing(t)) continue;
    size_t partner = n;
    for (size_t u = 0; u < n; ++u)
      if (u != t && decided[u].visible && decided[u].shared && same_blob(t, u))
        partner = partner == n ? u : n + 1;  // more than one partner: no way to divide the blob
    if (partner >= n || im.piece_centre[partner].x < 0) continue;
    const double whole = decided[t].blob_pixels;
    const double theirs = im.piece_area[partner] * im.token_area[partner];
    const double mine = whole - theirs;
    if (mine < 0.5 * im.token_area[t]) continue;  // the held piece is most of the blob: nothing left to go by
    const Point2 c = decided[t].centre, p = im.piece_centre[partner];
    im.piece_centre[t] = {(c.x * whole - p.x * theirs) / mine, (c.y * whole - p.y * theirs) / mine};
    im.piece_space[t] = decided[t].space;
    im.piece_area[t] = mine / im.token_area[t];
  }
}

void TokenLocator::remember_decided(const cv::Mat& top, const std::vector<TokenObservation>& decided,
                                    double sure) {
  Impl& im = *impl_;
  // The holds of the decision before this one: a token held then and sharing one blob with a look-alike
  // now is held by its piece of that blob (below).
  const std::vector<Point2> held_centre = std::move(im.decided_centre);
  const std::vector<double> held_area = std::move(im.decided_area);
  im.decided_top = top.clone();
  im.decided_centre.assign(decided.size(), {});
  im.decided_area.assign(decided.size(), 0.0);
  im.decided_seen = decided;
  // What the faint score left out on this view (tokens seen by colour, hands, large blobs), when it was
  // scored: a faint token's arrival is looked for clear of it (faint_arrivals).
  im.decided_excluded = im.faint_fresh ? im.faint_excluded.clone() : cv::Mat();
  for (size_t t = 0; t < decided.size(); ++t) {
    const TokenObservation& o = decided[t];
    // Seen sure, alone, and at about its learned size (a blob three times a token's area is the token and
    // a shadow or a sleeve of its look, or not the token at all: nothing to hold on to).
    if (!o.visible || o.shared || o.confidence < sure || o.visible_fraction < 0.6 || o.visible_fraction > 1.4)
      continue;
    im.decided_centre[t] = o.centre;
    im.decided_area[t] = o.visible_fraction;  // over the learned area: locate() compares it alike
  }
  // Just learned, two tokens of one look touching on the start space share one blob, neither held; each
  // is held by its piece of it as learning divided them (its area was measured from that piece). When
  // one leaves, the other's blob is its piece, unchanged: the one that moved is told by elimination (in
  // pairs/blur the two blue tokens touching on GO made the first move of each a question by outline).
  // Held so from one decision to the next while both stay there, shared.
  if (im.learned_seen.size() == decided.size()) {
    im.piece_centre.assign(decided.size(), {-1, -1});
    im.piece_space.assign(decided.size(), -1);
    im.piece_area.assign(decided.size(), 0.0);
    for (size_t t = 0; t < decided.size(); ++t) {
      const TokenObservation& piece = im.learned_seen[t];
      if (piece.visible && piece.outline_cut && piece.visible_fraction > 0) {
        im.piece_centre[t] = piece.centre;
        im.piece_space[t] = piece.space;
        im.piece_area[t] = 1.0;  // the learned area is the piece's
      }
    }
  }
  im.learned_seen.clear();
  if (im.piece_centre.size() != decided.size() || im.token_area.size() != decided.size()) {
    im.piece_centre.assign(decided.size(), {-1, -1});
    im.piece_space.assign(decided.size(), -1);
    im.piece_area.assign(decided.size(), 0.0);
  }
  if (im.token_area.size() == decided.size()) im.hold_shared_by_pieces(decided, held_centre, held_area);
  for (size_t t = 0; t < im.piece_centre.size(); ++t) {
    const TokenObservation& o = decided[t];
    if (im.piece_centre[t].x < 0) continue;
    if (im.decided_area[t] > 0 || !o.visible || !o.shared || o.space != im.piece_space[t]) {
      im.piece_centre[t] = {-1, -1};  // seen alone, or gone: held as any token is, or not at all
      continue;
    }
    im.decided_centre[t] = im.piece_centre[t];
    im.decided_area[t] = im.piece_area[t];
  }
}

bool TokenLocator::remember_settled(size_t token, int space) {
  Impl& im = *impl_;
  if (im.decided_top.empty() || token >= im.decided_seen.size()) return false;
  const TokenObservation* seen = &im.decided_seen[token];
  if (seen->visible && seen->space != space && im.token_group.size() == im.decided_seen.size()) {
    // The question put it on another candidate: its blob on `space` is the one a look-alike was given
    // there (the two may have swapped), when exactly one was, alone and of this token's size. That
    // look-alike is not held by it any more: the family said whose it is.
    const TokenObservation* there = nullptr;
    size_t given_to = 0;
    for (size_t u = 0; u < im.decided_seen.size(); ++u) {
      const TokenObservation& p = im.decided_seen[u];
      if (u == token || im.token_group[u] != im.token_group[token] || !p.visible || p.shared ||
          p.space != space)
        continue;
      const double size = p.blob_pixels / im.token_area[token];
      if (size < 0.6 || size > 1.4) continue;
      if (there) return false;
      there = &p;
      given_to = u;
    }
    if (!there) return false;
    if (im.decided_area[given_to] > 0 && std::hypot(im.decided_centre[given_to].x - there->centre.x,
                                                    im.decided_centre[given_to].y - there->centre.y) < 0.5)
      im.decided_area[given_to] = 0;
    im.decided_centre[token] = there->centre;
    im.decided_area[token] = there->blob_pixels / im.token_area[token];
    return true;
  }
  const TokenObservation& o = *seen;
  if (!o.visible || o.space != space || o.shared || o.visible_fraction < 0.6 || o.visible_fraction > 1.4)
    return false;
  im.decided_centre[token] = o.centre;
  im.decided_area[token] = o.visible_fraction;
  return true;
}

void TokenLocator::forget_decided() {
  impl_->decided_seen.clear();
  impl_->decided_top.release();
  impl_->decided_excluded.release();
  impl_->decided_centre.clear();
  impl_->decided_area.clear();
  impl_->piece_centre.clear();
  impl_->piece_space.clear();
  impl_->piece_area.clear();
}

bool TokenLocator::Impl::untouched(size_t t, const Tally& blob, double area) const {
  // The blob's centre within a pixel and a half of where the token stood, its size within a tenth, and
  // at most a tenth of its pixels changed by more than 12 grey levels a channel on average (sensor noise
  // in the averaged still view is 1-3; a token lifted and put down again, or another one in its place,
  // moves its edge by pixels and changes a rim's worth of them).
  if (decided_top.empty() || !current_top || t >= decided_area.size() || decided_area[t] <= 0) return false;
  if (std::hypot(blob.centre.x - decided_centre[t].x, blob.centre.y - decided_centre[t].y) > 1.5)
    return false;
  const double size = static_cast<double>(blob.pixels.size()) / area / decided_area[t];
  if (size < 0.9 || size > 1.1) return false;
  return changed_share(blob) <= 0.1;
}

bool TokenLocator::Impl::grown_by_arrival(size_t t, const Tally& blob) const {
  if (decided_top.empty() || !current_top || t >= decided_area.size() || decided_area[t] <= 0 ||
      t >= token_area.size())
    return false;
  // A third of a token is far beyond a token's own blob's change between frames (3-10%); what came is
  // new (a fifth of the blob's pixels or more changed), where a still token's blob hardly changes (at most
  // a tenth for an untouched one).
  const double before = decided_area[t] * token_area[t];
  if (static_cast<double>(blob.pixels.size()) < before + token_area[t] / 3) return false;
  const int s = settings.top_side;
  const Point2 c = decided_centre[t];
  const bool on_it = std::any_of(blob.pixels.begin(), blob.pixels.end(),
                                 [&](int i) { return std::hypot(i % s - c.x, i / s - c.y) <= 1.5; });
  return on_it && changed_share(blob) >= 0.2;
}

double TokenLocator::Impl::changed_share(const Tally& blob) const {
  if (decided_top.empty() || !current_top || blob.pixels.empty()) return 1.0;
  size_t changed = 0;
  for (int i : blob.pixels) {
    const cv::Vec3b a = current_top->at<cv::Vec3b>(i), b = decided_top.at<cv::Vec3b>(i);
    const int change = std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]) + std::abs(a[2] - b[2]);
    changed += change > 36;
  }
  return static_cast<double>(changed) / static_cast<double>(blob.pixels.size());
}

bool TokenLocator::Impl::stood_elsewhere(size_t t, const Tally& blob, double area) const {
  // Elsewhere: more than one and a half token widths from where it stood. Nearer, the blob may be what is
  // left of its own (a token touching it has gone, taking the rim their blobs shared: the centre moves,
  // the pixels left do not change).
  if (decided_top.empty() || t >= decided_area.size() || decided_area[t] <= 0) return false;
  if (std::hypot(blob.centre.x - decided_centre[t].x, blob.centre.y - decided_centre[t].y) <=
      1.5 * std::sqrt(area))
    return false;
  return changed_share(blob) <= 0.1;
}

bool TokenLocator::Impl::held_by_another(const std::vector<size_t>& members, const Tally& blob) const {
  if (decided_top.empty()) return false;
  for (size_t u = 0; u < decided_area.size(); ++u) {
    if (decided_area[u] <= 0 || std::find(members.begin(), members.end(), u) != members.end()) continue;
    if (std::hypot(blob.centre.x - decided_centre[u].x, blob.centre.y - decided_centre[u].y) <= 1.5)
      return changed_share(blob) <= 0.1;
  }
  return false;
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
  // A blob twice a token's size, or one a look-alike stood on that another of its look has come to touch,
  // holds two of them.
  std::vector<const Tally*> pairs;
  for (const Tally* b : found) {
    bool pair = !near && static_cast<double>(b->pixels.size()) > 1.6 * mean_area;
    for (size_t k = 0; !near && !pair && k < n; ++k) pair = grown_by_arrival(members[k], *b);
    if (pair) pairs.push_back(b);
  }
  const auto is_pair = [&](const Tally& b) {
    return std::find(pairs.begin(), pairs.end(), &b) != pairs.end();
  };
  // In shape_distance's units; the size of a blob against the learned area counts too (a token's area
  // varies by 3-10% between frames).
  constexpr double absent_cost = 6.0, pair_cost = 3.0, margin = 3.0, size_scale = 0.12, stay_bonus = 2.0;
  // Grey and black tokens in one group (alike in colour) are told apart by brightness first: a blob whose
  // median brightness is clearly nearer one member's learned brightness than every other member's (by a
  // factor of 1.5 more) is that member's look. A metal token's soft outline in blur or dim light is the
  // part of its rim the light shows, which changes with where it stands; its brightness does not.
  auto told_by_brightness = [&](size_t m, const Tally& b) {
    if (b.brightness <= 0) return false;
    const double own = std::abs(std::log(b.brightness / std::max(0.01, tokens[m].mean[2])));
    for (size_t other : members)
      if (other != m &&
          std::abs(std::log(b.brightness / std::max(0.01, tokens[other].mean[2]))) - own < std::log(1.5))
        return false;
    return true;
  };
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
    if (is_pair(b)) return pair_cost;
    // Usually one token moves at a time: the others' blobs are still on their spaces.
    const bool stayed = !last_spaces.empty() && b.per_space[static_cast<size_t>(last_spaces[m])] * 2 >
                                                    static_cast<int>(b.pixels.size());
    const double prior = stayed ? -stay_bonus : 0.0;
    if (!tokens[m].shape.known()) return prior;  // an old set-up without outlines: only where it stood
    // A rough outline (cut where tokens touched at setup) says half as much.
    // A token told by brightness: its outline says half as much (the brightness term below says the rest).
    const double outline_weight = tokens[m].outline_cut || told_by_brightness(m, b) ? 0.5 : 1.0;
    // Grey and black tokens alike in colour: how far the blob's brightness is from the token's, a factor
    // of two costing as much as the margin (in a shadow or dim light both blobs change alike, so which
    // is the brighter still tells them apart; JPEG and blur soften the outlines, not that).
    const double level =
        b.brightness > 0
            ? std::abs(std::log(b.brightness / std::max(0.01, tokens[m].mean[2]))) / std::log(2.0) * margin
            : 0.0;
    return outline_weight * shape_distance(tokens[m].shape, b.shape) + cap_distance(tokens[m].cap, b.cap) +
           size + level + prior;
  };
  // A token untouched on its blob since every token was last decided is that blob's (a hand moves one
  // token at a time): no way gives it another blob or none, nor its blob to another token. Its look-
  // alikes share the rest, and the one that moved is told by elimination, not by an outline that blur
  // makes alike.
  constexpr double never = 1e6;
  std::vector<int> pinned(n, -1);
  if (!near)
    for (size_t k = 0; k < n; ++k)
      for (size_t b = 0; b < found.size() && pinned[k] < 0; ++b)
        if (untouched(members[k], *found[b], tokens[members[k]].area_px)) pinned[k] = static_cast<int>(b);
  for (size_t k = 0; k < n; ++k)
    for (size_t j = k + 1; j < n; ++j)
      if (pinned[k] >= 0 && pinned[k] == pinned[j]) pinned[k] = pinned[j] = -1;
  auto way_cost = [&](size_t k, size_t b) {
    if (pinned[k] >= 0) return pinned[k] == static_cast<int>(b) ? 0.0 : never;
    if (std::find(pinned.begin(), pinned.end(), static_cast<int>(b)) != pinned.end()) return never;
    if (stood_elsewhere(members[k], *found[b], tokens[members[k]].area_px)) return never;
    return cost(members[k], *found[b]);
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
    self(self, i + 1, total + (pinned[i] >= 0 ? never : absent_cost));
    for (size_t b = 0; b < found.size(); ++b) {
      const int capacity = is_pair(*found[b]) ? 2 : 1;
      if (used[b] >= capacity) continue;
      ++used[b];
      choice[i] = static_cast<int>(b);
      self(self, i + 1, total + way_cost(i, b));
      --used[b];
    }
    choice[i] = -1;
  };
  search(search, 0, 0.0);
  const size_t eliminated = by_elimination(members, found, tokens, near, best, best_choice, best_with);
  for (size_t k = 0; k < n; ++k) {
    const size_t t = members[k];
    if (best_choice[k] < 0) continue;  // covered, or gone
    const Tally& mine = *found[static_cast<size_t>(best_choice[k])];
    out[t] = observe(static_cast<int>(t), mine, tokens[t].area_px);
    for (int i : mine.pixels) claimed.at<uint8_t>(i) = 255;
    // At setup each token has its own blob (found by where it stands) and its area is measured from it.
    const bool shared = is_pair(mine);
    out[t].shared = shared;
    if (shared) out[t].visible_fraction = std::min(1.0, out[t].visible_fraction / 2);
    for (size_t b = 0; b < found.size(); ++b) {
      if (static_cast<int>(b) == best_choice[k]) continue;
      if (best_with[k * (found.size() + 1) + b] < best + margin) ask_between(out[t], *found[b]);
    }
    // Two tokens whose outlines could not be learned (they touched at setup) could swap unnoticed: every
    // answer in their group is a guess, unless a token simply stayed where it was. With one unknown the
    // others' outlines decide (the joint costs above), and the tracker learns the outlines once each
    // token is decided alone.
    int unknown_outlines = 0;
    for (size_t m : members) unknown_outlines += !tokens[m].shape.known();
    const bool unknown_outline = unknown_outlines >= 2;
    const bool stayed = !last_spaces.empty() && out[t].space == last_spaces[t];
    if (k == eliminated) {
      // Sure only as far as the others are: no other way of giving out the blobs was nearly as good.
      out[t].by_elimination = true;
      continue;
    }
    // Of a token told by brightness, a blob of about its size is its own: no other member could be it,
    // and nothing else on the board looks like it and is of its size (the look-alike the question below
    // guards against is another member).
    const double size = static_cast<double>(mine.pixels.size()) / tokens[t].area_px;
    const bool own_by_brightness =
        !near && !shared && told_by_brightness(members[k], mine) && size > 0.6 && size < 1.5;
    // Every other member untouched on its own blob: the look-alike the question below guards against is
    // accounted for, and a blob of about this token's size is its own (as a token of a colour of its own
    // is).
    out[t].untouched = pinned[k] >= 0;
    bool others_untouched = true;
    for (size_t j = 0; j < n; ++j) others_untouched &= j == k || pinned[j] >= 0;
    const bool own_by_elimination = !near && !shared && others_untouched && size > 0.6 && size < 1.5;
    if ((best_with[k * (found.size() + 1) + found.size()] < best + margin && !own_by_brightness &&
         !own_by_elimination) ||
        (!near && (unknown_outline || too_many) && !stayed)) {
      // The blob might as well be another of the same look, this token being covered or elsewhere.
      hold_to_question(out[t], t);
    }
  }
}

size_t TokenLocator::Impl::by_elimination(const std::vector<size_t>& members,
                                          const std::vector<Tally*>& found,
                                          const std::vector<TokenAppearance>& tokens,
                                          const std::vector<Point2>* near, double best,
                                          std::vector<int>& best_choice,
                                          const std::vector<double>& best_with) const {
  // A token whose learned outline is off (measured once at setup, in a soft or JPEG-smeared view) costs
  // more on its own blob than being covered: it would be said hidden, then lost, for good. When it is the
  // only one of its look left without a blob, exactly one blob of its look is left without a token, that
  // blob is its size, and every other token's blob is beyond doubt (no nearly as good way gives any of
  // them another), the blob is it.
  constexpr double margin = 3.0;
  const size_t n = members.size(), none = n;
  if (near || n < 2 || n > 5) return none;
  for (size_t m : members)
    if (!tokens[m].shape.known()) return none;  // outlines unknown: nothing to correct, nothing to go by
  size_t absent = none;
  for (size_t k = 0; k < n; ++k)
    if (best_choice[k] < 0) {
      if (absent != none) return none;
      absent = k;
    }
  if (absent == none) return none;
  std::vector<int> used(found.size(), 0);
  for (size_t k = 0; k < n; ++k)
    if (best_choice[k] >= 0) ++used[static_cast<size_t>(best_choice[k])];
  // Blobs under half its size are not it (a coloured token's rim or shadow matching the look, speckle):
  // they neither count as the one left nor stand in its way.
  const double area = tokens[members[absent]].area_px;
  size_t left = found.size();
  for (size_t b = 0; b < found.size(); ++b)
    if (!used[b] && static_cast<double>(found[b]->pixels.size()) >= 0.5 * area) {
      if (left != found.size()) return none;
      left = b;
    }
  if (left == found.size()) return none;
  const double size = static_cast<double>(found[left]->pixels.size()) / area;
  // Every other member untouched on its own blob and this blob new since the last decision: it is the one
  // that moved, though a soft view shows less of it (in hard/mixed a metal grey token's blob was 0.64 of
  // its size, and the token was said hidden).
  bool others_untouched = true;
  for (size_t k = 0; k < n; ++k)
    others_untouched &= k == absent || untouched(members[k], *found[static_cast<size_t>(best_choice[k])],
                                                 tokens[members[k]].area_px);
  const bool arrived = others_untouched && changed_share(*found[left]) > 0.5;
  if (size < (arrived ? 0.6 : 0.7) || size > 1.4) return none;
  for (size_t k = 0; k < n; ++k) {
    if (k == absent) continue;
    if (used[static_cast<size_t>(best_choice[k])] > 1) return none;  // a shared blob: not beyond doubt
    for (size_t b = 0; b <= found.size(); ++b)
      if (static_cast<int>(b) != best_choice[k] && best_with[k * (found.size() + 1) + b] < best + margin)
        return none;
  }
  best_choice[absent] = static_cast<int>(left);
  return absent;
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

void TokenLocator::Impl::split_touching(std::vector<Tally>& parts, const std::vector<size_t>& members,
                                        const std::vector<Point2>& near, int side) const {
  std::vector<Tally> out;
  for (Tally& part : parts) {
    std::vector<size_t> inside;  // the tokens standing in this blob
    for (size_t m : members) {
      double closest = 1e18;
      for (int i : part.pixels)
        closest = std::min(closest, std::hypot(i % side - near[m].x, i / side - near[m].y));
      if (closest <= 2.0) inside.push_back(m);
    }
    if (inside.size() < 2) {
      out.push_back(std::move(part));
      continue;
    }
    std::vector<Tally> pieces(inside.size());
    for (auto& p : pieces) p.per_space.assign(part.per_space.size(), 0);
    for (int i : part.pixels) {
      size_t nearest = 0;
      double best = 1e18;
      for (size_t k = 0; k < inside.size(); ++k) {
        const Point2 c = near[inside[k]];
        const double d = std::hypot(i % side - c.x, i / side - c.y);
        if (d < best) best = d, nearest = k;
      }
      pieces[nearest].pixels.push_back(i);
      ++pieces[nearest].per_space[static_cast<size_t>(labels.at<int16_t>(i))];
    }
    for (auto& p : pieces) {
      p.divided = true;
      out.push_back(std::move(p));
    }
  }
  parts = std::move(out);
}

}  // namespace bb::vision
