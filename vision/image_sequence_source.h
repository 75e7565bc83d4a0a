#pragma once

#include <expected>
#include <memory>
#include <string>
#include <vector>

#include "vision/frame_source.h"

namespace bb::vision {

// The images of a folder (.png, .jpg, .jpeg, .bmp), in file-name order: recorded or rendered test input.
class ImageSequenceSource : public FrameSource {
 public:
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
