#include "peripherals/decoder_factory.h"

#include <fmt/format.h>

#include "peripherals/button_decoder.h"
#include "peripherals/dice_decoder.h"
#include "peripherals/wiegand_decoder.h"

namespace bb::peripherals {

std::expected<std::unique_ptr<EdgeDecoder>, std::string> make_decoder(const std::string& kind,
                                                                      const std::string& name,
                                                                      DiceRoller roller, int wiegand_bits,
                                                                      WiegandTaps wiegand_taps) {
  if (kind == "wiegand") {
    if (wiegand_bits != 0 && wiegand_bits != 26 && wiegand_bits != 34)
      return std::unexpected(fmt::format("a Wiegand reader sends 26 or 34 bits, not {}", wiegand_bits));
    WiegandTiming timing;
    timing.frame_bits = wiegand_bits;
    if (wiegand_taps.one_frame_per_tap) timing.same_card_window = 0;
    timing.report_repeats = wiegand_taps.report_repeats;
    return std::make_unique<WiegandDecoder>(name, timing);
  }
  if (kind == "dice") return std::make_unique<DiceDecoder>(name);
  if (kind == "button") return std::make_unique<ButtonDecoder>(name, std::move(roller));
  return std::unexpected(fmt::format("unknown device '{}' (wiegand, dice or button)", kind));
}

}  // namespace bb::peripherals
