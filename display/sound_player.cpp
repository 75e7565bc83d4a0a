#include "display/sound_player.h"

#include <SDL.h>
#include <SDL_mixer.h>
#include <fmt/format.h>

#include <cmath>
#include <numbers>
#include <vector>

namespace bb::display {
namespace {
constexpr int kRate = 22050;

// A tone with a quick attack and an exponential decay, so it clicks like a key rather than beeps.
void tone(std::vector<Sint16>& out, double hz, double seconds, double volume, int rate, int channels) {
  const int n = static_cast<int>(seconds * rate);
  for (int i = 0; i < n; ++i) {
    const double t = static_cast<double>(i) / rate;
    const double envelope = std::min(1.0, t * 400.0) * std::exp(-t * 6.0 / seconds);
    const auto v = static_cast<Sint16>(volume * 32767.0 * envelope * std::sin(2 * std::numbers::pi * hz * t));
    for (int c = 0; c < channels; ++c) out.push_back(v);
  }
}
}  // namespace

struct SoundPlayer::Impl {
  bool open = false;
  bool subsystem = false;
  std::vector<Sint16> tap, payment, refused;
  Mix_Chunk* chunks[3] = {nullptr, nullptr, nullptr};
  ~Impl() {
    for (auto* c : chunks)
      if (c) Mix_FreeChunk(c);
    if (open) Mix_CloseAudio();
    if (subsystem) SDL_QuitSubSystem(SDL_INIT_AUDIO);
  }
};

SoundPlayer::SoundPlayer(bool enabled) : impl_(std::make_unique<Impl>()), enabled_(enabled) {
  if (enabled_) open_device();
}

void SoundPlayer::set_enabled(bool on) {
  enabled_ = on;
  if (enabled_) open_device();
}

void SoundPlayer::open_device() {
  if (tried_) return;
  tried_ = true;
  if (SDL_InitSubSystem(SDL_INIT_AUDIO) != 0) {
    problem_ = fmt::format("no audio: {}", SDL_GetError());
    return;
  }
  impl_->subsystem = true;
  if (Mix_OpenAudio(kRate, AUDIO_S16SYS, 1, 512) != 0) {
    problem_ = fmt::format("no audio device: {} (sounds are off)", Mix_GetError());
    return;
  }
  impl_->open = true;
  // The device may have chosen another rate or channel count; the tones are made for what it chose.
  int rate = kRate, channels = 1;
  Uint16 format = 0;
  Mix_QuerySpec(&rate, &format, &channels);
  if (format != AUDIO_S16SYS) {
    problem_ = "the audio device wants another sample format (sounds are off)";
    return;
  }
  tone(impl_->tap, 1400, 0.035, 0.25, rate, channels);
  tone(impl_->payment, 988, 0.08, 0.3, rate, channels);
  tone(impl_->payment, 1319, 0.16, 0.3, rate, channels);
  tone(impl_->refused, 196, 0.18, 0.3, rate, channels);
  std::vector<Sint16>* buffers[3] = {&impl_->tap, &impl_->payment, &impl_->refused};
  for (int i = 0; i < 3; ++i)
    impl_->chunks[i] = Mix_QuickLoad_RAW(reinterpret_cast<Uint8*>(buffers[i]->data()),
                                         static_cast<Uint32>(buffers[i]->size() * sizeof(Sint16)));
}

SoundPlayer::~SoundPlayer() = default;

bool SoundPlayer::available() const { return impl_->open && impl_->chunks[0] != nullptr; }

bool SoundPlayer::play(Cue cue) {
  if (!enabled_ || !available()) return false;
  Mix_Chunk* c = impl_->chunks[static_cast<int>(cue)];
  if (!c || Mix_PlayChannel(-1, c, 0) < 0) return false;
  ++played_;
  return true;
}

}  // namespace bb::display
