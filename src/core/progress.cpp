// The progress line: throttled, overwritten in place on a terminal's stderr, or sent to the
// thread's sink when one is set.
#include "tansaku/core/progress.h"

#include <unistd.h>

#include <cstdio>

namespace tansaku {

bool stderr_is_terminal() { return isatty(STDERR_FILENO) != 0; }

namespace {
thread_local ProgressSink* thread_sink = nullptr;
}

void set_thread_progress_sink(ProgressSink* sink) { thread_sink = sink; }

Progress::Progress(bool enabled) : sink_(thread_sink), enabled_(enabled && (sink_ || stderr_is_terminal())) {}
Progress::~Progress() { done(); }

bool Progress::due() {
  auto now = std::chrono::steady_clock::now();
  if (shown_ && now - last_ < std::chrono::milliseconds(250)) return false;
  last_ = now;
  return true;
}

void Progress::show(const std::string& line) {
  if (sink_) {
    sink_->line(line);
    return;
  }
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
  shown_ = true;
}

void Progress::done() {
  if (shown_ && !sink_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    shown_ = false;
  }
}

}  // namespace tansaku
