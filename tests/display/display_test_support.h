#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "display/font_set.h"
#include "display/frame.h"
#include "display/layout.h"
#include "display/sample_table.h"
#include "display/touch_screen.h"

namespace bb::display::testing {

// Debian's DejaVu fonts, opened once for the whole test run (throws when they are missing).
FontSet& fonts();

// The sample tables, built once per test process: samples() gives every table as the gallery shows it;
// sample(name) one table, without the long game's played-out chances (a test of its Chances tab gives its
// own).
std::vector<SampleTable>& samples();
SampleTable& sample(const std::string& name);

// A new classic table with these players at the start of a game (seed 5, the tests' usual one); throws when
// the edition does not load.
SampleTable started_table(const std::string& name, const std::vector<std::string>& players);

// What a frame gets wrong structurally: text outside its box, targets too small or overlapping, labels
// drawn over each other, anything outside the window.
std::vector<std::string> structural_problems(const Frame& frame, const Layout& layout);

// Queues a finger down and up at a point of the panel (0..1 each way), as the kernel's touchscreen driver
// delivers a tap; the next pump of the touchscreen handles it.
void push_finger_tap(UnitPoint at);

// A table with a real game and the real screen, driven by injected SDL touch events the way the daemon
// would run it: intents are applied to the game and the new snapshot is shown.
class Harness {
 public:
  // width x height is the panel's; a turned panel lays the screens out turned back upright.
  explicit Harness(SampleTable table, int width = 800, int height = 480, UiSettings settings = {},
                   Rotation rotation = Rotation::upright);
  // Taps the centre of the target with this id, where the panel shows it; fails the test when it is not on
  // the screen.
  void tap(const std::string& id);
  bool can_see(const std::string& id);
  // The card of the player in seat `seat` (test shorthand), tapped on the reader.
  void card(int seat);
  void card_uid(const std::string& uid);
  const Frame& frame();
  SampleTable& table() { return table_; }
  TouchScreen& screen() { return *screen_; }
  // Every intent the screen produced, and the rules' answers to the inputs among them.
  std::vector<Intent> intents;
  std::vector<std::string> refusals;
  int applied = 0;
  // The table's question shown with every snapshot (the table decides it; here the test does).
  void ask(std::optional<TableQuestion> question);

 private:
  void handle(std::vector<Intent> in);
  Snapshot snapshot() const;
  std::optional<TableQuestion> question_;
  std::uint64_t asked_ = 0;  // bumps the snapshot's version when the question changes
  SampleTable table_;
  std::unique_ptr<TouchScreen> screen_;
};

}  // namespace bb::display::testing
