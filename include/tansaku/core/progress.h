// Progress lines on stderr for long work, shown only when stderr is a terminal and not --quiet.
// A thread may route them to a sink instead (`tansaku serve`: a job's live progress).
#pragma once
#include <chrono>
#include <string>

#include <fmt/format.h>

namespace tansaku {

// Receives the progress lines of the work started on a thread; called from any thread.
class ProgressSink {
 public:
  virtual ~ProgressSink() = default;
  virtual void line(const std::string& text) = 0;
};

// Progress objects constructed on this thread from now on report to `sink` (nullptr: stderr).
void set_thread_progress_sink(ProgressSink* sink);

class Progress {
 public:
  explicit Progress(bool enabled);
  ~Progress();
  bool enabled() const { return enabled_; }
  // Prints at most ~4 times a second; the line is overwritten in place.
  template <class... Args>
  void update(fmt::format_string<Args...> f, Args&&... args) {
    if (!enabled_ || !due()) return;
    show(fmt::format(f, std::forward<Args>(args)...));
  }
  void done();  // clears the line

 private:
  bool due();
  void show(const std::string& line);
  ProgressSink* sink_;
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

// True when stderr is a terminal.
bool stderr_is_terminal();

}  // namespace tansaku
