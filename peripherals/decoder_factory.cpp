#include "peripherals/decoder_factory.h"

#include <fmt/format.h>

#include "peripherals/button_decoder.h"
#include "peripherals/dice_decoder.h"
#include "peripherals/wiegand_decoder.h"

namespace bb::peripherals {

std::expected<std::unique_ptr<EdgeDecoder>, std::string> make_decoder(const std::string& kind,
                                                                      const std::string& name,
                                                                      DiceRoller roller) {
  if (kind == "wiegand") return std::make_unique<WiegandDecoder>(name);
  if (kind == "dice") return std::make_unique<DiceDecoder>(name);
  if (kind == "button") return std::make_unique<ButtonDecoder>(name, std::move(roller));
  return std::unexpected(fmt::format("unknown device '{}' (wiegand, dice or button)", kind));
}

}  // namespace bb::peripherals
