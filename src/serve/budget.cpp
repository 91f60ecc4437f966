// Reply caps and memory release for `tansaku serve` (see budget.h).
#include "serve/budget.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <utility>

#include <fmt/format.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace tansaku::serve {

namespace {
// Calls of release_memory() still to trim: a few after each job, since its reply is freed
// only once it has been sent.
std::atomic<int> g_pending{0};
constexpr int kTrims = 5;

std::atomic<bool> g_keep{true};
std::mutex g_kept_mutex;
std::shared_ptr<void> g_kept;  // the newest solve's hold
}  // namespace

void set_keep_tables(bool on) {
  g_keep.store(on, std::memory_order_relaxed);
  if (!on) keep_tables(nullptr);
}

bool keeping_tables() { return g_keep.load(std::memory_order_relaxed); }

void keep_tables(std::shared_ptr<void> hold) {
  if (hold && !keeping_tables()) return;
  std::shared_ptr<void> gone;  // released outside the lock (it may free gigabytes)
  const std::lock_guard<std::mutex> g(g_kept_mutex);
  gone = std::exchange(g_kept, std::move(hold));
}

std::uint64_t request_share(std::uint64_t total, unsigned workers, bool keep) {
  const std::uint64_t w = std::max(1u, workers);
  return std::max<std::uint64_t>(1, keep ? total / (8 * w + 7) * 8 : total / w);
}

std::uint64_t reply_cap(std::uint64_t memory) {
  return std::clamp<std::uint64_t>(memory / 16, std::uint64_t{1} << 20, std::uint64_t{64} << 20);
}

std::string reply_too_large(std::uint64_t bytes, std::uint64_t cap) {
  return fmt::format("the reply would exceed {} MiB (at least {} MiB so far): the most one request may build under "
                     "serve --memory (a sixteenth of a worker's share, at most 64 MiB); ask for less",
                     cap >> 20, (bytes + (1 << 20) - 1) >> 20);
}

void job_finished() { g_pending.store(kTrims, std::memory_order_release); }

void release_memory() {
  int n = g_pending.load(std::memory_order_acquire);
  while (n > 0 && !g_pending.compare_exchange_weak(n, n - 1, std::memory_order_acq_rel)) {
  }
  if (n <= 0) return;
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

void map_large_allocations() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 256 << 10);
#endif
}

}  // namespace tansaku::serve
