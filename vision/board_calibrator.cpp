#include "vision/board_calibrator.h"

#include <algorithm>
#include <cmath>
#include <opencv2/imgproc.hpp>

namespace bb::vision {

namespace {

std::expected<Calibration, std::string> finish(const std::vector<Point2>& board,
                                               const std::vector<Point2>& image, Calibration::Method method,
                                               int markers) {
  auto h = Homography::fit(board, image);
  auto inv = h ? h->inverse() : std::nullopt;
  if (!h || !inv) return std::unexpected("the board's corners are degenerate in this view; move the camera");
  Calibration c;
  c.board_to_image = *h;
  c.image_to_board = *inv;
  c.method = method;
  c.markers_seen = markers;
  double sum = 0;
  for (size_t i = 0; i < board.size(); ++i) {
    const Point2 p = h->apply(board[i]);
    sum += (p.x - image[i].x) * (p.x - image[i].x) + (p.y - image[i].y) * (p.y - image[i].y);
  }
  c.fit_error_px = std::sqrt(sum / static_cast<double>(board.size()));
  return c;
}

// Intersection of two lines given as (vx, vy, x0, y0).
cv::Point2d intersect(const cv::Vec4f& a, const cv::Vec4f& b) {
  const double det = a[0] * (-b[1]) - a[1] * (-b[0]);
  if (std::abs(det) < 1e-9) return {a[2], a[3]};
  const double dx = b[2] - a[2], dy = b[3] - a[3];
  const double t = (dx * (-b[1]) - dy * (-b[0])) / det;
  return {a[2] + t * a[0], a[3] + t * a[1]};
}

}  // namespace

BoardCalibrator::BoardCalibrator(MarkerLayout layout) : layout_(layout) {}

std::expected<Calibration, std::string> BoardCalibrator::from_markers(const cv::Mat& frame) const {
  return fit_markers(detector_.detect(frame));
}

std::expected<Calibration, std::string> BoardCalibrator::fit_markers(
    const std::vector<DetectedMarker>& markers) const {
  // Two markers leave most of the board to extrapolation from two small squares: not good enough.
  if (markers.size() < 3)
    return std::unexpected(
        "fewer than three corner markers are visible; check that all four are stuck on and nothing covers "
        "them");
  auto fit = [&](const std::vector<DetectedMarker>& use) {
    std::vector<Point2> board, image;
    for (const auto& m : use) {
      const auto expected = layout_.corners(m.id);
      for (size_t k = 0; k < 4; ++k) {
        board.push_back(expected[k]);
        image.push_back(m.corners[k]);
      }
    }
    return finish(board, image, Calibration::Method::markers, static_cast<int>(use.size()));
  };
  auto c = fit(markers);
  // One badly found marker (half hidden, smeared) spoils the rest: if one disagrees with the others far
  // more than they do among themselves, fit without it.
  if (c && markers.size() >= 4 && c->fit_error_px > 0.5) {
    std::optional<Calibration> best;
    for (size_t drop = 0; drop < markers.size(); ++drop) {
      std::vector<DetectedMarker> rest;
      for (size_t i = 0; i < markers.size(); ++i)
        if (i != drop) rest.push_back(markers[i]);
      auto trial = fit(rest);
      if (trial && (!best || trial->fit_error_px < best->fit_error_px)) best = *trial;
    }
    if (best && best->fit_error_px < c->fit_error_px / 3) c = *best;
  }
  // A marker stuck in the wrong corner or a stray printout shows as a poor fit: refuse rather than misplace
  // every space.
  if (c && c->fit_error_px > 2.0)
    return std::unexpected(
        "the corner markers do not agree with each other; check each is in its own corner");
  return c;
}

std::expected<Calibration, std::string> BoardCalibrator::from_contour(
    const cv::Mat& frame, const std::optional<Calibration>& previous) const {
  return contour(frame, previous, {});
}

std::expected<Calibration, std::string> BoardCalibrator::contour(
    const cv::Mat& frame, const std::optional<Calibration>& previous,
    const std::vector<DetectedMarker>& markers) const {
  cv::Mat gray, binary;
  if (frame.channels() == 3)
    cv::cvtColor(frame, gray, cv::COLOR_BGR2GRAY);
  else
    gray = frame.clone();
  cv::GaussianBlur(gray, gray, cv::Size(5, 5), 0);
  cv::threshold(gray, binary, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
  cv::morphologyEx(binary, binary, cv::MORPH_CLOSE,
                   cv::getStructuringElement(cv::MORPH_RECT, cv::Size(9, 9)));
  std::vector<std::vector<cv::Point>> contours;
  cv::findContours(binary, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_NONE);
  const std::vector<cv::Point>* best = nullptr;
  double best_area = 0.05 * frame.cols * frame.rows;
  for (const auto& c : contours) {
    const double a = cv::contourArea(c);
    if (a > best_area) {
      best_area = a;
      best = &c;
    }
  }
  if (!best)
    return std::unexpected("no board-sized bright square is in view; check the camera points at the board");
  std::vector<cv::Point> hull, quad;
  cv::convexHull(*best, hull);
  // Corners notched by unreadable markers need a coarser polygon before the sides are refined.
  for (double epsilon : {0.02, 0.03, 0.045, 0.06}) {
    cv::approxPolyDP(hull, quad, epsilon * cv::arcLength(hull, true), true);
    if (quad.size() <= 4) break;
  }
  if (quad.size() != 4)
    return std::unexpected(
        "the board's outline is not a clear four-sided shape; stick the corner markers on");
  // An outline on the frame's edge is the frame, not a board: the board must be wholly in view.
  for (const auto& p : quad)
    if (p.x < 3 || p.y < 3 || p.x > frame.cols - 4 || p.y > frame.rows - 4)
      return std::unexpected("the board is not wholly in view; move the camera so all four corners show");

  // Refine each side by a line through the contour points of its middle part, which ignores rounded or
  // notched corners, then intersect neighbouring sides.
  std::array<cv::Vec4f, 4> lines;
  for (size_t s = 0; s < 4; ++s) {
    const cv::Point2d a = quad[s], b = quad[(s + 1) % 4];
    const cv::Point2d d = b - a;
    const double len2 = d.dot(d);
    std::vector<cv::Point2f> side;
    for (const auto& p : *best) {
      const cv::Point2d q = cv::Point2d(p) - a;
      const double t = q.dot(d) / len2;
      const double dist = std::abs(q.x * d.y - q.y * d.x) / std::sqrt(len2);
      if (t > 0.15 && t < 0.85 && dist < 6)
        side.emplace_back(static_cast<float>(p.x), static_cast<float>(p.y));
    }
    if (side.size() < 10)
      return std::unexpected("the board's edges are not clearly visible; improve the light");
    cv::fitLine(side, lines[s], cv::DIST_HUBER, 0, 0.01, 0.01);
  }
  std::array<Point2, 4> corners;
  for (size_t s = 0; s < 4; ++s) {
    const cv::Point2d p = intersect(lines[(s + 3) % 4], lines[s]);
    corners[s] = {p.x, p.y};
  }
  // Order clockwise on screen (y down), then choose which corner is GO.
  Point2 centre{};
  for (const auto& p : corners) centre = {centre.x + p.x / 4, centre.y + p.y / 4};
  std::sort(corners.begin(), corners.end(), [&](Point2 a, Point2 b) {
    return std::atan2(a.y - centre.y, a.x - centre.x) < std::atan2(b.y - centre.y, b.x - centre.x);
  });
  size_t go = 0;
  if (!markers.empty()) {
    // A marker too blurred or small to fit the board by itself still says which corner is which: its
    // outer corner is the board's corner.
    double best_cost = 1e18;
    for (size_t g = 0; g < 4; ++g) {
      double cost = 0;
      for (const auto& m : markers) {
        const Point2 outer = m.corners[static_cast<size_t>((m.id + 2) % 4)];
        const Point2 c = corners[(g + static_cast<size_t>(m.id)) % 4];
        cost += std::hypot(c.x - outer.x, c.y - outer.y);
      }
      if (cost < best_cost) best_cost = cost, go = g;
    }
  } else if (previous) {
    const Point2 prev = previous->image_corner(0);
    double best_d = 1e18;
    for (size_t i = 0; i < 4; ++i) {
      const double dd = std::hypot(corners[i].x - prev.x, corners[i].y - prev.y);
      if (dd < best_d) best_d = dd, go = i;
    }
  } else {
    for (size_t i = 1; i < 4; ++i)
      if (corners[i].x + corners[i].y > corners[go].x + corners[go].y) go = i;
  }
  // Board corners clockwise from GO: (1,1), (0,1), (0,0), (1,0).
  std::vector<Point2> board, image;
  for (size_t k = 0; k < 4; ++k) {
    board.push_back(MarkerLayout::board_corner(static_cast<int>(k)));
    image.push_back(corners[(go + k) % 4]);
  }
  return finish(board, image, Calibration::Method::contour, 0);
}

std::expected<Calibration, std::string> BoardCalibrator::from_markers_near(
    const cv::Mat& frame, const Calibration& previous) const {
  std::vector<DetectedMarker> expected;
  for (int id = 0; id < MarkerLayout::count; ++id) {
    DetectedMarker m;
    m.id = id;
    const auto corners = layout_.corners(id);
    for (size_t k = 0; k < 4; ++k) m.corners[k] = previous.board_to_image.apply(corners[k]);
    expected.push_back(m);
  }
  const auto near = detector_.detect_near(frame, expected);
  if (near.size() < static_cast<size_t>(MarkerLayout::count))
    return std::unexpected("not every corner marker is where it was; search the whole frame");
  return fit_markers(near);
}

std::expected<Calibration, std::string> BoardCalibrator::calibrate(
    const cv::Mat& frame, const std::optional<Calibration>& previous) const {
  // Where the markers were last seen, a look at full resolution in four small windows costs a fraction of
  // a search; a board or camera nudged by less than a marker's side is still found there.
  if (previous && previous->method == Calibration::Method::markers)
    if (auto near = from_markers_near(frame, *previous)) return near;
  const auto markers = detector_.detect(frame);
  auto by_markers = fit_markers(markers);
  if (by_markers) return by_markers;
  auto by_contour = contour(frame, previous, markers);
  if (by_contour) return by_contour;
  return std::unexpected(by_markers.error() + "; and " + by_contour.error());
}

double BoardCalibrator::corner_shift_px(const Calibration& a, const Calibration& b) {
  double worst = 0;
  for (int k = 0; k < 4; ++k) {
    const Point2 p = a.image_corner(k), q = b.image_corner(k);
    worst = std::max(worst, std::hypot(p.x - q.x, p.y - q.y));
  }
  return worst;
}

}  // namespace bb::vision
