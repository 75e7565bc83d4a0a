#pragma once

#include <string>

namespace cv {
class Mat;
}

namespace bb::vision {

// Where frames come from: a camera, a video file, an image sequence, or a test double. The tracker only
// ever sees this interface.
class FrameSource {
 public:
  enum class Status {
    frame,    // `frame` holds a new image
    end,      // a file or sequence has no more frames
    lost,     // the camera has just gone (reported once)
    waiting,  // still gone; trying again
    skipped,  // one image could not be used (too small, too large) and was passed over; `message` says why
  };
  struct Grab {
    Status status = Status::frame;
    bool reopened = false;  // the first frame after the camera came back
    std::string message;
  };

  virtual ~FrameSource() = default;
  virtual Grab grab(cv::Mat& frame) = 0;
  virtual std::string describe() const = 0;
};

}  // namespace bb::vision
