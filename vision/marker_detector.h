#pragma once

#include <array>
#include <memory>
#include <vector>

#include "vision/point2.h"

namespace cv {
class Mat;
}

namespace bb::vision {

struct DetectedMarker {
  int id = -1;
  std::array<Point2, 4> corners;  // image pixels, top-left, top-right, bottom-right, bottom-left as printed
};

// The only file that touches cv::aruco: OpenCV 4.7 moved marker detection to objdetect's ArucoDetector,
// so a newer OpenCV changes marker_detector.cpp and nothing else.
class MarkerDetector {
 public:
  MarkerDetector();
  ~MarkerDetector();
  MarkerDetector(const MarkerDetector&) = delete;
  MarkerDetector& operator=(const MarkerDetector&) = delete;

  // Markers with ids 0..3 in a BGR or grey frame, corners refined to sub-pixel on the full image.
  std::vector<DetectedMarker> detect(const cv::Mat& frame) const;

  // The marker image (black border included, no white quiet zone), side_pixels square, 8-bit grey.
  static void draw(int id, int side_pixels, cv::Mat& out);
  // Cells across a marker, border included: black squares on the printed sheet are multiples of this.
  static int cells_across();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bb::vision
