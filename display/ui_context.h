#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "display/intent.h"
#include "display/snapshot.h"
#include "display/ui_settings.h"
#include "display/view.h"

namespace bb::display {

enum class ScreenId { home, auction, properties, trade, ledger, charts, board, setup, devices, calibration };

// A request to confirm something that moves money, with who may confirm it by card.
struct Confirmation {
  std::string question;       // "Buy Baltic Avenue for $60?"
  std::string confirm_label;  // "Buy"
  // Whose card confirms; nobody when anyone at the table may confirm on the screen.
  std::optional<rules::PlayerId> payer;
  ApplyInput action;
  std::function<void()> after;  // what the screen does once confirmed (e.g. go home)
  // Lines under the question: what happens, item by item (a sale's lots).
  std::vector<std::string> details = {};
};

// What screens and dialogs may ask of the display: navigation, dialogs, intents. Nothing here changes the
// game.
class UiContext {
 public:
  virtual ~UiContext() = default;
  virtual const Snapshot& snapshot() const = 0;
  virtual const UiSettings& settings() const = 0;
  virtual UiSettings& mutable_settings() = 0;
  virtual std::uint64_t now_ms() const = 0;

  virtual void go(ScreenId screen) = 0;
  virtual void open_dialog(std::unique_ptr<View> dialog) = 0;
  virtual void close_dialog() = 0;
  virtual void confirm(Confirmation request) = 0;
  virtual void emit(Intent intent) = 0;
  virtual void cue(Cue cue) = 0;
  // A short message in the status line (a refusal, a wrong card).
  virtual void say(const std::string& message) = 0;
  virtual const std::string& message() const = 0;
  // Keeps redrawing once a second while something counts down.
  virtual void set_ticking(bool ticking) = 0;
  // Whether payments are confirmed with a card tap (the card reader works) or on the screen.
  virtual bool cards_confirm() const = 0;
  // The player a screen should show first (the properties of a player whose card was tapped on home).
  // Nobody: no player asked for (the screen keeps its own).
  virtual void focus_player(std::optional<rules::PlayerId> player) = 0;
  virtual std::optional<rules::PlayerId> focused_player() const = 0;
};

}  // namespace bb::display
