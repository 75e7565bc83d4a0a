#include "peripherals/dice_unit_model.h"

#include <bit>
#include <cassert>

namespace bb::peripherals {

void DiceUnitModel::set_line(Nanoseconds at, int line, bool high, std::vector<Edge>& out) {
  auto& level = levels_[static_cast<std::size_t>(line)];
  if (level == high) return;
  level = high;
  out.push_back({at, line, high});
}

void DiceUnitModel::set_data(Nanoseconds at, int a, int b, bool correct_parity, std::vector<Edge>& out) {
  assert(a >= 0 && a <= 7 && b >= 0 && b <= 7);
  const unsigned data = static_cast<unsigned>(a) | (static_cast<unsigned>(b) << 3);
  for (int bit = 0; bit < 6; ++bit) set_line(at, DiceDecoder::kA0 + bit, (data >> bit) & 1U, out);
  const bool parity = std::popcount(data) % 2 == 0;  // makes the seven lines odd
  set_line(at, DiceDecoder::kPar, correct_parity ? parity : !parity, out);
}

std::vector<Edge> DiceUnitModel::strobe(Nanoseconds at, Nanoseconds low_for) {
  std::vector<Edge> out;
  set_line(at, DiceDecoder::kStb, true, out);  // a strobe starts from high
  set_line(at, DiceDecoder::kStb, false, out);
  set_line(at + low_for, DiceDecoder::kStb, true, out);
  return out;
}

std::vector<Edge> DiceUnitModel::report(Nanoseconds at, int a, int b, Timing timing, bool correct_parity) {
  std::vector<Edge> out;
  set_line(at, DiceDecoder::kStb, true, out);
  set_data(at, a, b, correct_parity, out);
  const auto strobe_edges = strobe(at + timing.setup, timing.strobe);
  out.insert(out.end(), strobe_edges.begin(), strobe_edges.end());
  return out;
}

std::vector<Edge> DiceUnitModel::report_changing(Nanoseconds at, int a, int b, int a_later, Timing timing) {
  std::vector<Edge> out;
  set_line(at, DiceDecoder::kStb, true, out);
  set_data(at, a, b, true, out);
  set_line(at + timing.setup, DiceDecoder::kStb, false, out);
  set_data(at + timing.setup + timing.strobe / 6, a_later, b, true, out);
  set_line(at + timing.setup + timing.strobe, DiceDecoder::kStb, true, out);
  return out;
}

std::vector<Edge> DiceUnitModel::unplug(Nanoseconds at) {
  std::vector<Edge> out;
  for (int line = 0; line < DiceDecoder::kLineCount; ++line) set_line(at, line, true, out);
  return out;
}

}  // namespace bb::peripherals
