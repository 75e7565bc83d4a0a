#pragma once
#include <expected>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "peripherals/device.h"
#include "peripherals/dice_roller.h"
#include "peripherals/gpio.h"
#include "peripherals/trace.h"

namespace bb::peripherals {

// What the decoders make of a trace, through the replay backend (the same path the daemon takes).
std::expected<std::vector<PeripheralEvent>, std::string> decode_trace(const Trace& trace,
                                                                      DiceRoller roller = DiceRoller{});

// Polls the devices' fds and hands every event over until `keep_going` says stop (checked at least every
// 100 ms) or every device has finished (replays).
std::expected<void, std::string> run_devices(const std::vector<Device*>& devices,
                                             const std::function<void(const PeripheralEvent&)>& on_event,
                                             const std::function<bool()>& keep_going);

// Records the request's lines as a trace (header, starting levels, edges, end) for `duration` or until
// keep_going says stop; `boardbank record-gpio` on a Pi.
std::expected<std::size_t, std::string> record_gpio(const std::string& kind, const EdgeLinesRequest& request,
                                                    Nanoseconds duration, std::ostream& out,
                                                    const std::function<bool()>& keep_going);

}  // namespace bb::peripherals
