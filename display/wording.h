#pragma once
#include <string>
#include <vector>

#include "rules/game.h"

namespace bb::display {

// Plain-language sentences for the table: postings, questions and their options.
class Wording {
 public:
  // "Ann paid Bob $26 rent for Vermont Avenue"
  static std::string posting(const rules::Game& game, const rules::Posting& p);
  // "Buy Baltic Avenue for $60?"
  static std::string question(const rules::Game& game, const rules::Question& q);
  // "Buy", "Auction", "Pay $50"
  static std::string option(const rules::Game& game, const rules::Question& q,
                            const rules::QuestionOption& option);
  // "?" for no space, or one not on the board.
  static std::string space_name(const rules::Game& game, std::optional<rules::SpaceId> space);
  // "Game over: Ann wins!", "Game over: a tie between Ann and Bob!"
  static std::string game_over(const rules::Game& game);
  // A player's place at the end: "winner", "tie" (one of several equal winners), "bankrupt" or "".
  static std::string standing(const rules::Game& game, rules::PlayerId player);
  // The sale question: "Ann: sell a house on Baltic Avenue to the bank for $25?"; for a sale that takes the
  // group's hotels at once it says so, and sale_lines lists every lot: "Oriental Avenue: 4 houses -> 1
  // house, $75".
  // "hotel", "no houses", "3 houses", in the edition's words ("3 Quinn's houses").
  static std::string buildings(const rules::Game& game, int houses, bool hotel);
  static std::string sale_question(const rules::Game& game, const rules::SalePlan& plan);
  static std::vector<std::string> sale_lines(const rules::Game& game, const rules::SalePlan& plan);
  static std::string money(const rules::Game& game, rules::Money amount);
  // A count as people read it: 2,000; 12,500.
  static std::string count(long long n);
};

}  // namespace bb::display
