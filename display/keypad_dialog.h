#pragma once
#include <functional>
#include <string>

#include "display/view.h"
#include "rules/edition.h"

namespace bb::display {

// Digits for an amount (in the edition's units: "$", or M and K where the edition prints them) or a PIN.
class KeypadDialog : public View {
 public:
  enum class Mode { amount, pin };
  struct Request {
    Mode mode = Mode::amount;
    std::string title;
    std::function<void(rules::Money)> on_amount;
    // Returns an empty string when the PIN is accepted, else what to say.
    std::function<std::string(const std::string&)> on_pin;
  };
  explicit KeypadDialog(Request request) : request_(std::move(request)) {}
  void build(FrameBuilder& fb, UiContext& ui) override;
  bool on_card(const std::string& uid, std::optional<rules::PlayerId> player, UiContext& ui) override;

  // The amount typed so far in the edition's money, or why it is not one.
  static std::expected<rules::Money, std::string> parse(const std::string& typed,
                                                        const rules::Currency& currency);

 private:
  void press(const std::string& key);
  void ok(UiContext& ui);
  Request request_;
  std::string typed_;
  std::string error_;
};

}  // namespace bb::display
