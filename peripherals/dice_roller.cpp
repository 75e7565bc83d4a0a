#include "peripherals/dice_roller.h"

#include <sys/random.h>

#include <cassert>
#include <cerrno>
#include <cstdlib>

namespace bb::peripherals {

void DiceRoller::kernel_random_bytes(std::span<std::uint8_t> out) {
  std::size_t filled = 0;
  while (filled < out.size()) {
    const ssize_t got = getrandom(out.data() + filled, out.size() - filled, 0);
    if (got < 0 && errno == EINTR) continue;
    // getrandom only fails for bad arguments or before the pool is ready (it then blocks instead).
    assert(got > 0 && "getrandom failed");
    if (got <= 0) std::abort();
    filled += static_cast<std::size_t>(got);
  }
}

int DiceRoller::one_die() {
  // 252 = 42 * 6: bytes above it would make low faces likelier, so they are drawn again.
  for (;;) {
    std::uint8_t byte = 0;
    source_(std::span<std::uint8_t>(&byte, 1));
    if (byte < 252) return byte % 6 + 1;
  }
}

std::array<int, 2> DiceRoller::roll() { return {one_die(), one_die()}; }

}  // namespace bb::peripherals
