#pragma once
// The compact playout engine's turns (rules/playout_engine.h), private to rules/: the classic rules and the
// bots' decisions played over a TableBits, step by step from one point at rest (between moves, or a jailed
// player's turn about to be asked) to the next. Each function names the Engine or Bot function whose rule it
// plays; where the engine queues steps, it plays them in the same order directly, and where the engine waits
// for an input (a debt, a tax, a card to draw, a bid) it plays the bots' answer at that point.
// Owns: its caches of the bots' answers by seat, the debts within a step, the faces taken from the dice.
// Never: touches a Game or a Bot (PlayoutTable hands the state over), allocates within a step (but the faces'
// record). Threads: one call's, on the calling thread.
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
  // One step from a point at rest: a decision between moves (a house, a mortgage lifted, a trade, or a throw
  // and all it causes), or a jailed player's turn. False: the step is Game's (a bankruptcy other than the
  // thrower's, a hotel sold with its group, a throw for the rent, an effect not played here); the table is
  // then left half played, for the caller to undo.
  bool step();
  // The faces taken from `dice` since drop_used_faces(): after rewind_faces() next_face() hands them out
  // again in order, then takes new ones.
  int next_face();
  void rewind_faces();
  void drop_used_faces();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bb::rules
