// Feeds arbitrary edge timelines to the dice decoder: no crash, no hang, a consistent state, and every roll
// it reports was on the lines (by this harness's own bookkeeping) when its strobe fell, with odd parity and
// both faces 1-6.
#include <array>
#include <cstdlib>
#include <map>

#include "fuzz_input.h"
#include "peripherals/dice_decoder.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace bb::peripherals;
  DiceDecoder decoder("fuzz");
  std::array<bool, DiceDecoder::kLineCount> levels;
  levels.fill(true);
  std::map<Nanoseconds, std::array<bool, DiceDecoder::kLineCount>> at_strobe;
  std::vector<PeripheralEvent> events;
  auto check = [&] {
    if (!decoder.invariant_violations().empty()) std::abort();
    for (const auto& event : events) {
      if (event.kind != EventKind::dice) continue;
      const auto found = at_strobe.find(event.ts_ns);
      if (found == at_strobe.end()) std::abort();
      const auto& bits = found->second;
      int ones = 0;
      for (int line = 0; line < DiceDecoder::kStb; ++line) ones += bits[static_cast<std::size_t>(line)];
      const int a = bits[0] + 2 * bits[1] + 4 * bits[2];
      const int b = bits[3] + 2 * bits[4] + 4 * bits[5];
      if (ones % 2 != 1 || a != event.dice[0] || b != event.dice[1] || a < 1 || a > 6 || b < 1 || b > 6)
        std::abort();
    }
    events.clear();
  };
  for (const Edge& edge : fuzzing::edges_from_bytes(data, size, DiceDecoder::kLineCount)) {
    decoder.feed(edge, events);
    check();
    levels[static_cast<std::size_t>(edge.line)] = edge.rising;
    if (edge.line == DiceDecoder::kStb && !edge.rising) at_strobe[edge.ts_ns] = levels;
  }
  decoder.finish(1'000'000'000'000'000, events);
  check();
  return 0;
}
