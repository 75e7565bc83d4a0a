#pragma once
#include <expected>
#include <memory>
#include <string>
#include <vector>

#include "peripherals/edge_source.h"

namespace bb::peripherals {

// The GPIO layer: one small interface over libgpiod (v1 API of libgpiod 1.6, or v2 when built against
// libgpiod 2). Chips are named as gpiodetect shows them ("gpiochip0", a path, or a label); lines by name
// ("GPIO17", as Pi OS names them) or by offset ("17").
struct EdgeLinesRequest {
  std::string chip = "gpiochip0";
  std::vector<std::string> lines;  // in the device's role order
  std::string consumer = "boardbank";
  bool pull_up = true;
  // Kernel debounce (libgpiod 2 only). Refused when it is not shorter than the device's shortest real
  // pulse: it would swallow the pulses themselves (Wiegand pulses are 20-100 us).
  Nanoseconds kernel_debounce = 0;
  Nanoseconds shortest_pulse = 0;
};

// Inputs with both-edge events and the kernel's timestamps, read in batches, behind one pollable fd.
std::expected<std::unique_ptr<EdgeSource>, std::string> open_edge_lines(const EdgeLinesRequest& request);

// One output line, e.g. the RC522's reset.
class GpioOutput {
 public:
  virtual ~GpioOutput() = default;
  virtual std::expected<void, std::string> set(bool high) = 0;
};
std::expected<std::unique_ptr<GpioOutput>, std::string> open_output_line(const std::string& chip,
                                                                         const std::string& line,
                                                                         const std::string& consumer,
                                                                         bool initial_high);

// "libgpiod 1.6.3 (v1 API)", for probe and bug reports.
std::string gpio_backend_description();

}  // namespace bb::peripherals
