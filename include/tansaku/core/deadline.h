// A wall-clock budget (--timeout) that long searches poll cheaply. It may also watch a cancel
// flag that another thread sets (`tansaku serve`'s cancel): it then expires at once.
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>

#include "tansaku/core/error.h"

namespace tansaku {

class Deadline {
 public:
  Deadline() = default;  // never expires
  explicit Deadline(double seconds)
      : timed_(seconds > 0), end_(clock::now() + std::chrono::duration_cast<clock::duration>(
                                                    std::chrono::duration<double>(seconds))) {}
  // Also expire as soon as *flag is true (the flag outlives every copy of this deadline).
  void cancel_on(const std::atomic<bool>* flag) { cancel_ = flag; }
  bool active() const { return timed_ || cancel_; }
  bool cancelled() const { return cancel_ && cancel_->load(std::memory_order_relaxed); }
  bool expired() const { return cancelled() || (timed_ && clock::now() >= end_); }
  // Cheap enough for inner loops: looks at the clock once every 4096 calls.
  void poll() {
    if (active() && (++calls_ & 4095) == 0 && expired()) throw LimitError(message());
  }
  void check() const {
    if (expired()) throw LimitError(message());
  }
  const char* message() const { return cancelled() ? "cancelled" : "time limit reached (--timeout)"; }
  // The same deadline `seconds` sooner (a share of the time kept for later work); one that
  // never expires is returned as it is.
  Deadline sooner(double seconds) const {
    Deadline d = *this;
    if (timed_) d.end_ -= std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(seconds));
    d.calls_ = 0;
    return d;
  }
  // At most `seconds` from now and no later than this deadline, watching the same cancel flag.
  Deadline within(double seconds) const {
    Deadline d = *this;
    const auto end = clock::now() + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(seconds));
    d.end_ = timed_ ? std::min(end_, end) : end;
    d.timed_ = true;
    d.calls_ = 0;
    return d;
  }

 private:
  using clock = std::chrono::steady_clock;
  bool timed_ = false;
  const std::atomic<bool>* cancel_ = nullptr;
  clock::time_point end_{};
  std::uint64_t calls_ = 0;
};

class Stopwatch {
 public:
  Stopwatch() : t0_(std::chrono::steady_clock::now()) {}
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }

 private:
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace tansaku
