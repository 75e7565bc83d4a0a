// Bot::play: the bot's decision and the engine's handling of it fused, for the odds' playouts and the
// benchmarks. The engine's own handlers and step machine do the work (rules/engine.h); this file only saves
// what an Input costs between them: building it, visiting it, and checking again what the bot has just asked,
// and, after a throw, the return to the caller before each question the bot answers at once.
#include <variant>

#include "rules/bot.h"
#include "rules/engine.h"

namespace bb::rules {

std::expected<void, std::string> Bot::play(Game& g, BotDice* dice) {
  const GameState& st = g.state();
  // The questions the bot answers at once, without a decision of its own to make first: a buy question and a
  // card to draw, when nothing comes before them in Bot::next (the game goes on, no auction runs, no salary
  // may wait for a claim) and the question is the first pending. Each is the input Bot::next would send,
  // handed to the engine's handler of that input.
  auto answers_at_once = [&] {
    return !st.ended && !st.auction && !st.pending.empty() && !g.rules().salary_must_be_claimed &&
           (st.pending.front().kind == QuestionKind::buy || st.pending.front().kind == QuestionKind::draw);
  };
  auto answer_at_once = [&]() -> std::expected<void, std::string> {
    const Question& q = st.pending.front();
    Engine e(g, nullptr);  // no events, as Game::play
    if (q.kind == QuestionKind::draw) {
      // Bot::next's Draw (the top card of the deck asked for): Engine::handle(Draw) checks and draws it, and
      // the step machine plays the card's effects.
      const Draw draw{*q.deck, std::nullopt};
      return e.as_input(draw, [&] { return e.handle(draw); });
    }
    // The bot's answer to a buy question (Bot::next's), and the engine's handling of that Choose: the bot
    // buys only with the price and $150 in hand and a marker left, the checks that Engine::handle(Choose)
    // makes before Engine::answer_buy, once it has found the player in the game and this question theirs to
    // answer (the first that is neither a debt nor a draw).
    const Choose choose{q.player, {buys(g, q) ? Answer::buy : Answer::auction}};
    if (!e.active(q.player)) return g.play(choose);  // refused there, as the general path refuses it
    return e.as_input(choose, [&]() -> std::expected<void, std::string> {
      e.answer_buy(e.st.pending.begin(), choose.option.answer == Answer::buy);
      return {};
    });
  };
  if (answers_at_once()) return answer_at_once();
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
      if (auto thrown = e.as_input(roll, [&] { return e.handle(roll); }); !thrown) return thrown;
      // The rest of the throw in the same call: the lot it reached offered, a card drawn and what it does
      // (and the lot a card sends the token to), each still an input of its own (counted, kept for undo),
      // without a return to the caller between them. The caller sees nothing it would have acted on in
      // between: a playout and bench_rules check their turn cap and End only with no question pending and no
      // auction, and these questions are pending until answered.
      while (answers_at_once())
        if (auto answered = answer_at_once(); !answered) return answered;
      return {};
    }
    case Move::Kind::build: {
      // The bot has just asked Game::first_lot_to_build (the lot Engine::refuse_build, which
      // Engine::handle(Build) asks, allows; fast_path_test checks the two agree lot by lot), between moves
      // (nobody in debt) in a game not ended: handle(Build) would accept it, and the house goes up without
      // asking again (an assertion here was a tenth of the throws' cost; the differential test plays every
      // build both ways).
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
