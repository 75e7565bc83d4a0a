#pragma once
#include <atomic>

#include "rules/bot.h"
#include "rules/game.h"

namespace bb::rules {

// A second engine for the bots' playouts (the odds' and `bench_rules`'): the common turns of an edition with
// the classic rules, played over a compact copy of the state with the bots' policy (rules/bot.cpp) compiled
// in. It plays the same games as Game and Bot::play, to the bit: the same state, random draws, inputs and
// postings counted (tests/rules/playout_engine_test.cpp plays thousands of games both ways, turn by turn).
//
// What it covers: the bots' decisions between moves (a house, a mortgage lifted, a trade, or a throw), throws
// and doubles, moves and the salary, buying at the price and auctions, rent of every kind (a utility's that a
// card asks a throw for too, with the houses the bot builds before that throw), taxes, the cards that pay,
// collect, move or jail, repairs, jail turns, debts raised by selling houses and mortgaging, and the
// thrower's bankruptcy. Everything else (a bankruptcy of another player, a hotel sold with its group when the
// bank lacks its houses, a trade offered before a utility's throw, a card that asks for a throw of its own,
// the end by the turn cap) is played by Game and Bot themselves: the engine puts the state back into the
// game, lets them play on to the next point between moves, and takes the state back. A step it finds it
// cannot finish is undone first (from a checkpoint of the compact state a few steps back), so it hands over
// only at such points. It never decides a rule that Game decides differently: where they could differ the
// test fails.
//
// Owns: nothing past one call (the compact state is the call's), but the edition's facts it keeps per thread
// (rules/playout_state.h, board_of). Never: keeps an undo history or a journal (covers() refuses a game that
// keeps them), builds events, reads a clock. Threads: one call plays one game on the calling thread; calls
// on separate games and bots share nothing (each thread keeps its own edition's facts).
class PlayoutEngine {
 public:
  // Whether play() takes this game over: the edition's rule switches are the ones it implements, its board
  // and decks fit the compact state, the game keeps no undo history and no journal (Game::forget_history,
  // Game::forget_journal), and nothing of FINANCE (1932) or a shortage auction is in its state. A game it
  // does not cover is played by play() with Game and Bot alone, the same way.
  static bool covers(const Game& game);

  enum class Result { ended, refused, stopped };
  // How a call went: the points at rest it played from, and of them those it handed to Game and Bot.
  struct Stats {
    long long from_rest = 0;
    long long handed_over = 0;
    bool capped = false;  // the game was ended by the turn cap (End), not by bankruptcies
  };
  // Plays `game` with `bot` exactly as this loop would, and leaves it as the loop would:
  //   while (!ended) { if (turns >= turn_cap && nothing pending && no auction) play(End) else bot.play(game,
  //   dice) }
  // `dice`: as Bot::play's (the faces of every throw; the bot's own dice are drawn all the same). `stop` is
  // polled between turns: `stopped` leaves the game at a point between moves. `refused`: an input was refused
  // (a bug in the bots or the engines), the game left as it was then.
  static Result play(Game& game, Bot& bot, int turn_cap, BotDice* dice = nullptr,
                     const std::atomic<bool>* stop = nullptr, Stats* stats = nullptr);
};

}  // namespace bb::rules
