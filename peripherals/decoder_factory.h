#pragma once
#include <expected>
#include <memory>
#include <string>

#include "peripherals/dice_roller.h"
#include "peripherals/edge_decoder.h"

namespace bb::peripherals {

// How a Wiegand reader's taps are counted (WiegandTiming): whether the reader sends one frame per
// presentation (every frame is a tap) or repeats its frame while a card lies there (the same card within
// kSameCardWindow of its last frame is the same tap), and whether such repeats are reported flagged
// (PeripheralEvent::repeat) for the table to judge, or dropped.
struct WiegandTaps {
  bool one_frame_per_tap = false;
  bool report_repeats = false;
};

// The decoder for a device kind (wiegand, dice or button), reporting under the given name.
// `wiegand_bits`: the one frame length a Wiegand reader sends (26 or 34), 0 for any (WiegandTiming).
std::expected<std::unique_ptr<EdgeDecoder>, std::string> make_decoder(const std::string& kind,
                                                                      const std::string& name,
                                                                      DiceRoller roller = DiceRoller{},
                                                                      int wiegand_bits = 0,
                                                                      WiegandTaps wiegand_taps = {});

}  // namespace bb::peripherals
