// Progress lines on stderr for long work, shown only when stderr is a terminal and not --quiet.
#pragma once
#include <chrono>
#include <string>

#include <fmt/format.h>

namespace tansaku {

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
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

// True when stderr is a terminal.
bool stderr_is_terminal();

}  // namespace tansaku
