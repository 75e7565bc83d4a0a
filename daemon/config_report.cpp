#include "daemon/config_report.h"

#include <fmt/format.h>

#include <filesystem>

#include "daemon/paths.h"
#include "display/font_set.h"

namespace bb::daemon {

namespace {

std::string describe(const GpioDeviceConfig& device, const char* what) {
  if (device.backend == Backend::off) return fmt::format("{}: off", what);
  std::string lines = device.lines.empty() ? "the wiring of docs/hardware.md"
                                           : fmt::format("{}", fmt::join(device.lines, ","));
  if (device.backend == Backend::replay)
    return fmt::format("{} '{}': replay of {}", what, device.name, device.trace);
  return fmt::format("{} '{}': {} on {} ({})", what, device.name, backend_name(device.backend), device.chip,
                     lines);
}

}  // namespace

ConfigReport describe_config(const Config& config) {
  namespace fs = std::filesystem;
  ConfigReport report;
  std::error_code ec;
  report.lines.push_back(describe(config.dice, "dice unit"));
  report.lines.push_back(describe(config.button, "roll button"));
  for (const auto& reader : config.wiegand) {
    std::string line = describe(reader, "Wiegand reader");
    if (reader.backend != Backend::off)
      line += reader.frame_bits > 0
                  ? fmt::format(", {}-bit frames: a card counts at its last bit", reader.frame_bits)
                  : std::string(
                        ", frames of any length (26 or 34 bits): a card counts 25 ms after its last bit "
                        "(set bits = 26 or 34 to save that wait)");
    if (reader.backend != Backend::off)
      line += reader.one_frame_per_tap
                  ? std::string("; one frame per tap (frames = \"once\"): every frame counts")
                  : std::string(
                        "; repeated frames: the same card within 1.5 s counts again only when a "
                        "payment waits for it");
    report.lines.push_back(std::move(line));
  }
  if (config.rc522.backend == Backend::off) {
    report.lines.push_back("RC522 reader: off");
  } else {
    report.lines.push_back(fmt::format(
        "RC522 reader '{}': {} on {} (reset {})", config.rc522.name, backend_name(config.rc522.backend),
        config.rc522.spi_device, config.rc522.reset_line.empty() ? "not wired" : config.rc522.reset_line));
  }
  report.lines.push_back(config.camera.source.empty()
                             ? "camera: none (tokens are moved by the dice alone)"
                             : fmt::format("camera: {} at {}x{}", config.camera.source, config.camera.width,
                                           config.camera.height));
  report.lines.push_back(fmt::format("screen: {}x{}, rotated {}, {}", config.screen.width,
                                     config.screen.height, display::degrees(config.screen.rotation),
                                     !config.screen.window      ? "offscreen"
                                     : config.screen.fullscreen ? "fullscreen"
                                                                : "in a window"));
  report.lines.push_back(fmt::format("ledger: {} (backups in {}, every {} min, {} kept)", config.ledger.path,
                                     config.ledger.backup_dir, config.ledger.backup_every_minutes,
                                     config.ledger.keep_backups));
  report.lines.push_back(fmt::format("editions: {}", config.editions_dir));

  bool has_edition = false;
  if (fs::is_directory(config.editions_dir, ec)) {
    for (const auto& entry : fs::directory_iterator(config.editions_dir, ec))
      has_edition = has_edition || entry.path().extension() == ".toml";
  }
  if (!has_edition)
    report.warnings.push_back(
        fmt::format("[editions] dir {} holds no edition (*.toml): the setup screen will offer none",
                    config.editions_dir));
  // What the service reads from its environment beside the file (systemctl edit can set both).
  if (auto dirs = edition_dirs(config.editions_dir); !dirs)
    report.warnings.push_back(dirs.error() + ": the service will not start");
  // The screen's own words for a font folder it would refuse: [screen] font_dir, or BOARDBANK_FONT_DIR from
  // the environment when the file names none.
  if (auto why = display::FontSet::why_not_open(config.screen.font_dir))
    report.warnings.push_back(fmt::format("{}{}: the screen will not start",
                                          config.screen.font_dir.empty() ? "" : "[screen] font_dir ", *why));
  auto check_trace = [&](const std::string& trace, const std::string& name) {
    if (!trace.empty() && !fs::exists(trace, ec))
      report.warnings.push_back(fmt::format("{}: trace {} does not exist", name, trace));
  };
  check_trace(config.dice.trace, config.dice.name);
  check_trace(config.button.trace, config.button.name);
  for (const auto& reader : config.wiegand) check_trace(reader.trace, reader.name);
  check_trace(config.rc522.trace, config.rc522.name);
  const fs::path db_dir = fs::path(config.ledger.path).parent_path();
  if (!db_dir.empty() && !fs::is_directory(db_dir, ec))
    report.warnings.push_back(fmt::format(
        "the ledger's folder {} does not exist yet: the service creates it (it needs the right to)",
        db_dir.string()));
  if (config.banker_pin.empty() && config.banker_card.empty())
    report.warnings.push_back(
        "[banker] has neither pin_hash nor card: corrections will use the default PIN 1234 until you set one "
        "(boardbank hash-pin)");
  if (config.wiegand.empty() && config.rc522.backend == Backend::off)
    report.warnings.push_back("no card reader is configured: every payment is confirmed on the screen");
  return report;
}

}  // namespace bb::daemon
