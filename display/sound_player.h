#pragma once
#include <memory>
#include <string>

#include "display/intent.h"

namespace bb::display {

// Short tones on a tap and on a payment, synthesised at start (no sound files), through SDL2_mixer. Without
// an audio device the bank stays silent and says so; it never fails for want of sound.
class SoundPlayer {
 public:
  // The audio device is opened only once sounds are on, so a bank with sounds off never touches it.
  explicit SoundPlayer(bool enabled);
  ~SoundPlayer();
  SoundPlayer(const SoundPlayer&) = delete;
  SoundPlayer& operator=(const SoundPlayer&) = delete;

  void set_enabled(bool on);
  bool enabled() const { return enabled_; }
  bool available() const;
  const std::string& problem() const { return problem_; }
  // Plays the cue (when on and available); returns whether a sound was started.
  bool play(Cue cue);
  int played() const { return played_; }

 private:
  void open_device();
  struct Impl;
  std::unique_ptr<Impl> impl_;
  bool enabled_;
  std::string problem_;
  int played_ = 0;
  bool tried_ = false;
};

}  // namespace bb::display
