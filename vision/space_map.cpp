#include "vision/space_map.h"

#include <cassert>
#include <cmath>
#include <nlohmann/json.hpp>

namespace bb::vision {

namespace {
const std::array<Point2, 4> unit_square{Point2{0, 0}, Point2{1, 0}, Point2{1, 1}, Point2{0, 1}};
}

SpaceMap::SpaceMap(int spaces_per_side, double corner_ratio, double band_fraction)
    : spaces_per_side_(spaces_per_side),
      corner_ratio_(corner_ratio),
      band_fraction_(band_fraction),
      width_(1.0 / (2.0 * corner_ratio + (spaces_per_side - 1))),
      corner_(corner_ratio * width_),
      grid_(unit_square) {
  assert(spaces_per_side >= 3 && corner_ratio > 0.5 && band_fraction >= 0.0 && band_fraction < 0.6);
}

void SpaceMap::set_grid(const std::array<Point2, 4>& corners) {
  auto h = Homography::fit({unit_square.begin(), unit_square.end()}, {corners.begin(), corners.end()});
  auto inv = h ? h->inverse() : std::nullopt;
  if (!h || !inv) return;  // a degenerate drag keeps the previous grid
  grid_ = corners;
  to_grid_ = *h;
  from_grid_ = *inv;
}

SpaceMap::Rect SpaceMap::nominal_rect(int space) const {
  assert(space >= 0 && space < space_count());
  const int side = space / spaces_per_side_, j = space % spaces_per_side_;
  const double c = corner_, w = width_;
  if (j == 0) {
    switch (side) {
      case 0:
        return {1 - c, 1 - c, 1, 1};
      case 1:
        return {0, 1 - c, c, 1};
      case 2:
        return {0, 0, c, c};
      default:
        return {1 - c, 0, 1, c};
    }
  }
  switch (side) {
    case 0:
      return {1 - c - j * w, 1 - c, 1 - c - (j - 1) * w, 1};
    case 1:
      return {0, 1 - c - j * w, c, 1 - c - (j - 1) * w};
    case 2:
      return {c + (j - 1) * w, 0, c + j * w, c};
    default:
      return {1 - c, c + (j - 1) * w, 1, c + j * w};
  }
}

Point2 SpaceMap::nominal_point(int space, double along, double depth) const {
  const Rect r = nominal_rect(space);
  const double lw = r.x1 - r.x0, lh = r.y1 - r.y0;
  switch (side_of(space)) {
    case 0:
      return {r.x1 - along * lw, r.y1 - depth * lh};
    case 1:
      return {r.x0 + depth * lw, r.y1 - along * lh};
    case 2:
      return {r.x0 + along * lw, r.y0 + depth * lh};
    default:
      return {r.x1 - depth * lw, r.y0 + along * lh};
  }
}

int SpaceMap::nominal_space_at(Point2 p) const {
  const double c = corner_, w = width_;
  if (p.x < 0 || p.y < 0 || p.x >= 1 || p.y >= 1) return -1;
  const bool left = p.x < c, right = p.x >= 1 - c, top = p.y < c, bottom = p.y >= 1 - c;
  const int n = spaces_per_side_;
  auto clamp_j = [n](int j) { return std::min(std::max(j, 1), n - 1); };
  if (bottom) {
    if (right) return 0;
    if (left) return n;
    return clamp_j(static_cast<int>(std::floor((1 - c - p.x) / w)) + 1);
  }
  if (top) {
    if (left) return 2 * n;
    if (right) return 3 * n;
    return 2 * n + clamp_j(static_cast<int>(std::floor((p.x - c) / w)) + 1);
  }
  if (left) return n + clamp_j(static_cast<int>(std::floor((1 - c - p.y) / w)) + 1);
  if (right) return 3 * n + clamp_j(static_cast<int>(std::floor((p.y - c) / w)) + 1);
  return -1;
}

int SpaceMap::space_at(Point2 board) const { return nominal_space_at(from_grid_.apply(board)); }

Point2 SpaceMap::point_in_space(int space, double along, double depth) const {
  return to_grid_.apply(nominal_point(space, along, depth));
}

std::array<Point2, 4> SpaceMap::outline(int space) const {
  return {point_in_space(space, 0, 0), point_in_space(space, 1, 0), point_in_space(space, 1, 1),
          point_in_space(space, 0, 1)};
}

std::array<Point2, 4> SpaceMap::band_outline(int space) const {
  const double d = 1.0 - band_fraction_;
  return {point_in_space(space, 0, d), point_in_space(space, 1, d), point_in_space(space, 1, 1),
          point_in_space(space, 0, 1)};
}

std::string SpaceMap::to_json() const {
  nlohmann::json j;
  j["spaces_per_side"] = spaces_per_side_;
  j["corner_ratio"] = corner_ratio_;
  j["band_fraction"] = band_fraction_;
  for (const auto& p : grid_) j["grid"].push_back({p.x, p.y});
  return j.dump();
}

std::expected<SpaceMap, std::string> SpaceMap::from_json(const std::string& text) {
  try {
    auto j = nlohmann::json::parse(text);
    const int n = j.at("spaces_per_side").get<int>();
    const double ratio = j.at("corner_ratio").get<double>();
    const double band = j.value("band_fraction", 0.22);
    if (n < 3 || n > 20 || ratio <= 0.5 || ratio > 4 || band < 0 || band >= 0.6)
      return std::unexpected("the stored space map has impossible values; run the calibration again");
    SpaceMap map(n, ratio, band);
    if (j.contains("grid")) {
      std::array<Point2, 4> g{};
      for (size_t i = 0; i < 4; ++i)
        g[i] = {j["grid"].at(i).at(0).get<double>(), j["grid"].at(i).at(1).get<double>()};
      map.set_grid(g);
    }
    return map;
  } catch (const std::exception& e) {
    return std::unexpected(std::string("the stored space map cannot be read (") + e.what() +
                           "); delete it and run the calibration again");
  }
}

std::string SpaceMap::invariant_problem() const {
  for (int s = 0; s < space_count(); ++s)
    if (space_at(centre(s)) != s) return "the centre of space " + std::to_string(s) + " maps elsewhere";
  return {};
}

}  // namespace bb::vision
