// Layered breadth-first enumeration of a state space that has no perfect hash (explore.h needs
// a RankedDomain): every state seen is kept in a hash set of the states themselves, split into
// shards by hash. A large layer is expanded in parallel (TBB) into per-thread buckets by
// shard; then each shard inserts its candidates alone, so there are no locks and one shard's
// table is small enough to stay in cache. Reports what explore.h reports, with the farthest
// states themselves (the smallest by operator<, so identical for any number of threads).
// Needs a Domain whose State is trivially copyable, totally ordered and hashable.
#pragma once
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "tansaku/core/bits.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/search/domain.h"
#include "tansaku/search/limits.h"
#include "tansaku/search/stats.h"

namespace tansaku::search {

template <class State>
struct StatesExploreResult {
  std::vector<std::uint64_t> histogram;  // states at each distance
  std::uint64_t states = 0;              // total reachable
  int depth = 0;                         // largest distance
  std::vector<State> farthest;           // up to `keep_farthest` states at `depth`, ascending
  std::uint64_t farthest_count = 0;
  std::uint64_t table_bytes = 0;         // peak bytes of the hash set, the layers and the buckets
  Stats stats;
};

namespace detail {

// One shard: open addressing with linear probing; a tag byte per slot (0 = empty, else
// 0x80 | 7 bits of the hash) keeps most probes off the keys. One writer at a time.
template <class State>
class StateShard {
 public:
  StateShard() { reset(16); }
  std::size_t size() const { return count_; }
  std::uint64_t bytes() const { return tags_.size() * (sizeof(State) + 1); }
  std::uint64_t bytes_after_growth() const { return bytes() * 2; }
  bool needs_growth() const { return (count_ + 1) * 10 > tags_.size() * 7; }
  // True if s was not in the set (and now is). h: the state's mixed hash.
  bool insert(const State& s, std::uint64_t h) {
    const std::uint8_t tag = static_cast<std::uint8_t>(0x80 | ((h >> 32) & 0x7f));
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      const std::uint8_t t = tags_[i];
      if (t == 0) {
        tags_[i] = tag;
        keys_[i] = s;
        ++count_;
        return true;
      }
      if (t == tag && keys_[i] == s) return false;
    }
  }
  void prefetch(std::uint64_t h) const {
    __builtin_prefetch(&tags_[h & mask_]);
    __builtin_prefetch(&keys_[h & mask_]);
  }
  template <class Rehash>
  void grow(Rehash&& mixed_hash) {
    std::vector<State> keys;
    std::vector<std::uint8_t> tags;
    keys.swap(keys_);
    tags.swap(tags_);
    reset(tags.size() * 2);
    for (std::size_t i = 0; i < tags.size(); ++i)
      if (tags[i]) insert(keys[i], mixed_hash(keys[i]));
  }
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t i = 0; i < tags_.size(); ++i)
      if (tags_[i]) f(keys_[i]);
  }

 private:
  void reset(std::size_t capacity) {
    keys_.assign(capacity, State{});
    tags_.assign(capacity, 0);
    mask_ = capacity - 1;
    count_ = 0;
  }
  std::vector<State> keys_;
  std::vector<std::uint8_t> tags_;
  std::size_t mask_ = 0, count_ = 0;
};

}  // namespace detail

template <Domain D>
  requires std::is_trivially_copyable_v<typename D::State> && std::totally_ordered<typename D::State>
StatesExploreResult<typename D::State> explore_states(const D& d, std::span<const typename D::State> sources,
                                                      std::size_t keep_farthest, const Limits& lim = {}) {
  using State = typename D::State;
  using Move = typename D::Move;
  using Shard = detail::StateShard<State>;
  StatesExploreResult<State> res;
  const StateHash<D> hasher{&d};
  auto mixed = [&](const State& s) { return bits::mix64(static_cast<std::uint64_t>(hasher(s))); };

  // Shards by the top bits of the hash; their number grows with the set (re-sharded between
  // layers) so that small spaces stay on one table and large ones have cache-sized shards.
  int shard_bits = 0;
  std::vector<Shard> shards(1);
  std::atomic<std::uint64_t> set_bytes{shards[0].bytes()};
  auto shard_of = [&](std::uint64_t h) -> std::size_t { return shard_bits ? h >> (64 - shard_bits) : 0; };
  std::uint64_t peak = 0;
  auto account = [&](std::uint64_t extra) {
    const std::uint64_t total = set_bytes.load() + extra;
    peak = std::max(peak, total);
    if (total > lim.memory) throw LimitError("explore: the memory budget is exhausted (--memory)");
  };
  auto insert = [&](Shard& sh, const State& s, std::uint64_t h) {
    if (sh.needs_growth()) {
      const std::uint64_t before = sh.bytes();
      if (set_bytes.load() + sh.bytes_after_growth() - before > lim.memory)
        throw LimitError("explore: the memory budget is exhausted (--memory)");
      sh.grow(mixed);
      set_bytes += sh.bytes() - before;
    }
    return sh.insert(s, h);
  };
  auto reshard = [&](int bits) {
    std::vector<Shard> old;
    old.swap(shards);
    shard_bits = bits;
    shards.assign(std::size_t{1} << bits, Shard{});
    std::uint64_t bytes = 0;
    for (auto& sh : shards) bytes += sh.bytes();
    set_bytes = bytes;
    for (auto& o : old) {
      o.for_each([&](const State& s) {
        const std::uint64_t h = mixed(s);
        insert(shards[shard_of(h)], s, h);
      });
      o = Shard{};
    }
  };

  std::vector<State> layer;
  for (const State& s : sources) {
    const std::uint64_t h = mixed(s);
    if (insert(shards[shard_of(h)], s, h)) layer.push_back(s);
  }
  tbb::task_arena arena(static_cast<int>(std::max(1u, lim.threads)));
  constexpr std::size_t kSerial = 4096;       // layers below this are expanded on one thread
  constexpr std::size_t kBlock = 1024;        // frontier states per parallel task
  constexpr std::size_t kRound = 1 << 18;     // frontier states per expand-then-insert round
  std::vector<std::vector<State>> next_by_shard;
  while (!layer.empty()) {
    res.histogram.push_back(layer.size());
    res.states += layer.size();
    if (lim.deadline) lim.deadline->check();
    // Aim for about 2^16 states per shard.
    const std::uint64_t total = res.states;
    int want = 0;
    while (want < 12 && (total >> want) > (std::uint64_t{1} << 16)) want += 4;
    if (want > shard_bits) reshard(want);

    std::vector<State> next;
    if (layer.size() < kSerial) {
      for (const State& s : layer) {
        ++res.stats.expanded;
        d.for_each_move(s, [&](const Move&, const State& t) {
          ++res.stats.generated;
          const std::uint64_t h = mixed(t);
          if (insert(shards[shard_of(h)], t, h)) next.push_back(t);
        });
      }
      account((layer.capacity() + next.capacity()) * sizeof(State));
    } else {
      const std::size_t nshards = shards.size();
      next_by_shard.assign(nshards, {});
      struct Local {
        std::vector<std::vector<State>> buckets;
        std::uint64_t expanded = 0, generated = 0;
      };
      tbb::enumerable_thread_specific<Local> locals([&] { return Local{std::vector<std::vector<State>>(nshards), 0, 0}; });
      for (std::size_t lo = 0; lo < layer.size(); lo += kRound) {
        const std::size_t hi = std::min(layer.size(), lo + kRound);
        std::atomic<bool> late{false};
        arena.execute([&] {
          tbb::parallel_for(lo, hi, kBlock, [&](std::size_t b) {
            if (lim.deadline && lim.deadline->expired()) {
              late = true;
              return;
            }
            Local& l = locals.local();
            for (std::size_t i = b; i < std::min(hi, b + kBlock); ++i) {
              ++l.expanded;
              d.for_each_move(layer[i], [&](const Move&, const State& t) {
                ++l.generated;
                l.buckets[shard_of(mixed(t))].push_back(t);
              });
            }
          });
        });
        if (late) throw LimitError("time limit reached (--timeout)");
        std::uint64_t bucket_bytes = 0;
        for (auto& l : locals)
          for (auto& b : l.buckets) bucket_bytes += b.capacity() * sizeof(State);
        std::uint64_t next_bytes = 0;
        for (auto& n : next_by_shard) next_bytes += n.capacity() * sizeof(State);
        account(bucket_bytes + next_bytes + layer.capacity() * sizeof(State));
        arena.execute([&] {
          tbb::parallel_for(std::size_t{0}, nshards, [&](std::size_t s) {
            Shard& sh = shards[s];
            auto& out = next_by_shard[s];
            for (auto& l : locals) {
              auto& bucket = l.buckets[s];
              // Hashes are computed kAhead candidates early and their slots prefetched.
              constexpr std::size_t kAhead = 8;
              std::uint64_t ring[kAhead];
              const std::size_t n = bucket.size();
              for (std::size_t i = 0; i < std::min(n, kAhead); ++i) sh.prefetch(ring[i] = mixed(bucket[i]));
              for (std::size_t i = 0; i < n; ++i) {
                const std::uint64_t h = ring[i % kAhead];
                if (i + kAhead < n) sh.prefetch(ring[i % kAhead] = mixed(bucket[i + kAhead]));
                if (insert(sh, bucket[i], h)) out.push_back(bucket[i]);
              }
              bucket.clear();
            }
          });
        });
        if (lim.progress)
          lim.progress->update("explore: depth {}, {} states, {} in this layer", res.histogram.size(),
                               res.states, layer.size());
      }
      for (auto& l : locals) {
        res.stats.expanded += l.expanded;
        res.stats.generated += l.generated;
      }
      std::size_t n = 0;
      for (auto& v : next_by_shard) n += v.size();
      next.reserve(n);
      for (auto& v : next_by_shard) {
        next.insert(next.end(), v.begin(), v.end());
        std::vector<State>().swap(v);
      }
    }
    if (next.empty()) {
      res.depth = static_cast<int>(res.histogram.size()) - 1;
      res.farthest_count = layer.size();
      const std::size_t k = std::min(keep_farthest, layer.size());
      std::partial_sort(layer.begin(), layer.begin() + static_cast<std::ptrdiff_t>(k), layer.end());
      res.farthest.assign(layer.begin(), layer.begin() + static_cast<std::ptrdiff_t>(k));
      break;
    }
    layer.swap(next);
    if (lim.progress) lim.progress->update("explore: depth {}, {} states", res.histogram.size(), res.states);
  }
  std::uint64_t stored = 0;
  for (auto& sh : shards) stored += sh.size();
  res.stats.stored = stored;
  res.table_bytes = std::max(peak, set_bytes.load());
  return res;
}

}  // namespace tansaku::search
