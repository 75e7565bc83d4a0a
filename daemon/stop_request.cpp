#include "daemon/stop_request.h"

#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cstring>

namespace bb::daemon {

static_assert(sizeof(sigset_t) <= 128, "StopRequest::previous_mask_ must hold a sigset_t");

StopRequest::StopRequest() {
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  sigset_t previous;
  pthread_sigmask(SIG_BLOCK, &stop_signals, &previous);
  std::memcpy(previous_mask_, &previous, sizeof(previous));
  // Without the fd (out of descriptors) the signals still stop the verb: they are unblocked again below.
  fd_ = signalfd(-1, &stop_signals, SFD_NONBLOCK | SFD_CLOEXEC);
  if (fd_ < 0) pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

StopRequest::~StopRequest() {
  if (fd_ < 0) return;
  // Drain what arrived, so that unblocking does not deliver it with its default action (ending the process).
  signalfd_siginfo info;
  while (::read(fd_, &info, sizeof(info)) == static_cast<ssize_t>(sizeof(info))) {
  }
  ::close(fd_);
  sigset_t previous;
  std::memcpy(&previous, previous_mask_, sizeof(previous));
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

bool StopRequest::requested() {
  if (requested_ || fd_ < 0) return requested_;
  signalfd_siginfo info;
  if (::read(fd_, &info, sizeof(info)) == static_cast<ssize_t>(sizeof(info))) requested_ = true;
  return requested_;
}

}  // namespace bb::daemon
