#include "odds/playout.h"

#include "rules/bot.h"
#include "rules/playout_engine.h"
#include "rules/splitmix.h"

namespace bb::odds {

int DiceStream::next() {
  // Rejection keeps the six faces exactly equally likely.
  constexpr std::uint64_t kLimit = UINT64_MAX - UINT64_MAX % 6;
  std::uint64_t r = 0;
  do r = rules::splitmix64(state_);
  while (r >= kLimit);
  return static_cast<int>(r % 6) + 1;
}

std::uint64_t playout_seed(std::uint64_t seed, int index) {
  std::uint64_t s = seed * 0xd1342543de82ef95ULL + static_cast<std::uint64_t>(index);
  return rules::splitmix64(s);
}

std::optional<PlayoutResult> play_out(rules::Game game, std::uint64_t seed, int turn_cap,
                                      const std::atomic<bool>* stop) {
  PlayoutResult result;
  // Nobody undoes in a playout or reads its journal: apply() copies no input into a history and builds no
  // posting (the cash moves the same).
  game.forget_journal();
  // The decks' order is hidden from everyone at the table: each playout deals its own from its seed (the same
  // for both branches of a trade, so they draw the same cards).
  game.deal_hidden_cards_anew(seed);
  const int start_turns = game.state().turns;
  const std::size_t players = game.state().players.size();
  rules::Bot bot(seed);
  DiceStream dice(seed);
  // The bot's throws show the playout's own dice (its own are drawn all the same, so its decisions do not
  // depend on where the faces come from).
  struct StreamDice final : rules::BotDice {
    explicit StreamDice(DiceStream& s) : stream(s) {}
    int die() override { return stream.next(); }
    DiceStream& stream;
  } faces(dice);
  // The compact playout engine plays it (the classic rules; Game and Bot play what it does not cover, and
  // the same games either way: rules/playout_engine.h), ended by the turn cap as a time-limit game.
  rules::PlayoutEngine::Stats stats;
  switch (rules::PlayoutEngine::play(game, bot, start_turns + turn_cap, &faces, stop, &stats)) {
    case rules::PlayoutEngine::Result::stopped:
      return std::nullopt;
    case rules::PlayoutEngine::Result::refused:
      result.refused = true;
      result.capped = stats.capped;
      result.turns = game.state().turns - start_turns;
      return result;
    case rules::PlayoutEngine::Result::ended:
      break;
  }
  result.capped = stats.capped;
  result.turns = game.state().turns - start_turns;
  result.share.assign(players, 0);
  const auto& winners = game.state().winners;
  for (rules::PlayerId w : winners)
    if (w.index() < players) result.share[w] += kShareUnits / static_cast<long long>(winners.size());
  return result;
}

}  // namespace bb::odds
