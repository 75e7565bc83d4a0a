#include "vision/image_sequence_source.h"

#include <algorithm>
#include <filesystem>
#include <opencv2/imgcodecs.hpp>

namespace bb::vision {

ImageSequenceSource::ImageSequenceSource(std::string folder, std::vector<std::string> files)
    : folder_(std::move(folder)), files_(std::move(files)) {}

std::expected<std::unique_ptr<ImageSequenceSource>, std::string> ImageSequenceSource::open(
    const std::string& folder) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return std::unexpected(folder + " is not a folder of images");
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    std::string ext = entry.path().extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), ::tolower);
    if (ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".bmp")
      files.push_back(entry.path().string());
  }
  if (files.empty()) return std::unexpected(folder + " holds no .png or .jpg images");
  std::sort(files.begin(), files.end());
  return std::unique_ptr<ImageSequenceSource>(new ImageSequenceSource(folder, std::move(files)));
}

FrameSource::Grab ImageSequenceSource::grab(cv::Mat& frame) {
  while (next_ < files_.size()) {
    frame = cv::imread(files_[next_++], cv::IMREAD_COLOR);
    if (!frame.empty()) return {Status::frame, false, {}};
  }
  return {Status::end, false, "end of " + folder_};
}

}  // namespace bb::vision
