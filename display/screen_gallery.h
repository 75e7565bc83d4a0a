#pragma once
#include <expected>
#include <string>
#include <vector>

namespace bb::display {

// Renders every screen in every sample state to PNG files (`boardbank screens`), offscreen.
class ScreenGallery {
 public:
  struct Options {
    std::string out_dir;
    int width = 800;
    int height = 480;
    std::string editions_dir;
    std::string font_dir;
  };
  // Returns the files written.
  static std::expected<std::vector<std::string>, std::string> render(const Options& options);
};

}  // namespace bb::display
