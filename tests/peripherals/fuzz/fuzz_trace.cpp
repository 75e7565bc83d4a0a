// Parses arbitrary text as a trace: no crash, no hang; what parses survives format and parse unchanged,
// and its edges go through the device's decoder without breaking its invariant (an SPI device's transfers
// are checked for the shape the replay relies on: RX as long as TX, or an error instead).
#include <cstdlib>
#include <string_view>

#include "peripherals/decoder_factory.h"
#include "peripherals/trace.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace bb::peripherals;
  const auto trace = parse_trace(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!trace) {
    if (trace.error().empty()) std::abort();
    return 0;
  }
  const auto again = parse_trace(format_trace(*trace));
  if (!again || again->edges != trace->edges || again->initial_levels != trace->initial_levels ||
      again->end_ns != trace->end_ns || again->lines != trace->lines || again->device != trace->device ||
      again->spi_transfers.size() != trace->spi_transfers.size()) {
    std::abort();
  }
  for (std::size_t i = 0; i < trace->spi_transfers.size(); ++i) {
    const SpiTransfer& first = trace->spi_transfers[i];
    const SpiTransfer& second = again->spi_transfers[i];
    if (first.tx.empty() || (first.error.empty() && first.rx.size() != first.tx.size()) ||
        first.ts_ns != second.ts_ns || first.tx != second.tx || first.rx != second.rx ||
        first.error != second.error) {
      std::abort();
    }
  }
  if (is_spi_device(trace->device)) return 0;  // no decoder: the real driver replays these (tests)
  auto decoder = make_decoder(trace->device, "fuzz", DiceRoller([](std::span<std::uint8_t> out) {
                                for (auto& byte : out) byte = 1;
                              }));
  if (!decoder) std::abort();
  std::vector<PeripheralEvent> events;
  for (std::size_t line = 0; line < trace->initial_levels.size(); ++line) {
    if (trace->initial_levels[line])
      (*decoder)->set_initial_level(static_cast<int>(line), *trace->initial_levels[line]);
  }
  for (const Edge& edge : trace->edges) {
    (*decoder)->feed(edge, events);
    if (!(*decoder)->invariant_violations().empty()) std::abort();
  }
  (*decoder)->finish(trace->end_ns.value_or(trace->edges.empty() ? 0 : trace->edges.back().ts_ns), events);
  return 0;
}
