#include "peripherals/gpio_diagnostics.h"

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cstring>

namespace bb::peripherals {

std::string chip_path(std::string_view chip) {
  if (chip.starts_with('/')) return std::string(chip);
  if (line_offset(chip)) return fmt::format("/dev/gpiochip{}", chip);
  return fmt::format("/dev/{}", chip);
}

std::string chip_open_error(std::string_view chip, int error_number) {
  switch (error_number) {
    case ENOENT:
      return fmt::format(
          "GPIO chip '{}' not found ({} does not exist): run `gpiodetect` to list the chips; on a Pi 4 the "
          "header is gpiochip0, on a Pi 5 gpiochip4 (kernels before 6.6.45) or gpiochip0; in a container, "
          "pass the device through",
          chip, chip_path(chip));
    case EACCES:
    case EPERM:
      return fmt::format(
          "permission denied opening GPIO chip '{}': add the user to the gpio group "
          "(sudo usermod -aG gpio $USER, then log in again) or install the udev rule in systemd/",
          chip);
    case ENODEV:
    case ENOTTY:
    case EINVAL:
      return fmt::format("'{}' is not a GPIO character device: name a chip as `gpiodetect` lists it", chip);
    default:
      return fmt::format("cannot open GPIO chip '{}': {}", chip, std::strerror(error_number));
  }
}

std::string line_request_error(std::string_view chip, std::string_view line, int error_number,
                               std::string_view consumer) {
  switch (error_number) {
    case EBUSY:
      if (!consumer.empty()) {
        return fmt::format("line {} on {} is used by another process ('{}'): stop it, or choose another line",
                           line, chip, consumer);
      }
      return fmt::format("line {} on {} is used by another process: `gpioinfo {}` shows which", line, chip,
                         chip);
    case EACCES:
    case EPERM:
      return fmt::format("permission denied requesting line {} on {}: add the user to the gpio group", line,
                         chip);
    case EINVAL:
      return fmt::format(
          "line {} on {} refused the configuration (pull-up or edge events): this chip or kernel may not "
          "support it; Pi OS bookworm does",
          line, chip);
    default:
      return fmt::format("cannot request line {} on {}: {}", line, chip, std::strerror(error_number));
  }
}

std::string line_not_found_error(std::string_view chip, std::string_view line, unsigned line_count) {
  if (line_offset(line)) {
    return fmt::format("line offset {} is not on {} (it has lines 0-{}): check the chip", line, chip,
                       line_count == 0 ? 0 : line_count - 1);
  }
  return fmt::format(
      "no line named '{}' on {}: `gpioinfo {}` lists the names (Pi OS names header lines GPIO2-GPIO27)", line,
      chip, chip);
}

std::optional<unsigned> line_offset(std::string_view line) {
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), value);
  if (line.empty() || ec != std::errc{} || end != line.data() + line.size()) return std::nullopt;
  return value;
}

std::optional<std::string> kernel_debounce_error(Nanoseconds debounce, Nanoseconds shortest_pulse) {
  if (debounce <= 0 || shortest_pulse <= 0 || debounce < shortest_pulse) return std::nullopt;
  return fmt::format(
      "kernel debounce of {} us would swallow this device's pulses (as short as {} us): leave debounce off, "
      "the decoder rejects bounce itself",
      debounce / kMicrosecond, shortest_pulse / kMicrosecond);
}

}  // namespace bb::peripherals
