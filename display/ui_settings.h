#pragma once
#include <functional>
#include <string>

namespace bb::display {

// The bank's screen settings, as the daemon's configuration gives them.
struct UiSettings {
  bool sound = true;
  std::string banker_pin = "1234";  // corrections and undo need this PIN or the banker's card
  std::string banker_card;          // RFID UID of the banker's card, empty when there is none
  int auction_countdown_s = 0;      // an optional "going, going" countdown for editions without a timer
  // When set, decides whether a typed PIN is the banker's instead of comparing with banker_pin (the service
  // keeps only a salted hash of the PIN and never the PIN itself).
  std::function<bool(const std::string& pin)> banker_pin_ok{};

  // What the PIN dialog hands over when the banker's card was tapped instead of a PIN.
  std::string card_as_pin() const { return "card:" + banker_card; }
  // Whether a PIN dialog's answer authorises the banker: the banker's card, or the PIN.
  bool is_banker_pin(const std::string& pin) const {
    if (!banker_card.empty() && pin == card_as_pin()) return true;
    return banker_pin_ok ? banker_pin_ok(pin) : pin == banker_pin;
  }
};

}  // namespace bb::display
