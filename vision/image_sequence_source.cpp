#include "vision/image_sequence_source.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <opencv2/core.hpp>
#include <optional>
#include <utility>

#include "vision/image_files.h"

namespace bb::vision {

namespace {

std::optional<std::string> refusal(const std::string& path, long long width, long long height) {
  if (width < ImageSequenceSource::kMinSide || height < ImageSequenceSource::kMinSide) {
    return fmt::format("{} is {}x{} pixels, too small to show a board (at least {} on each side): skipped",
                       path, width, height, ImageSequenceSource::kMinSide);
  }
  if (width * height > ImageSequenceSource::kMaxPixels) {
    return fmt::format("{} is {}x{} pixels, more than the {} a frame may have: skipped", path, width, height,
                       ImageSequenceSource::kMaxPixels);
  }
  return std::nullopt;
}

}  // namespace

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
    if (ext == ".png" || ext == ".jpg" || ext == ".jpeg") files.push_back(entry.path().string());
  }
  if (files.empty()) return std::unexpected(folder + " holds no .png or .jpg images");
  std::sort(files.begin(), files.end());
  return std::unique_ptr<ImageSequenceSource>(new ImageSequenceSource(folder, std::move(files)));
}

FrameSource::Grab ImageSequenceSource::grab(cv::Mat& frame) {
  while (next_ < files_.size()) {
    const std::string& path = files_[next_++];
    // The size from the header first: a huge picture is never decoded, a damaged one is said and passed over.
    const auto header = imageio::read_header_of_file(path);
    if (!header) return {Status::skipped, false, header.error().message + ": skipped"};
    if (auto why = refusal(path, header->width, header->height)) return {Status::skipped, false, *why};
    if (auto read = read_image(path, ImageColour::colour, frame, {kMaxPixels}); !read)
      return {Status::skipped, false, read.error().message + ": skipped"};
    return {Status::frame, false, {}};
  }
  return {Status::end, false, "end of " + folder_};
}

}  // namespace bb::vision
