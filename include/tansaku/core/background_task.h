// Work that runs beside the caller and must end before what it works on goes (a table's
// cells being copied into huge pages while a search already reads them): a thread running
// f(stop), asked to stop (stop becomes true) and joined when the task object goes. f checks
// stop between the steps of its work.
#pragma once
#include <atomic>
#include <functional>
#include <thread>

namespace tansaku {

class BackgroundTask {
 public:
  explicit BackgroundTask(std::function<void(const std::atomic<bool>&)> f)
      : thread_([this, f = std::move(f)] { f(stop_); }) {}
  ~BackgroundTask() {
    stop_.store(true, std::memory_order_relaxed);
    thread_.join();
  }
  BackgroundTask(const BackgroundTask&) = delete;
  BackgroundTask& operator=(const BackgroundTask&) = delete;

 private:
  std::atomic<bool> stop_{false};
  std::thread thread_;  // last: started once stop_ exists
};

}  // namespace tansaku
