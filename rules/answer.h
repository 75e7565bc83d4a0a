#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace bb::rules {

// One answer a question offers. The game-script spec spells them as strings ("buy", "pay_fixed", ...); they
// are parsed once where an input or a snapshot comes in (parse_answer) and spelled once where a state goes
// out (answer_name), and everything in between compares these values. Plain data: any thread.
enum class Answer : std::uint8_t {
  buy,          // buy: pay the price and take the lot
  auction,      // buy: let the bank auction it
  pay_fixed,    // tax: the fixed amount
  pay_percent,  // tax: the percentage of worth
  pay_fine,     // jail: pay the fine and leave
  use_card,     // jail: hand in a Get Out of Jail card
  roll,         // jail: throw for doubles
  use_throw,    // jail, FINANCE (1932) house owner: leave with the throw just made
  throw_again,  // jail, FINANCE (1932) house owner: throw again
  lift,         // mortgaged_transfer: lift the mortgage now (mortgage and interest)
  keep,         // mortgaged_transfer: keep it mortgaged and pay the interest
  take_set      // draft: take the set of title deeds named by Option::group
};

// An option of a question: the answer, and for a draft the set it takes.
struct QuestionOption {
  Answer answer = Answer::buy;
  int group = -1;  // take_set: the group index; -1 otherwise
  bool operator==(const QuestionOption&) const = default;
};

// The options of one question, in the order the screens offer them (Game::option_name spells each), with a
// std::vector's interface where callers use it. Every question but a draft offers two or three (buy or
// auction, the jail's ways out), held in the question itself: a std::vector was an allocation and a free for
// every question, and a question is asked on most throws. A draft offers one option per set still free; past
// kInline they all move to the heap. Owns its options; plain data: any thread.
class QuestionOptions {
 public:
  static constexpr std::size_t kInline = 3;

  QuestionOptions() = default;
  QuestionOptions(std::initializer_list<QuestionOption> options) { assign(options); }
  QuestionOptions& operator=(std::initializer_list<QuestionOption> options) {
    assign(options);
    return *this;
  }
  QuestionOptions(const QuestionOptions&) = default;
  QuestionOptions& operator=(const QuestionOptions&) = default;
  // A moved-from list is empty (a moved-from std::vector may leave `size_` pointing past it).
  QuestionOptions(QuestionOptions&& other) noexcept
      : inline_(other.inline_), size_(other.size_), heap_(std::move(other.heap_)) {
    other.clear();
  }
  QuestionOptions& operator=(QuestionOptions&& other) noexcept {
    inline_ = other.inline_;
    size_ = other.size_;
    heap_ = std::move(other.heap_);
    other.clear();
    return *this;
  }
  ~QuestionOptions() = default;

  void push_back(const QuestionOption& option) {
    if (size_ < kInline) {
      inline_[size_++] = option;
      return;
    }
    if (size_ == kInline) heap_.assign(inline_.begin(), inline_.end());
    heap_.push_back(option);
    ++size_;
  }
  void clear() {
    size_ = 0;
    heap_.clear();
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const QuestionOption* data() const { return size_ <= kInline ? inline_.data() : heap_.data(); }
  const QuestionOption* begin() const { return data(); }
  const QuestionOption* end() const { return data() + size_; }
  const QuestionOption& operator[](std::size_t i) const { return data()[i]; }
  const QuestionOption& front() const { return data()[0]; }
  const QuestionOption& back() const { return data()[size_ - 1]; }

  bool operator==(const QuestionOptions& other) const {
    if (size_ != other.size_) return false;
    for (std::size_t i = 0; i < size_; ++i)
      if (!((*this)[i] == other[i])) return false;
    return true;
  }

 private:
  void assign(std::initializer_list<QuestionOption> options) {
    clear();
    for (const QuestionOption& option : options) push_back(option);
  }
  std::array<QuestionOption, kInline> inline_{};  // the options while there are at most kInline
  std::size_t size_ = 0;
  std::vector<QuestionOption> heap_;  // all of them once there are more
};

// The spec's spelling; take_set has none of its own (its option is the group's id, Game::option_name).
constexpr std::string_view answer_name(Answer a) {
  switch (a) {
    case Answer::buy:
      return "buy";
    case Answer::auction:
      return "auction";
    case Answer::pay_fixed:
      return "pay_fixed";
    case Answer::pay_percent:
      return "pay_percent";
    case Answer::pay_fine:
      return "pay_fine";
    case Answer::use_card:
      return "use_card";
    case Answer::roll:
      return "roll";
    case Answer::use_throw:
      return "use_throw";
    case Answer::throw_again:
      return "throw_again";
    case Answer::lift:
      return "lift";
    case Answer::keep:
      return "keep";
    case Answer::take_set:
      return "take_set";
  }
  return "?";
}

// The answer a fixed option string names; nullopt for anything else (a draft's group id included).
constexpr std::optional<Answer> parse_answer(std::string_view text) {
  for (auto a :
       {Answer::buy, Answer::auction, Answer::pay_fixed, Answer::pay_percent, Answer::pay_fine,
        Answer::use_card, Answer::roll, Answer::use_throw, Answer::throw_again, Answer::lift, Answer::keep})
    if (answer_name(a) == text) return a;
  return std::nullopt;
}

// True when choosing it posts a payment by the player who answers (the price, a tax, the fine, a mortgage's
// interest): the table asks for that player's card before it is applied.
constexpr bool moves_money(Answer a) {
  switch (a) {
    case Answer::buy:
    case Answer::pay_fixed:
    case Answer::pay_percent:
    case Answer::pay_fine:
    case Answer::lift:
    case Answer::keep:
      return true;
    default:
      return false;
  }
}

// True when the table confirms it with the answering player's card: every payment, and taking a set in the
// draft (a decision worth as much as a purchase, though free).
constexpr bool needs_players_card(Answer a) { return moves_money(a) || a == Answer::take_set; }

// True when the answer is a throw of the dice (the screens open the dice dialog for it).
constexpr bool is_throw(Answer a) { return a == Answer::roll; }

}  // namespace bb::rules
