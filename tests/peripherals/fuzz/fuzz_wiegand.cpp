// Feeds arbitrary edge timelines to the Wiegand decoder: no crash, no hang, a consistent state after every
// edge, and never a card from a frame whose parity is wrong (checked here on the bits the decoder took,
// with parity code of its own).
#include <cstdlib>

#include "fuzz_input.h"
#include "peripherals/wiegand_decoder.h"

namespace {
bool parity_holds(const std::vector<std::uint8_t>& bits) {
  if (bits.size() != 26 && bits.size() != 34) return false;
  const std::size_t half = bits.size() / 2;
  int leading = 0, trailing = 0;
  for (std::size_t i = 0; i < half; ++i) leading += bits[i];
  for (std::size_t i = half; i < bits.size(); ++i) trailing += bits[i];
  return leading % 2 == 0 && trailing % 2 == 1;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace bb::peripherals;
  WiegandDecoder decoder("fuzz");
  std::vector<PeripheralEvent> events;
  auto check = [&] {
    if (!decoder.invariant_violations().empty()) std::abort();
    for (const auto& event : events) {
      if (event.kind == EventKind::card && !parity_holds(decoder.last_frame_bits())) std::abort();
      if (event.kind == EventKind::card && event.uid.size() != static_cast<std::size_t>(event.bits - 2) / 4)
        std::abort();
    }
    events.clear();
  };
  for (const Edge& edge : fuzzing::edges_from_bytes(data, size, 2)) {
    decoder.feed(edge, events);
    check();
    if (const auto deadline = decoder.next_deadline()) {
      decoder.advance(*deadline - 1, events);  // nothing ends before its deadline...
      check();
    }
  }
  decoder.finish(1'000'000'000'000'000, events);
  check();
  return 0;
}
