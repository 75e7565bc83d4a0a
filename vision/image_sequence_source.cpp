#include "vision/image_sequence_source.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <opencv2/imgcodecs.hpp>
#include <optional>
#include <utility>

namespace bb::vision {

namespace {

// Width and height from a PNG, JPEG or BMP header, without decoding the image; nullopt when the header is
// not one of these (the decoder then says what it makes of the file).
std::optional<std::pair<long long, long long>> header_size(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::array<unsigned char, 26> h{};
  if (!in.read(reinterpret_cast<char*>(h.data()), h.size())) return std::nullopt;
  auto be32 = [&](int at) {
    return (static_cast<long long>(h[at]) << 24) | (h[at + 1] << 16) | (h[at + 2] << 8) | h[at + 3];
  };
  if (h[0] == 0x89 && h[1] == 'P' && h[2] == 'N' && h[3] == 'G') return std::pair{be32(16), be32(20)};
  if (h[0] == 'B' && h[1] == 'M') {
    auto le32 = [&](int at) {
      return static_cast<std::int32_t>(static_cast<std::uint32_t>(h[at]) | (h[at + 1] << 8) |
                                       (h[at + 2] << 16) | (static_cast<std::uint32_t>(h[at + 3]) << 24));
    };
    return std::pair{static_cast<long long>(le32(18)), std::llabs(static_cast<long long>(le32(22)))};
  }
  if (h[0] != 0xFF || h[1] != 0xD8) return std::nullopt;
  // JPEG: walk the segments up to the frame header (SOFn), at most 64 of them.
  in.seekg(2);
  for (int segment = 0; segment < 64; ++segment) {
    unsigned char marker[4];
    if (!in.read(reinterpret_cast<char*>(marker), 4) || marker[0] != 0xFF) return std::nullopt;
    const int type = marker[1];
    const int length = (marker[2] << 8) | marker[3];
    const bool frame_header = type >= 0xC0 && type <= 0xCF && type != 0xC4 && type != 0xC8 && type != 0xCC;
    if (frame_header) {
      unsigned char sof[5];
      if (!in.read(reinterpret_cast<char*>(sof), 5)) return std::nullopt;
      return std::pair{static_cast<long long>((sof[3] << 8) | sof[4]),
                       static_cast<long long>((sof[1] << 8) | sof[2])};
    }
    if (length < 2) return std::nullopt;
    in.seekg(length - 2, std::ios::cur);
  }
  return std::nullopt;
}

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
    if (ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".bmp")
      files.push_back(entry.path().string());
  }
  if (files.empty()) return std::unexpected(folder + " holds no .png or .jpg images");
  std::sort(files.begin(), files.end());
  return std::unique_ptr<ImageSequenceSource>(new ImageSequenceSource(folder, std::move(files)));
}

FrameSource::Grab ImageSequenceSource::grab(cv::Mat& frame) {
  while (next_ < files_.size()) {
    const std::string& path = files_[next_++];
    if (auto size = header_size(path)) {
      if (auto why = refusal(path, size->first, size->second)) return {Status::skipped, false, *why};
    }
    frame = cv::imread(path, cv::IMREAD_COLOR);
    if (frame.empty()) continue;
    if (auto why = refusal(path, frame.cols, frame.rows)) return {Status::skipped, false, *why};
    return {Status::frame, false, {}};
  }
  return {Status::end, false, "end of " + folder_};
}

}  // namespace bb::vision
