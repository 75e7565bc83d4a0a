// Figures for issue 4: edges decoded per second (Google Benchmark, items_per_second), then the latency from
// the last edge of a frame (and from the end of its gap) to the event being delivered to a poll loop.
#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <poll.h>

#include <algorithm>
#include <vector>

#include "peripherals/dice_decoder.h"
#include "peripherals/dice_unit_model.h"
#include "peripherals/edge_device.h"
#include "peripherals/fake_mfrc522.h"
#include "peripherals/mfrc522.h"
#include "peripherals/simulated_edge_source.h"
#include "peripherals/trace.h"
#include "peripherals/trace_generator.h"
#include "peripherals/wiegand_decoder.h"

namespace {

using namespace bb::peripherals;

std::vector<Edge> wiegand_stream(int frames) {
  std::vector<Edge> edges;
  Nanoseconds t = 0;
  for (int i = 0; i < frames; ++i) {
    const auto uid = fmt::format("{:06X}", (0x123456 + i * 7919) & 0xFFFFFF);
    const auto frame =
        wiegand_edges(*wiegand_frame_bits({uid, 26}), t, {50 * kMicrosecond, 1 * kMillisecond});
    edges.insert(edges.end(), frame.begin(), frame.end());
    t = frame.back().ts_ns + 2 * kSecond;  // different cards, and far enough apart to be separate taps
  }
  return edges;
}

std::vector<Edge> dice_stream(int rolls) {
  DiceUnitModel unit;
  std::vector<Edge> edges;
  for (int i = 0; i < rolls; ++i) {
    const auto rolling = unit.report(i * 100 * kMillisecond, 0, 0);
    const auto result = unit.report(i * 100 * kMillisecond + 20 * kMillisecond, i % 6 + 1, (i / 6) % 6 + 1);
    edges.insert(edges.end(), rolling.begin(), rolling.end());
    edges.insert(edges.end(), result.begin(), result.end());
  }
  return edges;
}

void BM_WiegandEdgesDecoded(benchmark::State& state) {
  const auto edges = wiegand_stream(200);
  std::vector<PeripheralEvent> events;
  for (auto _ : state) {
    WiegandDecoder decoder;
    events.clear();
    for (const Edge& edge : edges) decoder.feed(edge, events);
    decoder.finish(edges.back().ts_ns + kSecond, events);
    benchmark::DoNotOptimize(events.data());
  }
  if (events.size() != 200) state.SkipWithError("wrong number of cards");
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(edges.size()));
}
BENCHMARK(BM_WiegandEdgesDecoded);

void BM_DiceEdgesDecoded(benchmark::State& state) {
  const auto edges = dice_stream(200);
  std::vector<PeripheralEvent> events;
  for (auto _ : state) {
    DiceDecoder decoder;
    events.clear();
    for (const Edge& edge : edges) decoder.feed(edge, events);
    decoder.finish(edges.back().ts_ns + 10 * kMillisecond, events);
    benchmark::DoNotOptimize(events.data());
  }
  if (events.size() != 200) state.SkipWithError("wrong number of rolls");
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(edges.size()));
}
BENCHMARK(BM_DiceEdgesDecoded);

void BM_TraceEdgesParsed(benchmark::State& state) {
  auto trace = *make_trace("wiegand", {"GPIO5", "GPIO6"});
  trace.edges = wiegand_stream(200);
  const std::string text = format_trace(trace);
  for (auto _ : state) benchmark::DoNotOptimize(parse_trace(text));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(trace.edges.size()));
}
BENCHMARK(BM_TraceEdgesParsed);

void BM_Rc522PollWithACard(benchmark::State& state) {
  FakeMfrc522 chip;
  Mfrc522 reader(chip, nullptr, [](Nanoseconds) {});
  if (!reader.init()) state.SkipWithError("init failed");
  const std::vector<std::uint8_t> uid{0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6};
  for (auto _ : state) {
    chip.remove_all_cards();
    chip.add_card(uid);
    benchmark::DoNotOptimize(reader.poll());
  }
}
BENCHMARK(BM_Rc522PollWithACard);

struct Latency {
  std::vector<double> from_last_edge_ms;
  std::vector<double> from_decidable_ms;  // from the end of the frame gap / the strobe's 2 ms
};

// Drives a simulated device through its fd as the daemon will, timing when each event comes out.
Latency measure(const std::string& kind, int count) {
  auto source = SimulatedEdgeSource::create(kind);
  SimulatedEdgeSource* simulated = source->get();
  std::unique_ptr<EdgeDecoder> decoder;
  if (kind == "wiegand")
    decoder = std::make_unique<WiegandDecoder>();
  else
    decoder = std::make_unique<DiceDecoder>();
  auto device = EdgeDevice::create(kind, std::move(*source), std::move(decoder));
  Latency latency;
  for (int i = 0; i < count; ++i) {
    const Nanoseconds start = monotonic_now() + 1 * kMillisecond;
    Nanoseconds last_edge = 0;
    if (kind == "wiegand") {
      const auto uid = fmt::format("{:06X}", 0x100000 + i * 4099);
      const auto edges =
          wiegand_edges(*wiegand_frame_bits({uid, 26}), start, {50 * kMicrosecond, 1 * kMillisecond});
      last_edge = edges.back().ts_ns;
      simulated->inject(edges);
    } else {
      // The simulator's own unit model (it also sends the heartbeats): rolling, then the faces 50 ms later.
      if (!simulated->command(fmt::format("roll {} {}", i % 6 + 1, 6 - i % 6))) break;
    }
    bool delivered = false;
    while (!delivered) {
      pollfd fd{(*device)->fd(), POLLIN, 0};
      if (poll(&fd, 1, 1000) <= 0) break;
      for (const auto& event : (*device)->read_events()) {
        if (event.kind != EventKind::card && event.kind != EventKind::dice) continue;
        const Nanoseconds now = monotonic_now();
        if (kind == "wiegand") {
          latency.from_last_edge_ms.push_back(static_cast<double>(now - last_edge) / 1e6);
          latency.from_decidable_ms.push_back(
              static_cast<double>(now - last_edge - WiegandTiming{}.frame_gap) / 1e6);
        } else {
          // A roll is decidable once its strobe (event.ts_ns) has stayed low 2 ms.
          latency.from_decidable_ms.push_back(
              static_cast<double>(now - event.ts_ns - DiceTiming{}.min_strobe) / 1e6);
        }
        delivered = true;
      }
    }
    // Let the strobe finish before the next roll.
    const Nanoseconds settle = monotonic_now() + 5 * kMillisecond;
    while (monotonic_now() < settle) poll(nullptr, 0, 1);
    (*device)->read_events();
  }
  return latency;
}

void print_latency(const std::string& what, std::vector<double> values) {
  if (values.empty()) {
    fmt::print("{:<58} no events delivered\n", what);
    return;
  }
  std::sort(values.begin(), values.end());
  auto at = [&](double q) {
    return values[static_cast<std::size_t>(q * static_cast<double>(values.size() - 1))];
  };
  fmt::print("{:<58} n={:<3} median {:7.3f} ms  p95 {:7.3f} ms  max {:7.3f} ms\n", what, values.size(),
             at(0.5), at(0.95), values.back());
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  fmt::print("peripherals: edges decoded per second (items_per_second)\n");
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  fmt::print(
      "\nperipherals: latency to the daemon's poll loop, in process (simulated backend, eventfd + "
      "timerfd)\n");
  fmt::print("(includes the {} ms margin a live device waits for late kernel edges)\n",
             EdgeDevice::kLateEdgeMargin / kMillisecond);
  const auto cards = measure("wiegand", 30);
  print_latency("wiegand card: last edge -> delivered (gap is 25 ms)", cards.from_last_edge_ms);
  print_latency("wiegand card: end of frame gap -> delivered", cards.from_decidable_ms);
  const auto rolls = measure("dice", 30);
  print_latency("dice roll: strobe low 2 ms (decidable) -> delivered", rolls.from_decidable_ms);
  return 0;
}
