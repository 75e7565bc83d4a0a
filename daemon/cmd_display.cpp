#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "daemon/commands.h"
#include "daemon/window_size.h"
#include "display/rotation.h"
#include "display/screen_gallery.h"

namespace bb::daemon {

void add_display_commands(CLI::App& app) {
  auto options = std::make_shared<display::ScreenGallery::Options>();
  auto size = std::make_shared<std::string>("800x480");
  auto rotation = std::make_shared<int>(0);
  options->editions_dir = BOARDBANK_EDITIONS_DIR;
  auto* cmd = app.add_subcommand("screens", "render every touchscreen screen in sample states to PNG files");
  cmd->add_option("--out", options->out_dir, "folder for the PNG files")->required();
  cmd->add_option("--size", *size, "window size, WIDTHxHEIGHT (800x480, 1024x600, 1280x720)");
  cmd->add_option(
         "--rotation", *rotation,
         "degrees the picture is turned on the panel, as [screen] rotation: 90 and 270 lay the screens "
         "out portrait (800x480 -> 480x800), drawn upright")
      ->check(CLI::IsMember({0, 90, 180, 270}));
  cmd->add_option("--editions", options->editions_dir, "folder holding the editions")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--fonts", options->font_dir, "folder holding DejaVuSans.ttf (default: Debian's)");
  cmd->callback([options, size, rotation] {
    // 640x400: the smallest the screens are laid out for (below it, keypads and lists no longer fit; the
    // demo's own screen check uses the same bound).
    const auto window = parse_window_size(*size, 640, 400);
    if (!window) {
      throw CLI::ValidationError("--size", fmt::format("'{}': give the size as WIDTHxHEIGHT, from 640x400 to "
                                                       "4096x4096, for example 800x480",
                                                       size->substr(0, 40)));
    }
    // The screens are laid out upright on the turned panel: a quarter turn swaps its sides.
    const bool portrait = display::swaps_sides(*display::rotation_from_degrees(*rotation));
    options->width = portrait ? window->height : window->width;
    options->height = portrait ? window->width : window->height;
    auto files = display::ScreenGallery::render(*options);
    if (!files) {
      fmt::print(stderr, "boardbank screens: {}\n", files.error());
      throw CLI::RuntimeError(1);
    }
    fmt::print("wrote {} screens to {}\n", files->size(), options->out_dir);
  });
}

}  // namespace bb::daemon
