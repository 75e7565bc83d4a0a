#include "vision/video_file_writer.h"

#include <filesystem>

#include "vision/capture_module.h"

namespace bb::vision {

namespace {
std::string extension(const std::string& path) { return std::filesystem::path(path).extension().string(); }
}  // namespace

bool VideoFileWriter::is_video_name(const std::string& path) {
  const auto ext = extension(path);
  return ext == ".avi" || ext == ".mp4" || ext == ".mkv";
}

std::expected<VideoFileWriter, std::string> VideoFileWriter::open(const std::string& path, double fps,
                                                                  int width, int height) {
  const auto module = capture_module_loaded();
  if (!module) return std::unexpected(module.error());
  const auto codec = extension(path) == ".mp4" ? capture_module::Codec::mpeg4 : capture_module::Codec::mjpeg;
  auto output = (*module)->open_writer(path, codec, fps, width, height);
  if (!output)
    return std::unexpected("cannot write the video " + path +
                           "; try a .avi name (MJPG) or a folder for frames");
  return VideoFileWriter(std::move(output));
}

VideoFileWriter::VideoFileWriter(std::unique_ptr<capture_module::VideoOutput> output)
    : output_(std::move(output)) {}
VideoFileWriter::VideoFileWriter(VideoFileWriter&&) noexcept = default;
VideoFileWriter& VideoFileWriter::operator=(VideoFileWriter&&) noexcept = default;
VideoFileWriter::~VideoFileWriter() = default;

void VideoFileWriter::write(const cv::Mat& frame) { output_->write(frame); }

}  // namespace bb::vision
