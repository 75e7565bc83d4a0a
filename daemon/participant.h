#pragma once
#include <chrono>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>

#include "display/intent.h"
#include "display/screen_notice.h"
#include "display/snapshot.h"

namespace bb::table {
class Table;
}

namespace bb::daemon {

// What a participant may do when the loop calls it: read the table, act on the screen as a finger would,
// and end the run. Everything else (dice, cards, tokens) a participant does physically, through the
// simulated devices and the frame source it gave the service (see ServiceSetup in daemon/service.h).
// Thread: the loop thread only, and only during Participant::on_wake().
class ParticipantContext {
 public:
  virtual ~ParticipantContext() = default;
  // The session at the table, read-only: what it waits for (its view()), the game, the registered cards.
  virtual const table::Table& table() const = 0;
  // A touch on the screen, delivered to the table as if a finger had made it (it gets a "touch:<n>" id) on
  // the loop's next turn, after this wake.
  virtual void touch(const display::Intent& intent) = 0;
  // A finger on the screen: presses the centre of the target `target` (display::Target::id, e.g.
  // "question.move_token") of the frame as it stands now, laid out from the newest snapshot, through the
  // touchscreen's own input path (an SDL touch, hit-tested by the screen, its dialogs and all); the intents
  // it makes reach the table as touches on the loop's next turn, as a finger's reach it at the frame tick
  // (the screen's own state, a dialog, a page, a ticked box, shows at once). The error says why nothing was
  // pressed (no such target shown).
  virtual std::expected<void, std::string> press(const std::string& target) = 0;
  // What the button `target` says on the screen as it stands now (laid out from the newest snapshot), as a
  // family reads it before pressing ("Ann gives"); nullopt when no such target is shown or there is no
  // screen.
  virtual std::optional<std::string> shown_label(const std::string& /*target*/) { return std::nullopt; }
  // The screen as it stands now (laid out from the newest snapshot), saved as a PNG at `path`.
  virtual std::expected<void, std::string> save_screen(const std::string& path) = 0;
  // Ends run() with `exit_code` after this call returns (e.g. the demo's game is over).
  virtual void stop(int exit_code) = 0;
  // Time since the service started, on the loop's clock.
  virtual std::chrono::milliseconds uptime() const = 0;
  // What the screen shows now (the service's display snapshot); nullptr where there is no screen.
  virtual const display::Snapshot* screen_snapshot() const { return nullptr; }
  // How many frames the screen has drawn (presented) since the service started; 0 where there is none.
  virtual int frames_presented() const { return 0; }
  // Whether the screen is behind the table: a picture waits for the ledger's sync (see ledger_syncer.h).
  virtual bool screen_waits_for_ledger() const { return false; }
  // The notice laid over the screen's last picture (the ledger cannot store the game), nullptr: none.
  virtual const display::ScreenNotice* screen_notice() const { return nullptr; }
  // Whether the button `target` can be pressed as the screen stands now (a greyed button answers "Not now");
  // nullopt when no such target is shown or there is no screen.
  virtual std::optional<bool> shown_enabled(const std::string& /*target*/) { return std::nullopt; }
  // How many card taps and dice throws the devices' decoders have handed to the table since the service
  // started: a participant that tapped a card or threw the dice waits for this to grow before it acts again,
  // since a reader's frame (a Wiegand frame is some 80 ms) or the dice unit's settle reaches the table only
  // after the physical act.
  virtual std::uint64_t readings_heard() const { return 0; }
  // What the table refused (a card nobody asked for, a throw while a question is open, ...): how many since
  // the service started, and the last one's message.
  struct Refusals {
    std::uint64_t count = 0;
    std::string last;
  };
  virtual Refusals refusals() const { return {}; }
};

// An extra participant at the table that the service does not know by type (the demo's bots, a test's
// scripted player). The loop wakes it when its fd is readable or every `period`, on the loop thread.
// Owns: whatever it needs; it outlives nothing it is given. Must never: block (it runs on the loop: a
// frame's worth of work at most per wake), keep the context or table reference past on_wake(), or touch
// the ledger or SDL.
class Participant {
 public:
  struct Wake {
    int fd = -1;                          // readable -> on_wake(); -1: none
    std::chrono::milliseconds period{0};  // > 0: on_wake() every period
    // A participant acts on what the screen shows, so its periodic wakes wait while the screen waits for the
    // ledger (a new picture is shown once its inputs are durable). An observer (a bench probe, a test
    // watching the screen) is woken regardless; it must only read.
    bool observer = false;
  };
  virtual ~Participant() = default;
  virtual std::string name() const = 0;
  // Asked once when the service starts; at least one of fd and period must be set.
  virtual Wake wake() const = 0;
  virtual void on_wake(ParticipantContext& context) = 0;
};

}  // namespace bb::daemon
