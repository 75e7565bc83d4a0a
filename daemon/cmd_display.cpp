#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>

#include "daemon/commands.h"
#include "display/screen_gallery.h"

namespace bb::daemon {

void add_display_commands(CLI::App& app) {
  auto options = std::make_shared<display::ScreenGallery::Options>();
  auto size = std::make_shared<std::string>("800x480");
  options->editions_dir = BOARDBANK_EDITIONS_DIR;
  auto* cmd = app.add_subcommand("screens", "render every touchscreen screen in sample states to PNG files");
  cmd->add_option("--out", options->out_dir, "folder for the PNG files")->required();
  cmd->add_option("--size", *size, "window size, WIDTHxHEIGHT (800x480, 1024x600, 1280x720)");
  cmd->add_option("--editions", options->editions_dir, "folder holding the editions");
  cmd->add_option("--fonts", options->font_dir, "folder holding DejaVuSans.ttf (default: Debian's)");
  cmd->callback([options, size] {
    int w = 0, h = 0;
    if (std::sscanf(size->c_str(), "%dx%d", &w, &h) != 2 || w < 320 || h < 240 || w > 4096 || h > 4096)
      throw CLI::ValidationError("--size", "give the size as WIDTHxHEIGHT, for example 800x480");
    options->width = w;
    options->height = h;
    auto files = display::ScreenGallery::render(*options);
    if (!files) {
      fmt::print(stderr, "boardbank screens: {}\n", files.error());
      throw CLI::RuntimeError(1);
    }
    fmt::print("wrote {} screens to {}\n", files->size(), options->out_dir);
  });
}

}  // namespace bb::daemon
