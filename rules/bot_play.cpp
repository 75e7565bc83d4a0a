// Bot::play: the bot's decision and the engine's handling of it fused, for the odds' playouts and the
// benchmarks. The engine's own handlers and step machine do the work (rules/engine.h); this file only saves
// what an Input costs between them: building it, visiting it, and checking again what the bot has just asked.
#include <variant>

#include "rules/bot.h"
#include "rules/engine.h"

namespace bb::rules {

std::expected<void, std::string> Bot::play(Game& g, BotDice* dice) {
  const GameState& st = g.state();
  if (!st.ended && !st.auction && !st.pending.empty() && st.pending.front().kind == QuestionKind::buy &&
      !g.rules().salary_must_be_claimed) {
    // The bot's answer to the question before any other (Bot::next's), and the engine's handling of that
    // Choose: the bot buys only with the price and $150 in hand and a marker left, the checks that
    // Engine::handle(Choose) makes before Engine::answer_buy, once it has found the player in the game and
    // this question theirs to answer (the first that is neither a debt nor a draw).
    const Question& q = st.pending.front();
    const Choose choose{q.player, {buys(g, q) ? Answer::buy : Answer::auction}};
    Engine e(g, nullptr);
    if (!e.active(q.player)) return g.play(choose);  // refused there, as the general path refuses it
    return e.as_input(choose, [&]() -> std::expected<void, std::string> {
      e.answer_buy(e.st.pending.begin(), choose.option.answer == Answer::buy);
      return {};
    });
  }
  // Bot::next answers an auction, a salary to claim (FINANCE 1932 forgetters) and a question before it looks
  // at the moves between them: those decisions go the general way, an Input through Game::play.
  if (st.ended || st.auction || !st.pending.empty() || g.rules().salary_must_be_claimed) {
    Input in = next(g);
    if (auto* roll = std::get_if<Roll>(&in); roll && dice) {
      roll->d1 = dice->die();
      roll->d2 = dice->die();
    }
    return g.play(in);
  }
  Move move = between_moves(g);
  Engine e(g, nullptr);  // no events, as Game::play
  switch (move.kind) {
    case Move::Kind::roll: {
      // The throw the bot sends, its faces from `dice` where given: Engine::handle(Roll) checks and plays it
      // (the fast throw, or the step machine's throw it is owed), as for a Roll input.
      Roll roll{move.d1, move.d2};
      if (dice) {
        roll.d1 = dice->die();
        roll.d2 = dice->die();
      }
      return e.as_input(roll, [&] { return e.handle(roll); });
    }
    case Move::Kind::build: {
      // The bot has just asked Game::refusal_to_build (the same Engine::refuse_build that
      // Engine::handle(Build) asks), between moves (nobody in debt) in a game not ended: handle(Build) would
      // accept it, and the house goes up without asking again (an assertion here was a tenth of the throws'
      // cost; the differential test plays every build both ways).
      const Build build{move.player, move.space, false};
      return e.as_input(build, [&]() -> std::expected<void, std::string> {
        e.build(build.player, build.space, false);
        return {};
      });
    }
    case Move::Kind::unmortgage:
    case Move::Kind::other:
      break;
  }
  return g.play(input_of(move));
}

}  // namespace bb::rules
