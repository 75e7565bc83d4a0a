#pragma once
#include <string>

namespace bb::display {

// The bank's screen settings, as the daemon's configuration gives them.
struct UiSettings {
  bool sound = true;
  std::string banker_pin = "1234";  // corrections and undo need this PIN or the banker's card
  std::string banker_card;          // RFID UID of the banker's card, empty when there is none
  int auction_countdown_s = 0;      // an optional "going, going" countdown for editions without a timer
};

}  // namespace bb::display
