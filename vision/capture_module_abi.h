#pragma once

// The contract between bb_vision and the camera module (vision/capture/, built as boardbank_capture.so and
// loaded with dlopen only when a camera device, a GStreamer pipeline, a video file or a video to write is
// asked for). The module holds everything that needs OpenCV's videoio, which drags GStreamer, FFmpeg and
// some 220 other libraries into a process: the demo and a service without a configured camera never load it.
//
// Both sides are built together by this project's build with the same compiler and standard library, and
// share libopencv_core; objects cross the boundary as C++ interfaces. The module is never unloaded, so
// objects it made stay valid for the life of the process.
// Thread safety: an input or output is used by one thread at a time (the camera thread, or a verb's).

#include <memory>
#include <string>

namespace cv {
class Mat;
}

namespace bb::vision::capture_module {

// Bumped whenever anything below changes: a module from another build is refused, never called.
inline constexpr int kAbiVersion = 1;

enum class Api { any, v4l2, gstreamer };

// What CaptureSource sets on a live camera.
enum class Property { mjpeg_stream, width, height, fps, buffer_size, auto_white_balance, manual_exposure };

class VideoInput {
 public:
  virtual ~VideoInput() = default;
  // False when no frame came (the end of a file, a camera gone).
  virtual bool read(cv::Mat& frame) = 0;
  // False when the driver refused.
  virtual bool set(Property property, double value) = 0;
};

enum class Codec { mjpeg, mpeg4 };

class VideoOutput {
 public:
  virtual ~VideoOutput() = default;
  virtual void write(const cv::Mat& frame) = 0;
};

struct Module {
  int abi_version;
  // Each returns null when the device, pipeline or file cannot be opened.
  std::unique_ptr<VideoInput> (*open_device)(int index, Api api);
  std::unique_ptr<VideoInput> (*open_named)(const std::string& name, Api api);
  std::unique_ptr<VideoOutput> (*open_writer)(const std::string& path, Codec codec, double fps, int width,
                                              int height);
};

}  // namespace bb::vision::capture_module

// The module's one exported symbol.
extern "C" const bb::vision::capture_module::Module* boardbank_capture_module();
inline constexpr const char* kCaptureModuleEntry = "boardbank_capture_module";
