// The claims of a dense layer of the distributed explore (explore_distributed.h) as bits, not
// ranks: when a layer's frontier is a large part of the states, a bit per state of every
// other rank's block (n/8 bytes in all) is far smaller than 8 bytes a claim. The rank then
// expands its whole frontier before a single exchange (no rounds, so no rank waits at the
// end of each round for the one whose buffer filled last), and the owner claims what it
// receives word by word in ascending order (no random access). Memory: n/8 bytes to send
// and n/8 to receive on each rank.
#pragma once
#include <algorithm>
#include <atomic>
#include <bit>
#include <climits>
#include <cstdint>
#include <vector>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "tansaku/core/cluster.h"
#include "tansaku/core/two_bit_table.h"

namespace tansaku::search {

class ClaimBitmaps {
 public:
  // A layer is dense when its frontier is at least 1/kDense of the states.
  static constexpr std::uint64_t kDense = 64;

  // Rank j owns the `block_states` states (a multiple of 64) from j * block_states, of `parts`
  // ranks: the bits to send are one bitmap of all the states, rank j's from word j * block_states / 64.
  ClaimBitmaps(std::uint64_t block_states, int parts)
      : stride_(words_for(block_states)), send_(stride_ * static_cast<std::uint64_t>(parts), 0), recv_(send_.size(), 0) {}

  static std::uint64_t words_for(std::uint64_t block_states) { return (block_states + 63) / 64; }
  static std::uint64_t bytes(std::uint64_t block_states, int parts) {
    return 2 * words_for(block_states) * static_cast<std::uint64_t>(parts) * 8;
  }
  // The exchange's buffers stay within what one all-to-all can address (2^31 values).
  static bool addressable(std::uint64_t block_states, int parts) {
    return words_for(block_states) * static_cast<std::uint64_t>(parts) <= static_cast<std::uint64_t>(INT_MAX);
  }
  static bool worth(std::uint64_t frontier, std::uint64_t states) { return frontier * kDense >= states; }

  void prefetch(std::uint64_t t) const { __builtin_prefetch(&send_[t >> 6], 1, 3); }
  // Marks state t (another rank's). Alone: the only thread marking (no locked instruction).
  template <bool Alone>
  void mark(std::uint64_t t) {
    const std::uint64_t m = std::uint64_t{1} << (t & 63);
    if constexpr (Alone)
      send_[t >> 6] |= m;
    else
      std::atomic_ref<std::uint64_t>(send_[t >> 6]).fetch_or(m, std::memory_order_relaxed);
  }
  // The bits marked so far (tests).
  bool marked(std::uint64_t t) const { return (send_[t >> 6] >> (t & 63)) & 1; }

  // Every rank sends each other rank the bits of its block; this rank's unseen states that
  // any rank marked become `next` in `table` (its block). Clears the bits; returns how many
  // states were claimed. `arena`: the rank's threads (nullptr: the calling thread alone).
  std::uint64_t exchange(Cluster& cl, TwoBitTable& table, unsigned next, tbb::task_arena* arena) {
    const auto k = static_cast<std::size_t>(cl.size()), me = static_cast<std::size_t>(cl.rank());
    counts_.assign(k, stride_);
    counts_[me] = 0;
    got_.assign(k, 0);
    cl.exchange(send_, counts_, stride_, recv_, got_);
    const std::uint64_t words = table.words();
    const std::uint64_t* const in = recv_.data();
    const std::uint64_t stride = stride_;
    auto claim = [&, in, stride, words, k, me, next](std::uint64_t i0, std::uint64_t i1) {
      std::uint64_t found = 0;
      for (std::uint64_t i = i0; i < i1; ++i) {
        std::uint64_t b = 0;
        for (std::size_t j = 0; j < k; ++j)
          if (j != me) b |= in[j * stride + i];
        for (std::uint64_t w = 2 * i; b && w < words; ++w, b >>= 32) {
          const std::uint64_t x = table.word(w);
          const std::uint64_t hits = spread(b & 0xffffffffull) & ~(x | (x >> 1)) & 0x5555555555555555ull;
          if (hits) table.set_cells_owned(w, hits, next), found += static_cast<std::uint64_t>(std::popcount(hits));
        }
      }
      return found;
    };
    std::uint64_t found = 0;
    if (!arena) {
      found = claim(0, stride);
    } else {
      std::atomic<std::uint64_t> sum{0};
      constexpr std::uint64_t kStep = 4096;  // bitmap words a task (two table words each)
      arena->execute([&] {
        tbb::parallel_for(std::uint64_t{0}, (stride + kStep - 1) / kStep, [&](std::uint64_t c) {
          sum.fetch_add(claim(c * kStep, std::min(stride, (c + 1) * kStep)), std::memory_order_relaxed);
        });
      });
      found = sum.load();
    }
    std::fill(send_.begin(), send_.end(), 0);
    return found;
  }

  // 32 bits to the even bits of a word (bit c -> bit 2c: a table word's cell c).
  static std::uint64_t spread(std::uint64_t x) {
    x = (x | x << 16) & 0x0000ffff0000ffffull;
    x = (x | x << 8) & 0x00ff00ff00ff00ffull;
    x = (x | x << 4) & 0x0f0f0f0f0f0f0f0full;
    x = (x | x << 2) & 0x3333333333333333ull;
    return (x | x << 1) & 0x5555555555555555ull;
  }

 private:
  std::uint64_t stride_;
  std::vector<std::uint64_t> send_, recv_, counts_, got_;
};

}  // namespace tansaku::search
