#include "odds/playout.h"

#include "rules/bot.h"
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
  while (!game.state().ended) {
    if (stop && stop->load(std::memory_order_relaxed)) return std::nullopt;
    const auto& st = game.state();
    const bool cap = st.turns - start_turns >= turn_cap && st.pending.empty() && !st.auction;
    result.capped = result.capped || cap;
    // The bot's decision played as one call (rules::Bot::play: no Input built for a throw or a house);
    // nobody reads a playout's events: none are built.
    if (cap ? !game.play(rules::End{}) : !bot.play(game, &faces)) {
      result.refused = true;
      result.turns = game.state().turns - start_turns;
      return result;
    }
  }
  result.turns = game.state().turns - start_turns;
  result.share.assign(players, 0);
  const auto& winners = game.state().winners;
  for (rules::PlayerId w : winners)
    if (w.index() < players) result.share[w] += kShareUnits / static_cast<long long>(winners.size());
  return result;
}

}  // namespace bb::odds
