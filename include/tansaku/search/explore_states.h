// Layered breadth-first enumeration of a state space that has no perfect hash (explore.h needs
// a RankedDomain): the states themselves are kept in hash sets, split into shards by hash.
// A large layer is expanded in parallel (TBB) into per-thread buckets by shard; then each
// shard takes its candidates alone, so there are no locks and one shard's tables are small
// enough to stay in cache.
// Domains whose moves are reversible (`bool symmetric() const` returning true) are explored
// by frontier search (Korf): in an undirected graph a successor of a state at distance d is
// at distance d - 1, d or d + 1, so only those three layers are kept and older ones are
// dropped. Memory then follows the widest layers instead of the whole space, and the tables
// stay in cache. Other domains keep every state seen.
// Reports what explore.h reports, with the farthest states themselves (the smallest by
// operator<, so identical for any number of threads). Needs a Domain whose State is
// trivially copyable, totally ordered and hashable.
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
  std::uint64_t table_bytes = 0;         // peak bytes of the hash sets, the layers and the buckets
  bool frontier = false;                 // frontier search: only the last three layers were kept
  Stats stats;                           // stats.stored: the most states held at once
};

namespace detail {

// One hash set: open addressing with linear probing; a tag byte per slot (0 = empty, else
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
    const std::uint8_t tag = tag_of(h);
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
  bool contains(const State& s, std::uint64_t h) const {
    const std::uint8_t tag = tag_of(h);
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      const std::uint8_t t = tags_[i];
      if (t == 0) return false;
      if (t == tag && keys_[i] == s) return true;
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
  // Empties the set, with room for about n states before it grows (the storage is kept when
  // it is about the right size: only the tags are cleared).
  void clear_for(std::size_t n) {
    std::size_t cap = 16;
    while (cap * 7 < n * 10) cap *= 2;
    if (tags_.size() >= cap && tags_.size() <= cap * 4) {
      std::fill(tags_.begin(), tags_.end(), std::uint8_t{0});
      count_ = 0;
      return;
    }
    reset(cap);
  }
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t i = 0; i < tags_.size(); ++i)
      if (tags_[i]) f(keys_[i]);
  }

 private:
  static std::uint8_t tag_of(std::uint64_t h) { return static_cast<std::uint8_t>(0x80 | ((h >> 32) & 0x7f)); }
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

// A shard's sets. Frontier search: `prev` and `cur` hold layers d - 1 and d, `next` is
// filled with layer d + 1, then they rotate. Otherwise `cur` holds every state seen.
template <class State>
struct LayerShard {
  StateShard<State> prev, cur, next;
  std::uint64_t bytes() const { return prev.bytes() + cur.bytes() + next.bytes(); }
  std::size_t size() const { return prev.size() + cur.size() + next.size(); }
};

// Successors of a state pushed to per-shard buckets, each with the move that made it when
// the domain prunes moves by the last one (`Moves`), alone otherwise: one array of entries.
template <class State, class Move, bool Moves>
struct Entry {
  State state;
  Move move;
};
template <class State, class Move>
struct Entry<State, Move, false> {
  State state;
};
template <class State, class Move, bool Moves>
struct Batch {
  std::vector<Entry<State, Move, Moves>> items;
  bool sources = false;  // a layer of sources: no last moves
  void push(const State& s, [[maybe_unused]] const Move& m) {
    if constexpr (Moves)
      items.push_back({s, m});
    else
      items.push_back({s});
  }
  std::size_t size() const { return items.size(); }
  std::uint64_t bytes() const { return items.capacity() * sizeof(items[0]); }
  void clear() { items.clear(); }
};

}  // namespace detail

// A domain that can leave out, after the move that made a state, moves that cannot lead
// farther from the sources: d.for_each_move_after(s, last, f) calls f(move, successor) like
// for_each_move, where last points to the move that made s (nullptr for a source), and may
// skip any successor t with dist(t) <= dist(s) (for example moving the same sliding block
// again, which one move from the parent does as well). The explore keeps each frontier
// state's last move (the first found) and expands through it.
template <class D>
concept PrunesAfterMove = Domain<D> && requires(const D& d, const typename D::State& s, const typename D::Move* m) {
  d.for_each_move_after(s, m, [](const typename D::Move&, const typename D::State&) {});
};

template <Domain D>
  requires std::is_trivially_copyable_v<typename D::State> && std::totally_ordered<typename D::State>
StatesExploreResult<typename D::State> explore_states(const D& d, std::span<const typename D::State> sources,
                                                      std::size_t keep_farthest, const Limits& lim = {}) {
  using State = typename D::State;
  using Move = typename D::Move;
  using Set = detail::StateShard<State>;
  using Shard = detail::LayerShard<State>;
  constexpr bool kMoves = PrunesAfterMove<D>;
  using Batch = detail::Batch<State, Move, kMoves>;
  StatesExploreResult<State> res;
  bool frontier = false;
  if constexpr (requires { { d.symmetric() } -> std::convertible_to<bool>; }) frontier = d.symmetric();
  res.frontier = frontier;
  const StateHash<D> hasher{&d};
  auto mixed = [&](const State& s) { return bits::mix64(static_cast<std::uint64_t>(hasher(s))); };
  // Successors of the i-th state of a layer, through its last move when the domain prunes.
  auto successors = [&](const Batch& layer, std::size_t i, auto&& f) {
    if constexpr (kMoves)
      d.for_each_move_after(layer.items[i].state, layer.sources ? nullptr : &layer.items[i].move, f);
    else
      d.for_each_move(layer.items[i].state, f);
  };

  // Shards by the top bits of the hash; their number grows with what the sets hold (the
  // widest layer in a frontier search, everything otherwise), re-sharded between layers, so
  // that small spaces stay on one table and large ones have cache-sized shards.
  const std::uint64_t shard_target = frontier ? std::uint64_t{1} << 12 : std::uint64_t{1} << 16;
  int shard_bits = 0;
  std::vector<Shard> shards(1);
  auto shard_of = [&](std::uint64_t h) -> std::size_t { return shard_bits ? h >> (64 - shard_bits) : 0; };
  auto sum_bytes = [&] {
    std::uint64_t b = 0;
    for (const auto& sh : shards) b += sh.bytes();
    return b;
  };
  auto sum_size = [&] {
    std::uint64_t n = 0;
    for (const auto& sh : shards) n += sh.size();
    return n;
  };
  std::atomic<std::uint64_t> set_bytes{sum_bytes()};
  std::uint64_t peak = 0;
  auto account = [&](std::uint64_t extra) {
    const std::uint64_t total = set_bytes.load() + extra;
    peak = std::max(peak, total);
    if (total > lim.memory) throw LimitError("explore: the memory budget is exhausted (--memory)");
  };
  auto insert = [&](Set& set, const State& s, std::uint64_t h) {
    if (set.needs_growth()) {
      const std::uint64_t before = set.bytes();
      if (set_bytes.load() + set.bytes_after_growth() - before > lim.memory)
        throw LimitError("explore: the memory budget is exhausted (--memory)");
      set.grow(mixed);
      set_bytes += set.bytes() - before;
    }
    return set.insert(s, h);
  };
  // True if s is new: not in the last two layers (frontier search) or not seen at all.
  auto admit = [&](Shard& sh, const State& s, std::uint64_t h) {
    if (frontier) return !sh.prev.contains(s, h) && !sh.cur.contains(s, h) && insert(sh.next, s, h);
    return insert(sh.cur, s, h);
  };
  // Frontier search, once a layer is complete: d - 1 is dropped, d + 1 becomes the current.
  // The sets' storage is recycled: the old d - 1 becomes the new d + 1.
  tbb::task_arena arena(static_cast<int>(std::max(1u, lim.threads)));
  auto rotate = [&] {
    if (!frontier) return;
    arena.execute([&] {
      tbb::parallel_for(std::size_t{0}, shards.size(), [&](std::size_t i) {
        Shard& sh = shards[i];
        std::swap(sh.prev, sh.cur);
        std::swap(sh.cur, sh.next);
        sh.next.clear_for(sh.cur.size());
      });
    });
    set_bytes = sum_bytes();
    account(0);
  };
  auto reshard = [&](int bits) {
    std::vector<Shard> old;
    old.swap(shards);
    shard_bits = bits;
    shards.assign(std::size_t{1} << bits, Shard{});
    set_bytes = sum_bytes();
    for (auto& o : old) {
      o.prev.for_each([&](const State& s) {
        const std::uint64_t h = mixed(s);
        insert(shards[shard_of(h)].prev, s, h);
      });
      o.cur.for_each([&](const State& s) {
        const std::uint64_t h = mixed(s);
        insert(shards[shard_of(h)].cur, s, h);
      });
      o = Shard{};
    }
    if (frontier)
      for (auto& sh : shards) sh.next.clear_for(sh.cur.size());
    set_bytes = sum_bytes();
  };

  Batch layer;  // the frontier
  layer.sources = true;
  for (const State& s : sources) {
    const std::uint64_t h = mixed(s);
    if (admit(shards[shard_of(h)], s, h)) layer.push(s, {});
  }
  rotate();
  constexpr std::size_t kSerial = 4096;       // layers below this are expanded on one thread
  constexpr std::size_t kBlock = 1024;        // frontier states per parallel task
  constexpr std::size_t kRound = 1 << 18;     // frontier states per expand-then-insert round
  std::vector<Batch> next_by_shard;
  // Per thread: the successors by shard (kept from layer to layer while the shards stay).
  struct Local {
    std::vector<Batch> buckets;
    std::uint64_t expanded = 0, generated = 0;
  };
  tbb::enumerable_thread_specific<Local> locals([&] { return Local{std::vector<Batch>(shards.size()), 0, 0}; });
  while (!layer.items.empty()) {
    const std::size_t width = layer.size();
    res.histogram.push_back(width);
    res.states += width;
    if (lim.deadline) lim.deadline->check();
    // Aim for at most shard_target states per shard's set.
    const std::uint64_t held = frontier ? width : res.states;
    int want = shard_bits;
    while (want < 12 && (held >> want) > shard_target) want += 2;
    if (want > shard_bits) {
      reshard(want);
      locals.clear();
    }

    Batch next;
    if (width < kSerial) {
      for (std::size_t i = 0; i < width; ++i) {
        ++res.stats.expanded;
        successors(layer, i, [&](const Move& m, const State& t) {
          ++res.stats.generated;
          const std::uint64_t h = mixed(t);
          if (admit(shards[shard_of(h)], t, h)) next.push(t, m);
        });
      }
      account(layer.bytes() + next.bytes());
    } else {
      const std::size_t nshards = shards.size();
      next_by_shard.resize(nshards);
      for (std::size_t lo = 0; lo < width; lo += kRound) {
        const std::size_t hi = std::min(width, lo + kRound);
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
              successors(layer, i, [&](const Move& m, const State& t) {
                ++l.generated;
                l.buckets[shard_of(mixed(t))].push(t, m);
              });
            }
          });
        });
        if (late) throw LimitError("time limit reached (--timeout)");
        std::uint64_t buffered = layer.bytes();
        for (auto& l : locals)
          for (auto& b : l.buckets) buffered += b.bytes();
        for (auto& n : next_by_shard) buffered += n.bytes();
        account(buffered);
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
              auto ahead = [&](std::uint64_t h) {
                if (frontier) {
                  sh.prev.prefetch(h);
                  sh.cur.prefetch(h);
                  sh.next.prefetch(h);
                } else {
                  sh.cur.prefetch(h);
                }
                return h;
              };
              for (std::size_t i = 0; i < std::min(n, kAhead); ++i) ring[i] = ahead(mixed(bucket.items[i].state));
              for (std::size_t i = 0; i < n; ++i) {
                const std::uint64_t h = ring[i % kAhead];
                if (i + kAhead < n) ring[i % kAhead] = ahead(mixed(bucket.items[i + kAhead].state));
                if (admit(sh, bucket.items[i].state, h)) out.items.push_back(bucket.items[i]);
              }
              bucket.clear();
            }
          });
        });
        if (lim.progress)
          lim.progress->update("explore: depth {}, {} states, {} in this layer", res.histogram.size(), res.states, width);
      }
      for (auto& l : locals) {
        res.stats.expanded += l.expanded;
        res.stats.generated += l.generated;
        l.expanded = l.generated = 0;
      }
      // The next layer in shard order, copied in parallel.
      std::vector<std::size_t> at(nshards + 1, 0);
      for (std::size_t i = 0; i < nshards; ++i) at[i + 1] = at[i] + next_by_shard[i].size();
      next.items.resize(at[nshards]);
      arena.execute([&] {
        tbb::parallel_for(std::size_t{0}, nshards, [&](std::size_t i) {
          auto& v = next_by_shard[i];
          std::copy(v.items.begin(), v.items.end(), next.items.begin() + static_cast<std::ptrdiff_t>(at[i]));
          v.clear();
        });
      });
    }
    res.stats.stored = std::max<std::uint64_t>(res.stats.stored, sum_size());
    if (next.items.empty()) {
      res.depth = static_cast<int>(res.histogram.size()) - 1;
      res.farthest_count = width;
      std::vector<State> last(width);
      for (std::size_t i = 0; i < width; ++i) last[i] = layer.items[i].state;
      const std::size_t k = std::min(keep_farthest, width);
      std::partial_sort(last.begin(), last.begin() + static_cast<std::ptrdiff_t>(k), last.end());
      res.farthest.assign(last.begin(), last.begin() + static_cast<std::ptrdiff_t>(k));
      break;
    }
    std::swap(layer, next);
    rotate();
    if (lim.progress) lim.progress->update("explore: depth {}, {} states", res.histogram.size(), res.states);
  }
  res.table_bytes = std::max(peak, set_bytes.load());
  return res;
}

}  // namespace tansaku::search
