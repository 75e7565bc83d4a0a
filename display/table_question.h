#pragma once
#include <optional>
#include <string>
#include <vector>

#include "rules/ids.h"
#include "rules/money.h"

namespace bb::display {

// A question the table itself asks (not the rules): the camera disagrees with the dice, an unknown card was
// tapped, a house-rule payment waits for its tap, a drawn card must be picked, a payment waits for the payer.
// Plain data: the table fills it, the screen shows it and answers with AnswerQuestion.
struct TableQuestion {
  enum class Kind {
    camera_mismatch,  // after a throw the camera sees a token elsewhere than the dice say
    token_moved,      // a token moved when nobody threw
    register_card,    // an unknown card was tapped: whose is it?
    house_payment,    // a payment outside the rules waits for the payer's tap (the banker's for the bank)
    pick_card,        // a card must be drawn: which one did the player take from the deck?
    confirm_payment,  // money the rules moved waits for the payer's tap
    learn_tokens,     // the camera learns the tokens before play
  };
  struct Option {
    std::string key;          // what AnswerQuestion::option carries back ("move_token", "enter_dice", ...)
    std::string label;        // the button's text
    bool needs_dice = false;  // the screen asks for two dice first and sends them as "d1,d2" in value
    bool needs_pin = false;   // the screen asks for the banker's PIN first and sends it in value
  };
  std::string id;  // unique for this question; answers name it, so a stale answer is refused
  Kind kind = Kind::camera_mismatch;
  std::string title;                      // "Where is the car?"
  std::string text;                       // "The car is on Illinois Avenue, the dice say Kentucky Avenue"
  std::optional<rules::PlayerId> player;  // whose card answers it (nobody: no player's card; the screen)
  bool banker = false;                    // the banker's card (or PIN) answers it
  std::vector<Option> options;
  // camera_mismatch / token_moved: where the camera sees the token (nothing: it is not sure where).
  std::optional<rules::SpaceId> space;
  // camera_mismatch: where the dice say it must be; token_moved: where it stands in the game.
  std::optional<rules::SpaceId> expected;
  rules::Money amount = 0;  // house_payment / confirm_payment
};

}  // namespace bb::display
