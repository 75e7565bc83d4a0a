#pragma once
#include <expected>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "peripherals/device.h"
#include "peripherals/dice_roller.h"
#include "peripherals/gpio.h"
#include "peripherals/spi_transport.h"
#include "peripherals/trace.h"

namespace bb::peripherals {

// What the decoders make of a trace, through the replay backend (the same path the daemon takes). An
// rc522 trace runs the real driver against its SPI transfers; when the driver's bytes do not match the
// recording, the error names the trace line.
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

// Where an RC522 to record is, as `boardbank record-gpio --device rc522` takes it.
struct Rc522RecordRequest {
  std::string spi_device = "/dev/spidev0.0";
  std::string chip = "gpiochip0";
  std::string reset_line = "GPIO22";  // empty: none
  Nanoseconds poll_interval = 100 * kMillisecond;
};

// Runs the real RC522 driver as the daemon would, for `duration` or until keep_going says stop, writing
// every SPI transfer to `out` as a trace (header, transfers, end) and handing over the taps it reads, so
// the person recording sees what was read. Returns the number of transfers. spi and reset are the opened
// devices (spidev and the RST line on a Pi; a FakeMfrc522 in tests), clock stamps the transfers.
std::expected<std::size_t, std::string> record_rc522(
    const Rc522RecordRequest& request, std::unique_ptr<SpiTransport> spi, std::unique_ptr<GpioOutput> reset,
    Nanoseconds duration, std::ostream& out, const std::function<void(const PeripheralEvent&)>& on_event,
    const std::function<bool()>& keep_going, Clock clock = {});
// Opens /dev/spidevB.C and the RST line of the request, then record_rc522.
std::expected<std::size_t, std::string> record_rc522_on_pi(
    const Rc522RecordRequest& request, Nanoseconds duration, std::ostream& out,
    const std::function<void(const PeripheralEvent&)>& on_event, const std::function<bool()>& keep_going);

}  // namespace bb::peripherals
