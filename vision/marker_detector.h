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

  // Markers with ids 0..3 in a BGR or grey frame, corners refined to sub-pixel on the full image. A quick
  // search on the frame shrunk to 640 pixels wide finds them when all four show; else a thorough one runs.
  std::vector<DetectedMarker> detect(const cv::Mat& frame) const;
  // Only where the markers are expected (their last place): a small window around each, at full
  // resolution. Returns those found there; a marker that moved away is simply not among them.
  std::vector<DetectedMarker> detect_near(const cv::Mat& frame,
                                          const std::vector<DetectedMarker>& expected) const;

  // The marker image (black border included, no white quiet zone), side_pixels square, 8-bit grey.
  static void draw(int id, int side_pixels, cv::Mat& out);
  // Cells across a marker, border included: black squares on the printed sheet are multiples of this.
  static int cells_across();

 private:
  // expected_side > 0: only squares of about that side (pixels) are candidates.
  // quick: the few threshold passes of the search on a shrunken frame.
  std::vector<DetectedMarker> find(const cv::Mat& gray, double expected_side = 0, bool quick = false) const;
  // Markers in the frame shrunk to `width` (when wider), their corners in full-frame pixels.
  std::vector<DetectedMarker> search(const cv::Mat& gray, int width, bool quick) const;
  // The coarse markers detected again at full resolution around where they were found; those not found
  // again are dropped, or refined by cornerSubPix when `subpixel_fallback`.
  std::vector<DetectedMarker> refine(const cv::Mat& gray, const std::vector<DetectedMarker>& coarse,
                                     bool subpixel_fallback) const;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bb::vision
