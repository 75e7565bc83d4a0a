#include "vision/marker_detector.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <opencv2/aruco.hpp>
#include <opencv2/core/version.hpp>
#include <opencv2/imgproc.hpp>

// OpenCV 4.7 moved ArUco detection into a detector object (cv::aruco::ArucoDetector, dictionaries by value,
// generateImageMarker); 4.6 (Debian 12) has the free functions of the contrib module. This file is the only
// one that knows.
#if CV_VERSION_MAJOR > 4 || (CV_VERSION_MAJOR == 4 && CV_VERSION_MINOR >= 7)
#define BOARDBANK_ARUCO_DETECTOR_OBJECT 1
#endif

namespace bb::vision {

namespace {
constexpr auto dictionary_name = cv::aruco::DICT_4X4_50;
// Frames are first searched at this width: the board's markers are still a dozen pixels across there, and
// a 720p frame is searched in a quarter of the time. Then each marker is found again at full resolution.
constexpr int search_width = 640;
// When the quick search misses a marker (blur, a hand, a very small board), the old, thorough search runs
// at up to this width.
constexpr int thorough_width = 1280;
// The window around an expected marker reaches this many marker sides beyond it.
constexpr double near_margin = 1.0;
}  // namespace

struct MarkerDetector::Impl {
#ifdef BOARDBANK_ARUCO_DETECTOR_OBJECT
  cv::aruco::Dictionary dictionary = cv::aruco::getPredefinedDictionary(dictionary_name);
#else
  cv::Ptr<cv::aruco::Dictionary> dictionary = cv::aruco::getPredefinedDictionary(dictionary_name);
#endif
  cv::aruco::DetectorParameters parameters;
  cv::aruco::DetectorParameters near_parameters;
  cv::aruco::DetectorParameters search_parameters;

  void detect(const cv::Mat& gray, const cv::aruco::DetectorParameters& with,
              std::vector<std::vector<cv::Point2f>>& corners, std::vector<int>& ids) const {
#ifdef BOARDBANK_ARUCO_DETECTOR_OBJECT
    cv::aruco::ArucoDetector(dictionary, with).detectMarkers(gray, corners, ids);
#else
    cv::aruco::detectMarkers(gray, dictionary, corners, ids,
                             cv::makePtr<cv::aruco::DetectorParameters>(with));
#endif
  }
};

MarkerDetector::MarkerDetector() : impl_(std::make_unique<Impl>()) {
  // Fewer threshold passes than the default: the markers are large and the light is indoor-even.
  impl_->parameters.adaptiveThreshWinSizeMin = 5;
  impl_->parameters.adaptiveThreshWinSizeMax = 35;
  impl_->parameters.adaptiveThreshWinSizeStep = 10;
  impl_->parameters.minMarkerPerimeterRate = 0.015;
  // Soft (defocused) corners need a looser polygon fit.
  impl_->parameters.polygonalApproxAccuracyRate = 0.05;
  impl_->parameters.cornerRefinementMethod = cv::aruco::CORNER_REFINE_CONTOUR;
  impl_->near_parameters = impl_->parameters;
  impl_->search_parameters = impl_->parameters;
  // The quick search: two threshold passes and no small squares (at 640 pixels wide a marker's side is at
  // least a dozen pixels); tuned on the calibration poses of the tests for the same markers found.
  impl_->search_parameters.adaptiveThreshWinSizeMin = 9;
  impl_->search_parameters.adaptiveThreshWinSizeMax = 19;
  impl_->search_parameters.adaptiveThreshWinSizeStep = 10;
  impl_->search_parameters.minMarkerPerimeterRate = 0.04;
}

MarkerDetector::~MarkerDetector() = default;

namespace {

cv::Mat grey_of(const cv::Mat& frame) {
  if (frame.channels() == 1) return frame;
  cv::Mat gray;
  cv::cvtColor(frame, gray, cv::COLOR_BGR2GRAY);
  return gray;
}

double side_of(const std::array<Point2, 4>& q) {
  double perimeter = 0;
  for (size_t k = 0; k < 4; ++k)
    perimeter += std::hypot(q[k].x - q[(k + 1) % 4].x, q[k].y - q[(k + 1) % 4].y);
  return perimeter / 4;
}

}  // namespace

std::vector<DetectedMarker> MarkerDetector::find(const cv::Mat& gray, double expected_side,
                                                 bool search) const {
  std::vector<std::vector<cv::Point2f>> corners;
  std::vector<int> ids;
  if (expected_side > 0) {
    // In a window around one marker, only a square of about the marker's size is worth decoding: the
    // board's print and the table's grain make many small candidates that would each be read in vain.
    cv::aruco::DetectorParameters near = impl_->near_parameters;
    const double longest = std::max(gray.cols, gray.rows);
    near.minMarkerPerimeterRate = 0.5 * 4 * expected_side / longest;
    near.maxMarkerPerimeterRate = 2.0 * 4 * expected_side / longest;
    impl_->detect(gray, near, corners, ids);
  } else {
    impl_->detect(gray, search ? impl_->search_parameters : impl_->parameters, corners, ids);
  }
  std::vector<DetectedMarker> found;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || ids[i] > 3) continue;
    bool duplicate = false;
    for (const auto& f : found) duplicate |= f.id == ids[i];
    if (duplicate) continue;  // a second copy of a marker in view: trust neither over the first
    DetectedMarker m;
    m.id = ids[i];
    for (size_t k = 0; k < 4; ++k) m.corners[k] = {corners[i][k].x, corners[i][k].y};
    found.push_back(m);
  }
  return found;
}

std::vector<DetectedMarker> MarkerDetector::detect_near(const cv::Mat& frame,
                                                        const std::vector<DetectedMarker>& expected) const {
  const cv::Mat& gray = frame;  // only the windows are turned grey
  std::vector<DetectedMarker> found;
  for (const auto& e : expected) {
    // A window around where the marker should be, a marker's side wider on every side: room for a nudge,
    // and for the quiet zone the detector needs around the black square.
    const double margin = std::max(16.0, side_of(e.corners) * near_margin);
    double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
    for (const auto& p : e.corners) {
      x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x), y1 = std::max(y1, p.y);
    }
    const cv::Rect window =
        cv::Rect(cv::Point(static_cast<int>(x0 - margin), static_cast<int>(y0 - margin)),
                 cv::Point(static_cast<int>(x1 + margin) + 1, static_cast<int>(y1 + margin) + 1)) &
        cv::Rect(0, 0, gray.cols, gray.rows);
    if (window.width < 16 || window.height < 16) continue;
    const double side = side_of(e.corners);
    for (auto m : find(grey_of(gray(window)), side)) {
      if (m.id != e.id) continue;
      for (auto& p : m.corners) p = {p.x + window.x, p.y + window.y};
      found.push_back(m);
      break;
    }
  }
  return found;
}

std::vector<DetectedMarker> MarkerDetector::search(const cv::Mat& gray, int width, bool quick) const {
  const double scale = gray.cols > width ? static_cast<double>(width) / gray.cols : 1.0;
  if (scale >= 1.0) return find(gray, 0, quick);
  // The search runs on a shrunken frame (fast, and the shrinking averages sensor noise away).
  cv::Mat small;
  cv::resize(gray, small, cv::Size(), scale, scale, cv::INTER_AREA);
  auto found = find(small, 0, quick);
  for (auto& m : found)
    for (auto& p : m.corners) p = {(p.x + 0.5) / scale - 0.5, (p.y + 0.5) / scale - 0.5};
  return found;
}

std::vector<DetectedMarker> MarkerDetector::refine(const cv::Mat& gray,
                                                   const std::vector<DetectedMarker>& coarse,
                                                   bool subpixel_fallback) const {
  // Each marker found in a shrunken frame is detected again at full resolution in a small window around
  // it, which gives its corners the full frame's precision, blurred frames included.
  auto fine = detect_near(gray, coarse);
  // The full-resolution pass must agree with the coarse one (within a cell): else it found something else
  // of the same shape in the window.
  std::erase_if(fine, [&](const DetectedMarker& f) {
    for (const auto& c : coarse)
      if (c.id == f.id) {
        const double tolerance = std::max(3.0, side_of(c.corners) / cells_across());
        for (size_t k = 0; k < 4; ++k)
          if (std::hypot(f.corners[k].x - c.corners[k].x, f.corners[k].y - c.corners[k].y) > tolerance)
            return true;
      }
    return false;
  });
  if (!subpixel_fallback) return fine;
  // A marker the window missed keeps its coarse corners, refined on the full image.
  for (const auto& c : coarse) {
    bool refined = false;
    for (const auto& f : fine) refined |= f.id == c.id;
    if (refined) continue;
    std::vector<cv::Point2f> quad;
    for (const auto& p : c.corners) quad.emplace_back(static_cast<float>(p.x), static_cast<float>(p.y));
    const int window = std::clamp(static_cast<int>(side_of(c.corners) / cells_across() / 2), 2, 8);
    cv::cornerSubPix(gray, quad, cv::Size(window, window), cv::Size(-1, -1),
                     cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 20, 0.01));
    DetectedMarker m = c;
    for (size_t k = 0; k < 4; ++k) m.corners[k] = {quad[k].x, quad[k].y};
    fine.push_back(m);
  }
  return fine;
}

std::vector<DetectedMarker> MarkerDetector::detect(const cv::Mat& frame) const {
  const cv::Mat gray = grey_of(frame);
  // The quick way: all four markers in the shrunken frame, all four confirmed at full resolution.
  if (gray.cols > search_width) {
    const auto coarse = search(gray, search_width, true);
    if (coarse.size() == 4) {
      auto fine = refine(gray, coarse, false);
      if (fine.size() == 4) return fine;
    }
  }
  // The thorough way, as before: more threshold passes on a larger frame.
  const auto found = search(gray, thorough_width, false);
  if (gray.cols <= thorough_width) return found;
  return refine(gray, found, true);
}

void MarkerDetector::draw(int id, int side_pixels, cv::Mat& out) {
#ifdef BOARDBANK_ARUCO_DETECTOR_OBJECT
  cv::aruco::generateImageMarker(cv::aruco::getPredefinedDictionary(dictionary_name), id, side_pixels, out,
                                 1);
#else
  cv::aruco::drawMarker(cv::aruco::getPredefinedDictionary(dictionary_name), id, side_pixels, out, 1);
#endif
}

int MarkerDetector::cells_across() { return 4 + 2; }

}  // namespace bb::vision
