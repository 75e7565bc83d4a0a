// boardbank_capture.so: cv::VideoCapture and cv::VideoWriter behind the interfaces of
// vision/capture_module_abi.h. Loaded by vision/capture_module.cpp only when a camera or a video file is
// used; nothing else in the service links OpenCV's videoio.
#include <opencv2/core.hpp>
#include <opencv2/videoio.hpp>

#include "vision/capture_module_abi.h"

namespace bb::vision::capture_module {

namespace {

int api_preference(Api api) {
  switch (api) {
    case Api::v4l2:
      return cv::CAP_V4L2;
    case Api::gstreamer:
      return cv::CAP_GSTREAMER;
    case Api::any:
      break;
  }
  return cv::CAP_ANY;
}

class Input final : public VideoInput {
 public:
  bool read(cv::Mat& frame) override { return capture.read(frame) && !frame.empty(); }
  bool set(Property property, double value) override {
    switch (property) {
      case Property::mjpeg_stream:
        return capture.set(cv::CAP_PROP_FOURCC, cv::VideoWriter::fourcc('M', 'J', 'P', 'G'));
      case Property::width:
        return capture.set(cv::CAP_PROP_FRAME_WIDTH, value);
      case Property::height:
        return capture.set(cv::CAP_PROP_FRAME_HEIGHT, value);
      case Property::fps:
        return capture.set(cv::CAP_PROP_FPS, value);
      case Property::buffer_size:
        return capture.set(cv::CAP_PROP_BUFFERSIZE, value);
      case Property::auto_white_balance:
        return capture.set(cv::CAP_PROP_AUTO_WB, value);
      case Property::manual_exposure:
        // V4L2 through OpenCV: CAP_PROP_AUTO_EXPOSURE 1 is manual.
        return capture.set(cv::CAP_PROP_AUTO_EXPOSURE, value != 0 ? 1 : 3);
    }
    return false;
  }
  cv::VideoCapture capture;
};

class Output final : public VideoOutput {
 public:
  void write(const cv::Mat& frame) override { writer.write(frame); }
  cv::VideoWriter writer;
};

// OpenCV reports a backend's failure by throwing from some builds' open(); the interface says null.
std::unique_ptr<VideoInput> opened(std::unique_ptr<Input> input, bool ok) {
  if (!ok || !input->capture.isOpened()) return nullptr;
  return input;
}

std::unique_ptr<VideoInput> open_device(int index, Api api) {
  auto input = std::make_unique<Input>();
  bool ok = false;
  try {
    ok = input->capture.open(index, api_preference(api));
  } catch (const cv::Exception&) {
    ok = false;
  }
  return opened(std::move(input), ok);
}

std::unique_ptr<VideoInput> open_named(const std::string& name, Api api) {
  auto input = std::make_unique<Input>();
  bool ok = false;
  try {
    ok = input->capture.open(name, api_preference(api));
  } catch (const cv::Exception&) {
    ok = false;
  }
  return opened(std::move(input), ok);
}

std::unique_ptr<VideoOutput> open_writer(const std::string& path, Codec codec, double fps, int width,
                                         int height) {
  auto output = std::make_unique<Output>();
  const int fourcc = codec == Codec::mpeg4 ? cv::VideoWriter::fourcc('m', 'p', '4', 'v')
                                           : cv::VideoWriter::fourcc('M', 'J', 'P', 'G');
  try {
    if (!output->writer.open(path, fourcc, fps, cv::Size(width, height))) return nullptr;
  } catch (const cv::Exception&) {
    return nullptr;
  }
  return output;
}

const Module kModule{kAbiVersion, open_device, open_named, open_writer};

}  // namespace

}  // namespace bb::vision::capture_module

extern "C" __attribute__((visibility("default"))) const bb::vision::capture_module::Module*
boardbank_capture_module() {
  return &bb::vision::capture_module::kModule;
}
