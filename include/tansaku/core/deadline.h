// A wall-clock budget (--timeout) that long searches poll cheaply.
#pragma once
#include <chrono>
#include <cstdint>

#include "tansaku/core/error.h"

namespace tansaku {

class Deadline {
 public:
  Deadline() = default;  // never expires
  explicit Deadline(double seconds)
      : active_(seconds > 0), end_(clock::now() + std::chrono::duration_cast<clock::duration>(
                                                     std::chrono::duration<double>(seconds))) {}
  bool active() const { return active_; }
  bool expired() const { return active_ && clock::now() >= end_; }
  // Cheap enough for inner loops: looks at the clock once every 4096 calls.
  void poll() {
    if (active_ && (++calls_ & 4095) == 0 && clock::now() >= end_) throw LimitError("time limit reached (--timeout)");
  }
  void check() const {
    if (expired()) throw LimitError("time limit reached (--timeout)");
  }

 private:
  using clock = std::chrono::steady_clock;
  bool active_ = false;
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
