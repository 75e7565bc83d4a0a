#pragma once
// The demo family's pace, shared by the demo bots' files (demo_bots*.cpp) and no one else: how long a family
// thinks before each kind of act at speed 1, and how long a press looks for a button not shown yet.

#include <chrono>

namespace bb::daemon::demo_pace {

using std::chrono::milliseconds;

// Thinking times of a family at speed 1.
constexpr milliseconds kReach{700};        // picking up the dice, finding the card
constexpr milliseconds kBetweenTaps{900};  // noticing the refusal, finding the right card
constexpr milliseconds kRead{1200};        // reading a question on the screen
constexpr milliseconds kKey{300};          // the next key of a keypad or keyboard
// A button not shown yet (a dialog a card tap opens appears once the reader's frame is decoded and the table
// answered) is looked for again every kPressRetry, for kPressPatience of real time, before it is a miss.
constexpr milliseconds kPressRetry{20};
constexpr milliseconds kPressPatience{3000};

}  // namespace bb::daemon::demo_pace
