// Reply caps and memory release for `tansaku serve` (see budget.h).
#include "serve/budget.h"

#include <algorithm>
#include <atomic>

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
