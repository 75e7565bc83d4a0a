#pragma once

// A video file written frame by frame (`boardbank render-table --out game.avi`): MJPEG in .avi or .mkv,
// MPEG-4 part 2 in .mp4, through the camera module (capture_module.h), loaded on the first opening.
// Owns the open file; closed when destroyed. One thread at a time.

#include <expected>
#include <memory>
#include <string>

namespace cv {
class Mat;
}

namespace bb::vision {

namespace capture_module {
class VideoOutput;
}

class VideoFileWriter {
 public:
  static bool is_video_name(const std::string& path);  // .avi, .mp4 or .mkv
  static std::expected<VideoFileWriter, std::string> open(const std::string& path, double fps, int width,
                                                          int height);
  VideoFileWriter(VideoFileWriter&&) noexcept;
  VideoFileWriter& operator=(VideoFileWriter&&) noexcept;
  ~VideoFileWriter();
  void write(const cv::Mat& frame);

 private:
  explicit VideoFileWriter(std::unique_ptr<capture_module::VideoOutput> output);
  std::unique_ptr<capture_module::VideoOutput> output_;
};

}  // namespace bb::vision
