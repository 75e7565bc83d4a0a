#pragma once

#include <array>
#include <memory>
#include <vector>

namespace cv {
class Mat;
}

namespace bb::vision {

// The top view averaged over the still frames since the scene last moved, through one board fit. A token's
// blob is a threshold of its soft edge and of its level against the paper: sensor noise and JPEG blocks,
// different in every frame, move both. The board and the tokens are still; averaging N views divides that
// noise by the root of N. Called on the camera thread only (the tracker's), like the tracker itself.
class StillAverage {
 public:
  explicit StillAverage(int frames);
  ~StillAverage();
  StillAverage(const StillAverage&) = delete;
  StillAverage& operator=(const StillAverage&) = delete;

  // Adds `top` (CV_8UC3) to the average and replaces it with the average so far. Up to `frames` views are
  // averaged equally, later ones with a 1/`frames` share (a slow change of light is followed). A new fit
  // (`fit`, the calibration's board_to_image) or size starts afresh: the views would not line up.
  void add(cv::Mat& top, const std::array<double, 9>& fit);
  // The scene moved: the next view starts the average.
  void restart() { count_ = 0; }
  // Only the pixels of `region` (CV_8U, the views' size; nonzero: averaged) are averaged from now on; the
  // rest of each view is left as it is. The tracker's locator reads only the ring of spaces (and a few
  // pixels around it): averaging the board's middle too cost half the pass for nothing. An empty region
  // averages every pixel again.
  void set_region(const cv::Mat& region);

 private:
  struct Buffers;
  struct Span {
    int row, begin, end;  // [begin, end) of the row, in pixels
  };
  std::vector<Span> spans_;  // empty: the whole view
  int region_rows_ = 0, region_cols_ = 0;
  int frames_;
  int count_ = 0;
  std::array<double, 9> fit_{};
  std::unique_ptr<Buffers> buffers_;
};

}  // namespace bb::vision
