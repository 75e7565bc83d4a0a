#pragma once
// The compact playout engine's turns (rules/playout_engine.h), private to rules/: the classic rules and the
// bots' decisions played over a TableBits, step by step from one point at rest (between moves, or a jailed
// player's turn about to be asked) to the next. Each function names the Engine or Bot function whose rule it
// plays; where the engine queues steps, it plays them in the same order directly, and where the engine waits
// for an input (a debt, a tax, a card to draw, a bid) it plays the bots' answer at that point.
// Owns: its caches of the bots' answers by seat, the debts within a step, the faces taken from the dice.
// Never: touches a Game or a Bot (PlayoutTable hands the state over), allocates within a step (but the faces'
// record). Threads: one call's, on the calling thread.
#include <atomic>
#include <cstdint>
#include <memory>

#include "rules/playout_state.h"

namespace bb::rules {

class BotDice;

class PlayoutTurns {
 public:
  // `dice`: the faces of every throw, as Bot::play's (nullptr: the bot's own dice).
  PlayoutTurns(const Edition& edition, const Rules& rules, const PlayoutBoard& board, int seats,
               BotDice* dice);
  ~PlayoutTurns();
  PlayoutTurns(const PlayoutTurns&) = delete;
  PlayoutTurns& operator=(const PlayoutTurns&) = delete;

  TableBits& table();
  enum class Stop : std::uint8_t {
    stuck,    // the next step is Game's: the table is at the point at rest before it
    capped,   // `turn_cap` turns played, at a point between moves
    ended,    // the last bankruptcy but one
    stopped,  // `stop` was set
  };
  // Plays steps from the table as it is (at rest), each from one point at rest to the next: a decision
  // between moves (a house, a mortgage lifted, a trade, or a throw and all it causes), or a jailed player's
  // turn. Stops before a step that is Game's (a bankruptcy other than the thrower's, a hotel sold with its
  // group, a trade before a utility's throw, an effect not played here): such a step is undone, by playing
  // the steps since the last checkpoint again, and the faces it had taken are handed out again by
  // next_face(). `from_rest` counts the steps begun.
  Stop run(int turn_cap, const std::atomic<bool>* stop, long long& from_rest);
  // The faces taken from `dice` and not yet played again (after a stuck step), then new ones.
  int next_face();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bb::rules
