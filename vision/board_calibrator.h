#pragma once

#include <expected>
#include <optional>
#include <string>

#include "vision/homography.h"
#include "vision/marker_detector.h"
#include "vision/marker_layout.h"

namespace cv {
class Mat;
}

namespace bb::vision {

struct Calibration {
  enum class Method { markers, contour };
  Homography board_to_image;  // board units -> image pixels
  Homography image_to_board;
  Method method = Method::markers;
  int markers_seen = 0;
  double fit_error_px = 0.0;  // RMS distance of the marker corners from the fitted homography

  Point2 image_corner(int id) const { return board_to_image.apply(MarkerLayout::board_corner(id)); }
};

// Finds the board in a frame: from the four corner markers (any two are enough), or, when none are seen,
// from the board's outer square as the largest bright quadrilateral. Stateless; the tracker decides when
// to call it and whether the board moved.
class BoardCalibrator {
 public:
  explicit BoardCalibrator(MarkerLayout layout = {});

  std::expected<Calibration, std::string> from_markers(const cv::Mat& frame) const;
  // From the markers found near where `previous` put them (all four needed); an error when they are not
  // all there, and the caller searches the whole frame.
  std::expected<Calibration, std::string> from_markers_near(const cv::Mat& frame,
                                                            const Calibration& previous) const;
  // `previous` resolves which corner is GO (the outer square alone has four-fold symmetry); without it,
  // GO is taken to be the corner lowest-right in the image.
  std::expected<Calibration, std::string> from_contour(const cv::Mat& frame,
                                                       const std::optional<Calibration>& previous) const;
  // Looks near `previous`'s markers first, then searches the whole frame for markers, then the outline.
  std::expected<Calibration, std::string> calibrate(const cv::Mat& frame,
                                                    const std::optional<Calibration>& previous) const;

  // The largest distance, in image pixels, between where two calibrations put the board's corners.
  static double corner_shift_px(const Calibration& a, const Calibration& b);
  const MarkerLayout& layout() const { return layout_; }

 private:
  std::expected<Calibration, std::string> fit_markers(const std::vector<DetectedMarker>& markers) const;
  // The outline, turned so that GO is where any marker seen (or else `previous`) says it is.
  std::expected<Calibration, std::string> contour(const cv::Mat& frame,
                                                  const std::optional<Calibration>& previous,
                                                  const std::vector<DetectedMarker>& markers) const;

  MarkerLayout layout_;
  MarkerDetector detector_;
};

}  // namespace bb::vision
