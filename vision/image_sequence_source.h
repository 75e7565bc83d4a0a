#pragma once

#include <expected>
#include <memory>
#include <string>
#include <vector>

#include "vision/frame_source.h"

namespace bb::vision {

// The images of a folder (.png, .jpg, .jpeg), in file-name order: recorded or rendered test input. They
// are read through bb_imageio (libjpeg-turbo, libpng), not OpenCV's imgcodecs.
// An image larger than kMaxPixels (read from its header, before decoding) or with a side below kMinSide is
// not decoded, and one that cannot be decoded is passed over: grab() reports it as skipped, with a message
// naming the file and why, and goes on with the next one.
class ImageSequenceSource : public FrameSource {
 public:
  // 40 megapixels: far above any camera this runs with (a Raspberry Pi HQ camera gives 12.3), far below what
  // would exhaust a Pi's memory (a 20000x20000 image took 2.4 GB to track).
  static constexpr long long kMaxPixels = 40'000'000;
  static constexpr int kMinSide = 64;  // a board with its four markers needs more than this

  static std::expected<std::unique_ptr<ImageSequenceSource>, std::string> open(const std::string& folder);
  Grab grab(cv::Mat& frame) override;
  std::string describe() const override { return folder_; }
  size_t size() const { return files_.size(); }

 private:
  ImageSequenceSource(std::string folder, std::vector<std::string> files);
  std::string folder_;
  std::vector<std::string> files_;
  size_t next_ = 0;
};

}  // namespace bb::vision
