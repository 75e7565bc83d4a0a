#pragma once
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "peripherals/dice_unit_model.h"
#include "peripherals/edge_source.h"

namespace bb::peripherals {

// The simulated backend the demo and the tests drive, scripted (inject, command) or typed at a terminal
// (give it the terminal's fd). Commands make the edges the real device would, stamped with
// CLOCK_MONOTONIC, so the same decoders run as on a Pi:
//   wiegand: card 1A2B3C (26 bits) | card 1A2B3C4D (34 bits)
//   dice:    roll 3 4 | rolling | unplug          (a heartbeat 0/0 goes out every second by itself)
//   button:  press
class SimulatedEdgeSource final : public EdgeSource {
 public:
  // device: wiegand, dice or button; input_fd: a terminal or pipe to read commands from, or -1.
  static std::expected<std::unique_ptr<SimulatedEdgeSource>, std::string> create(std::string device,
                                                                                 int input_fd = -1);
  ~SimulatedEdgeSource() override;
  SimulatedEdgeSource(const SimulatedEdgeSource&) = delete;
  SimulatedEdgeSource& operator=(const SimulatedEdgeSource&) = delete;

  int fd() const override { return epoll_fd_; }
  std::expected<std::vector<Edge>, std::string> read_edges() override;
  std::vector<std::optional<bool>> initial_levels() const override;
  bool live() const override { return true; }

  // Edges as they are (line = role index), delivered once their timestamps have passed.
  void inject(const std::vector<Edge>& edges);
  // One command as above, starting now; the error says what commands there are.
  std::expected<void, std::string> command(std::string_view text);
  // True once the terminal or pipe reached end of file.
  bool input_closed() const { return input_closed_; }

 private:
  explicit SimulatedEdgeSource(std::string device) : device_(std::move(device)) {}
  std::expected<std::vector<Edge>, std::string> command_edges(std::string_view text, Nanoseconds at);
  // Like hardware, edges are handed over only once their time has passed; this arms the wake-up for the next.
  void arm_release();

  std::string device_;
  int epoll_fd_ = -1;
  int wake_fd_ = -1;       // eventfd: injected edges are waiting
  int heartbeat_fd_ = -1;  // timerfd: the dice unit's 1 s heartbeat
  int release_fd_ = -1;    // timerfd: the next queued edge's time has come
  int input_fd_ = -1;
  bool input_closed_ = false;
  std::string partial_line_;
  std::deque<Edge> queue_;
  DiceUnitModel dice_;
  Nanoseconds next_free_ = 0;  // commands never overlap: each starts after the previous one ended
};

}  // namespace bb::peripherals
