#pragma once
#include <string>

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
  static std::string option(const rules::Game& game, const rules::Question& q, const std::string& option);
  static std::string space_name(const rules::Game& game, int space);
  static std::string money(const rules::Game& game, rules::Money amount);
};

}  // namespace bb::display
