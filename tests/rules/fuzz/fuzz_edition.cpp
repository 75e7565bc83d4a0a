// Feeds arbitrary TOML to the edition loader: no crash, no hang, no leak; and an edition it accepts keeps the
// promises of its checks (mortgages within prices, bounded money and copies, moves that end), and a game on
// it starts and takes a few throws with every invariant holding.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "rules/edition.h"
#include "rules/game.h"
#include "rules/input_limits.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace bb::rules;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto edition = parse_edition(text, "fuzz.toml");
  if (!edition) {
    if (edition.error().what().empty()) std::abort();
    return 0;
  }
  const Rules& r = edition->rules;
  if (r.start_cash < 0 || r.start_cash > kMaxMoney || r.salary < 0 || r.salary > kMaxMoney) std::abort();
  for (const auto& space : edition->spaces)
    if (space.mortgage < 0 || space.mortgage > space.price || space.price > kMaxMoney) std::abort();
  for (const auto& deck : edition->decks)
    for (const auto& card : deck.cards)
      if (card.copies < 1 || card.copies > kMaxCardCopies) std::abort();
  Setup setup;
  setup.edition = edition->id;
  setup.players.resize(2);
  setup.players[0].name = "Ann";
  setup.players[1].name = "Bob";
  auto game = Game::start(std::make_shared<const Edition>(std::move(*edition)), setup);
  if (!game) return 0;
  for (int throw_no = 0; throw_no < 12; ++throw_no) {
    (void)game->apply(Roll{1 + throw_no % 6, 1 + (throw_no * 5 + 2) % 6});
    if (!game->invariant_violations().empty()) std::abort();
  }
  return 0;
}
