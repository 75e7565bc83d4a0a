#include "vision/marker_detector.h"

#include <opencv2/aruco.hpp>
#include <opencv2/imgproc.hpp>

namespace bb::vision {

namespace {
constexpr auto dictionary_name = cv::aruco::DICT_4X4_50;
constexpr int detect_width = 1280;  // larger frames are searched at this width, then refined at full size
}  // namespace

struct MarkerDetector::Impl {
  cv::Ptr<cv::aruco::Dictionary> dictionary = cv::aruco::getPredefinedDictionary(dictionary_name);
  cv::Ptr<cv::aruco::DetectorParameters> parameters = cv::aruco::DetectorParameters::create();
};

MarkerDetector::MarkerDetector() : impl_(std::make_unique<Impl>()) {
  // Fewer threshold passes than the default: the markers are large and the light is indoor-even.
  impl_->parameters->adaptiveThreshWinSizeMin = 5;
  impl_->parameters->adaptiveThreshWinSizeMax = 35;
  impl_->parameters->adaptiveThreshWinSizeStep = 10;
  impl_->parameters->minMarkerPerimeterRate = 0.015;
  // Soft (defocused) corners need a looser polygon fit.
  impl_->parameters->polygonalApproxAccuracyRate = 0.05;
  impl_->parameters->cornerRefinementMethod = cv::aruco::CORNER_REFINE_CONTOUR;
}

MarkerDetector::~MarkerDetector() = default;

std::vector<DetectedMarker> MarkerDetector::detect(const cv::Mat& frame) const {
  cv::Mat gray;
  if (frame.channels() == 3)
    cv::cvtColor(frame, gray, cv::COLOR_BGR2GRAY);
  else
    gray = frame;
  const double scale = gray.cols > detect_width ? static_cast<double>(detect_width) / gray.cols : 1.0;
  cv::Mat search = gray;
  if (scale < 1.0) cv::resize(gray, search, cv::Size(), scale, scale, cv::INTER_AREA);

  std::vector<std::vector<cv::Point2f>> corners;
  std::vector<int> ids;
  cv::aruco::detectMarkers(search, impl_->dictionary, corners, ids, impl_->parameters);

  std::vector<DetectedMarker> found;
  std::vector<cv::Point2f> all;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || ids[i] > 3) continue;
    bool duplicate = false;
    for (const auto& f : found) duplicate |= f.id == ids[i];
    if (duplicate) continue;  // a second copy of a marker in view: trust neither over the first
    DetectedMarker m;
    m.id = ids[i];
    for (size_t k = 0; k < 4; ++k) all.push_back(corners[i][k] * static_cast<float>(1.0 / scale));
    found.push_back(m);
  }
  // ArUco fits lines to each marker's edges (robust to defocus); when the search ran on a shrunken frame,
  // the corners are refined again on the full image with a window matched to the marker's cell size.
  for (size_t i = 0; i < found.size() && scale < 1.0; ++i) {
    std::vector<cv::Point2f> quad(all.begin() + static_cast<long>(i * 4),
                                  all.begin() + static_cast<long>(i * 4 + 4));
    double perimeter = 0;
    for (size_t k = 0; k < 4; ++k) perimeter += cv::norm(quad[k] - quad[(k + 1) % 4]);
    const int window = std::clamp(static_cast<int>(perimeter / 4 / cells_across() / 2), 2, 8);
    cv::cornerSubPix(gray, quad, cv::Size(window, window), cv::Size(-1, -1),
                     cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 20, 0.01));
    std::copy(quad.begin(), quad.end(), all.begin() + static_cast<long>(i * 4));
  }
  for (size_t i = 0; i < found.size(); ++i)
    for (size_t k = 0; k < 4; ++k) found[i].corners[k] = {all[i * 4 + k].x, all[i * 4 + k].y};
  return found;
}

void MarkerDetector::draw(int id, int side_pixels, cv::Mat& out) {
  cv::aruco::drawMarker(cv::aruco::getPredefinedDictionary(dictionary_name), id, side_pixels, out, 1);
}

int MarkerDetector::cells_across() { return 4 + 2; }

}  // namespace bb::vision
