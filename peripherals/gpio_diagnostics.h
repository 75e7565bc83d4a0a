#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "peripherals/edge.h"

namespace bb::peripherals {

// Messages that say what to do, shared by both libgpiod layers and tested without hardware.
std::string chip_open_error(std::string_view chip, int error_number);
std::string line_request_error(std::string_view chip, std::string_view line, int error_number,
                               std::string_view consumer);
std::string line_not_found_error(std::string_view chip, std::string_view line, unsigned line_count);
// A line given by offset ("17") rather than by name; nullopt for names.
std::optional<unsigned> line_offset(std::string_view line);
// An error when kernel debounce would swallow the device's own pulses.
std::optional<std::string> kernel_debounce_error(Nanoseconds debounce, Nanoseconds shortest_pulse);
// "gpiochip0" -> "/dev/gpiochip0"; paths stay as they are.
std::string chip_path(std::string_view chip);

}  // namespace bb::peripherals
