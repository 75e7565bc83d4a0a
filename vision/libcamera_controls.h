#pragma once

#include <expected>
#include <optional>
#include <string>

namespace bb::vision {

// Locking a Pi camera module's exposure and white balance through GStreamer's libcamerasrc. OpenCV runs the
// pipeline and cannot reach its elements, so nothing can be changed once it plays; instead the camera runs
// alone for the warm-up, where its automatic exposure and white balance settle, the settled values are read
// from the element, and the capture pipeline is then started with them fixed. Only libcamerasrc builds that
// expose libcamera's controls as element properties (libcamera releases from late 2024) can do this;
// older ones (Debian bookworm's own 0.0.3) cannot, and the lock report says so.
//
// GStreamer is loaded at run time (its headers are not needed to build, and a machine without it just has
// nothing to lock).
class LibcameraControls {
 public:
  // Which of the properties involved the installed libcamerasrc has.
  struct Offered {
    bool element = false;  // GStreamer and its libcamerasrc element are installed
    bool ae_enable = false;
    bool exposure_time_mode = false;  // libcamera 0.5 and later: replaces ae-enable
    bool analogue_gain_mode = false;
    bool exposure_time = false;
    bool analogue_gain = false;
    bool awb_enable = false;
    bool colour_gains = false;
    std::string why;  // when !element: what is missing

    bool can_lock_exposure() const {
      return element && (ae_enable || (exposure_time_mode && analogue_gain_mode)) && exposure_time &&
             analogue_gain;
    }
    bool can_lock_white_balance() const { return element && awb_enable && colour_gains; }
  };
  // Where the automatic exposure and white balance settled during the warm-up.
  struct Settled {
    int exposure_us = 0;
    double analogue_gain = 0;
    double red_gain = 0, blue_gain = 0;
    bool exposure() const { return exposure_us > 0 && analogue_gain > 0; }
    bool white_balance() const { return red_gain > 0 && blue_gain > 0; }
  };

  // Asks the installed GStreamer which properties libcamerasrc has.
  static Offered probe();
  // Runs the camera with automatic exposure and white balance for `seconds`, then reads where they settled.
  static std::expected<Settled, std::string> settle(int width, int height, int fps, double seconds);

  // The source element of the capture pipeline: libcamerasrc with the settled values fixed where the
  // element offers the controls.
  static std::string source_element(const Offered& offered, const std::optional<Settled>& settled);
  // One sentence on what is locked, for the log (as the V4L2 path reports its lock).
  static std::string lock_report(const Offered& offered, const std::optional<Settled>& settled,
                                 const std::string& settle_error = {});
};

}  // namespace bb::vision
