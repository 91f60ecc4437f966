// A byte per state: the exact distance of every state of a RankedDomain from a set of
// sources (255: not reached, or farther than 254), by a layered breadth-first search over
// the ranks; pattern databases are made this way. While the frontier is small, layers are
// expanded forward; once more than a quarter of the table is reached and the moves are
// known to be symmetric (every move has its inverse among the moves), each unreached state
// instead looks for a neighbour in the frontier and stops at the first (backward step).
// Parallel with TBB; the result does not depend on the number of threads.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/search/domain.h"
#include "tansaku/search/explore.h"
#include "tansaku/search/limits.h"

namespace tansaku::search {

struct DistanceTable {
  std::vector<std::uint8_t> dist;
  std::vector<std::uint64_t> histogram;
};

template <RankedDomain D>
DistanceTable distance_table(const D& d, std::span<const std::uint64_t> sources, bool symmetric, const Limits& lim = {}) {
  const std::uint64_t n = d.size();
  require_memory(n, lim.memory, "the distance table");
  DistanceTable t;
  t.dist.assign(n, 255);
  std::uint8_t* dist = t.dist.data();
  std::uint64_t count = 0, reached = 0;
  for (auto r : sources)
    if (dist[r] == 255) dist[r] = 0, ++count;
  tbb::task_arena arena(static_cast<int>(std::max(1u, lim.threads)));
  constexpr std::uint64_t kChunk = 1 << 16;
  const std::uint64_t chunks = (n + kChunk - 1) / kChunk;
  for (int depth = 0; count > 0 && depth < 254; ++depth) {
    t.histogram.push_back(count);
    reached += count;
    const bool backward = symmetric && reached > n / 4;
    const auto cur = static_cast<std::uint8_t>(depth), next = static_cast<std::uint8_t>(depth + 1);
    tbb::enumerable_thread_specific<std::uint64_t> found(0);
    std::atomic<bool> late{false};
    arena.execute([&] {
      tbb::parallel_for(std::uint64_t{0}, chunks, [&](std::uint64_t c) {
        if (lim.deadline && lim.deadline->expired()) {
          late = true;
          return;
        }
        std::uint64_t& nf = found.local();
        const std::uint64_t end = std::min(n, (c + 1) * kChunk);
        for (std::uint64_t r = c * kChunk; r < end; ++r) {
          if (backward) {
            if (std::atomic_ref<std::uint8_t>(dist[r]).load(std::memory_order_relaxed) != 255) continue;
            bool hit = false;
            // A neighbour claimed in this same layer holds `next`, never `cur`: no race.
            for_each_neighbor_rank(d, r, [&](std::uint64_t s) {
              if (!hit && std::atomic_ref<std::uint8_t>(dist[s]).load(std::memory_order_relaxed) == cur) hit = true;
            });
            if (hit) std::atomic_ref<std::uint8_t>(dist[r]).store(next, std::memory_order_relaxed), ++nf;
          } else {
            if (std::atomic_ref<std::uint8_t>(dist[r]).load(std::memory_order_relaxed) != cur) continue;
            for_each_neighbor_rank(d, r, [&](std::uint64_t s) {
              std::atomic_ref<std::uint8_t> cell(dist[s]);
              std::uint8_t expect = 255;
              if (cell.load(std::memory_order_relaxed) == 255 &&
                  cell.compare_exchange_strong(expect, next, std::memory_order_relaxed))
                ++nf;
            });
          }
        }
      });
    });
    if (late) throw LimitError("time limit reached (--timeout)");
    count = 0;
    for (auto v : found) count += v;
    if (lim.progress) lim.progress->update("distance table: depth {}, {} of {} states", depth + 1, reached + count, n);
  }
  return t;
}

}  // namespace tansaku::search
