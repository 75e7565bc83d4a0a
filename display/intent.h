#pragma once
#include <array>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "display/snapshot.h"
#include "display/table_question.h"
#include "rules/input.h"

namespace bb::display {

// What a touch asks for. The display decides nothing about the game: the caller applies these through the
// rules and shows the result.
struct ApplyInput {
  rules::Input input;
  std::string reason;  // for corrections (undo): why, as the banker gave it; stored in the ledger
  // The player whose card tap confirmed it; nobody when confirmed on the screen.
  std::optional<rules::PlayerId> confirmed_by;
  // Corrections: who allowed it, "pin" after the banker's PIN or the banker's card UID; empty otherwise.
  std::string authorised_by = {};
};
struct StartGame {
  rules::Setup setup;  // the caller fills the seed
  std::vector<int> colours;
};
struct ResumeGame {};
struct SetSound {
  bool on = true;
};
struct Recalibrate {};
// The space grid as dragged onto the printed board on the calibration screen: its corners (top-left,
// top-right, bottom-right, bottom-left) in board units; the caller stores it with the set-up.
struct SaveSpaceGrid {
  std::array<BoardPoint, 4> corners;
};
// The calibration screen was left without saving.
struct CancelCalibration {};
// An answer to the table's own question (TableQuestion): the option's key, and what the option asked for:
// the dice ("3,4"), the banker's PIN ("2468"), or both in that order joined by ';' ("3,4;2468").
struct AnswerQuestion {
  std::string question;  // TableQuestion::id
  std::string option;
  std::string value = {};
};
// A payment outside the rules (the Free Parking jackpot and the like) asked for on the screen; the table then
// waits for the payer's card (the banker's card or PIN for a payment from the bank). from/to: a player or
// the bank.
struct RequestHousePayment {
  rules::Account from = rules::Account::bank();
  rules::Account to = rules::Account::bank();
  rules::Money amount = 0;
  std::string reason = {};  // "Free Parking jackpot"
};

// The trade on the trade screen changed: weigh it (each side's chance with and without it). Changes
// nothing; the answer comes back in Snapshot::chances.
struct WeighTrade {
  rules::Trade trade;
};

using Intent = std::variant<ApplyInput, StartGame, ResumeGame, SetSound, Recalibrate, SaveSpaceGrid,
                            CancelCalibration, AnswerQuestion, RequestHousePayment, WeighTrade>;

// Short sounds the screen asks for; the caller plays them (or not, by the setting).
enum class Cue { tap, payment, refused };

}  // namespace bb::display
