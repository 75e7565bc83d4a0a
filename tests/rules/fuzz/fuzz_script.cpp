// Feeds arbitrary bytes as a game script to the replayer (keep going past refused lines) with the shipped
// editions: no crash, no hang, no leak, and the game it leaves obeys every invariant: whatever a script says,
// the ledger still explains every balance.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "rules/replay.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace bb::rules;
  const std::string_view script(reinterpret_cast<const char*>(data), size);
  // Only the shipped editions, by id: a fuzzed path must not read files of the machine.
  if (script.find('/') != std::string_view::npos || script.find(".toml") != std::string_view::npos) return 0;
  auto result = replay_script(script, "fuzz.jsonl", {EDITIONS_DIR}, true);
  if (!result.game) return 0;
  if (!result.game->invariant_violations().empty()) std::abort();
  return 0;
}
