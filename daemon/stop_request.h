#pragma once

namespace bb::daemon {

// Ctrl-C (SIGINT) and SIGTERM for a command-line verb's run, held in a signalfd instead of a global flag set
// from a handler. While it lives, those two signals are blocked in the creating thread and in every thread it
// starts afterwards (create it before starting any), so they wait in the fd until requested() reads them; its
// end restores the previous signal mask and drops any signal still pending, so nothing leaks into the next
// verb. Owns the fd. Only the thread that created it may call it. (The service has its own: EventLoop's.)
class StopRequest {
 public:
  StopRequest();
  ~StopRequest();
  StopRequest(const StopRequest&) = delete;
  StopRequest& operator=(const StopRequest&) = delete;

  // True once SIGINT or SIGTERM has arrived (and from then on). Never blocks.
  bool requested();

 private:
  int fd_ = -1;
  bool requested_ = false;
  unsigned char previous_mask_[128] = {};  // the sigset_t it replaced (kept opaque: no C header here)
};

}  // namespace bb::daemon
