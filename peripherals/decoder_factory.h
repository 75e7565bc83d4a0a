#pragma once
#include <expected>
#include <memory>
#include <string>

#include "peripherals/dice_roller.h"
#include "peripherals/edge_decoder.h"

namespace bb::peripherals {

// The decoder for a device kind (wiegand, dice or button), reporting under the given name.
// `wiegand_bits`: the one frame length a Wiegand reader sends (26 or 34), 0 for any (WiegandTiming).
std::expected<std::unique_ptr<EdgeDecoder>, std::string> make_decoder(const std::string& kind,
                                                                      const std::string& name,
                                                                      DiceRoller roller = DiceRoller{},
                                                                      int wiegand_bits = 0);

}  // namespace bb::peripherals
