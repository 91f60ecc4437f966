// Layered breadth-first enumeration of a state space that has no perfect hash (explore.h needs
// a RankedDomain): the states themselves are kept in hash sets, split into shards by hash.
// A large layer is expanded in parallel (TBB) into per-thread buckets by shard; then each
// shard takes its candidates alone, so there are no locks and one shard's tables are small
// enough to stay in cache.
// Domains whose moves are reversible (`bool symmetric() const` returning true) are explored
// by frontier search (Korf): in an undirected graph a successor of a state at distance d is
// at distance d - 1, d or d + 1, so only those three layers are kept (one set per shard, each
// state tagged with its layer mod 3) and older ones are dropped. Memory then follows the
// widest layers instead of the whole space, and the sets stay in cache. Other domains keep
// every state seen.
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
#include "tansaku/search/explore_layers.h"
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

// The slots of an open-addressing hash set with linear probing: the states, and a tag byte
// per slot (0 = empty) that keeps most probes off the states.
template <class State>
class TaggedSlots {
 public:
  std::uint64_t bytes() const { return tags_.size() * (sizeof(State) + 1); }
  void prefetch(std::uint64_t h) const {
    __builtin_prefetch(&tags_[h & mask_]);
    __builtin_prefetch(&keys_[h & mask_]);
  }

 protected:
  void reset(std::size_t capacity) {
    keys_.assign(capacity, State{});
    tags_.assign(capacity, 0);
    mask_ = capacity - 1;
  }
  // Empties the slots into a new capacity, calling f(state, tag) for each one that was used.
  template <class F>
  void resize(std::size_t capacity, F&& f) {
    std::vector<State> keys;
    std::vector<std::uint8_t> tags;
    keys.swap(keys_);
    tags.swap(tags_);
    reset(capacity);
    for (std::size_t i = 0; i < tags.size(); ++i)
      if (tags[i]) f(keys[i], tags[i]);
  }
  std::vector<State> keys_;
  std::vector<std::uint8_t> tags_;
  std::size_t mask_ = 0;
};

// Every state seen (tag 0x80 | 7 bits of the hash). One writer at a time.
template <class State>
class StateShard : public TaggedSlots<State> {
  using Base = TaggedSlots<State>;
  using Base::keys_, Base::tags_, Base::mask_;

 public:
  StateShard() { Base::reset(16); }
  std::size_t size() const { return count_; }
  std::uint64_t bytes_after_growth() const { return Base::bytes() * 2; }
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
  template <class Rehash>
  void grow(Rehash&& mixed_hash) {
    count_ = 0;
    Base::resize(tags_.size() * 2, [&](const State& s, std::uint8_t) { insert(s, mixed_hash(s)); });
  }
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t i = 0; i < tags_.size(); ++i)
      if (tags_[i]) f(keys_[i]);
  }

 private:
  std::size_t count_ = 0;
};

// The set of a frontier search: the states of the last three layers, each tagged with its
// layer mod 3 (tag byte: 0 empty, 1 dropped, else 0x80 | layer << 5 | 5 bits of the hash),
// so one probe sequence answers for all three. A layer is dropped by turning its slots into
// tombstones, which inserts reuse; the set is rebuilt when live and dropped slots fill it.
// One writer at a time.
template <class State>
class FrontierSet : public TaggedSlots<State> {
  using Base = TaggedSlots<State>;
  using Base::keys_, Base::tags_, Base::mask_;

 public:
  FrontierSet() { Base::reset(16); }
  std::size_t size() const { return live_; }
  bool needs_rebuild() const { return (live_ + dead_ + 1) * 10 > tags_.size() * 7; }
  std::uint64_t bytes_after_rebuild() const { return capacity_for(live_ + 1) * (sizeof(State) + 1); }
  // True if s is in none of the layers held (and now is, in `layer`, 0..2).
  bool insert(const State& s, std::uint64_t h, unsigned layer) {
    const std::uint8_t low = static_cast<std::uint8_t>((h >> 32) & 0x1f);
    std::size_t hole = SIZE_MAX;
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      const std::uint8_t t = tags_[i];
      if (t == 0) {
        if (hole != SIZE_MAX) {
          i = hole;
          --dead_;
        }
        tags_[i] = static_cast<std::uint8_t>(0x80 | layer << 5 | low);
        keys_[i] = s;
        ++live_;
        return true;
      }
      if (t == kDropped) {
        if (hole == SIZE_MAX) hole = i;
      } else if ((t & 0x1f) == low && keys_[i] == s) {
        return false;
      }
    }
  }
  // Drops the states of one layer (mod 3).
  void drop(unsigned layer) {
    const std::uint8_t want = static_cast<std::uint8_t>(0x80 | layer << 5);
    std::size_t n = 0;
    for (auto& t : tags_) {  // without branches: the compiler vectorises it
      const bool hit = (t & 0xe0) == want;
      t = hit ? kDropped : t;
      n += hit;
    }
    live_ -= n;
    dead_ += n;
  }
  // Rehashes the live states into a set with room to grow (tombstones go).
  template <class Rehash>
  void rebuild(Rehash&& mixed_hash) {
    const std::size_t live = live_;
    live_ = dead_ = 0;
    Base::resize(capacity_for(live + 1), [&](const State& s, std::uint8_t tag) {
      if (tag & 0x80) insert(s, mixed_hash(s), (tag >> 5) & 3);
    });
  }
  // f(state, layer mod 3) for every state held.
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t i = 0; i < tags_.size(); ++i)
      if (tags_[i] & 0x80) f(keys_[i], static_cast<unsigned>((tags_[i] >> 5) & 3));
  }

 private:
  static constexpr std::uint8_t kDropped = 1;
  // At most 40% full after a rebuild.
  static std::size_t capacity_for(std::size_t n) {
    std::size_t cap = 16;
    while (cap * 4 < n * 10) cap *= 2;
    return cap;
  }
  std::size_t live_ = 0, dead_ = 0;
};

// A shard: every state seen, or the frontier search's last layers.
template <class State>
struct Shard {
  StateShard<State> all;
  FrontierSet<State> recent;
  std::uint64_t bytes() const { return all.bytes() + recent.bytes(); }
  std::size_t size() const { return all.size() + recent.size(); }
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
// skip any successor t with dist(t) <= dist(s) (for example moving the same piece again,
// which one move from the parent does as well). The explore keeps each frontier
// state's last move (the first found) and expands through it.
template <class D>
concept PrunesAfterMove = Domain<D> && requires(const D& d, const typename D::State& s, const typename D::Move* m) {
  d.for_each_move_after(s, m, [](const typename D::Move&, const typename D::State&) {});
};

// No visit of the states (the default).
struct NoVisit {
  template <class State>
  void operator()(const State&) const {}
};

// visit(state) is called once for every state reached, a layer at a time (in no set order
// within a layer), before the frontier search drops it: random positions are drawn from them.
template <Domain D, class Visit = NoVisit>
  requires std::is_trivially_copyable_v<typename D::State> && std::totally_ordered<typename D::State>
StatesExploreResult<typename D::State> explore_states(const D& d, std::span<const typename D::State> sources,
                                                      std::size_t keep_farthest, const Limits& lim = {},
                                                      Visit visit = {}) {
  using State = typename D::State;
  using Move = typename D::Move;
  using Shard = detail::Shard<State>;
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
  unsigned layer_tag = 0;  // frontier search: the layer being filled, mod 3
  int shard_bits = 0;
  std::vector<Shard> shards(1);
  // The shard: the top bits of the hash times an odd constant (Fibonacci hashing), cheaper
  // than the full mix that places a state inside its shard's set.
  auto shard_of = [&](const State& s) -> std::size_t {
    return shard_bits ? (static_cast<std::uint64_t>(hasher(s)) * 0x9E3779B97F4A7C15ull) >> (64 - shard_bits) : 0;
  };
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
  // True if s is new: not in the last two layers (frontier search) or not seen at all.
  auto admit = [&](Shard& sh, const State& s, std::uint64_t h) {
    if (frontier) {
      auto& set = sh.recent;
      if (set.needs_rebuild()) {
        const std::uint64_t before = set.bytes();
        if (set_bytes.load() + set.bytes_after_rebuild() - std::min(before, set.bytes_after_rebuild()) > lim.memory)
          throw LimitError("explore: the memory budget is exhausted (--memory)");
        set.rebuild(mixed);
        set_bytes += set.bytes() - before;
      }
      return set.insert(s, h, layer_tag);
    }
    auto& set = sh.all;
    if (set.needs_growth()) {
      const std::uint64_t before = set.bytes();
      if (set_bytes.load() + set.bytes_after_growth() - before > lim.memory)
        throw LimitError("explore: the memory budget is exhausted (--memory)");
      set.grow(mixed);
      set_bytes += set.bytes() - before;
    }
    return set.insert(s, h);
  };
  tbb::task_arena arena(static_cast<int>(std::max(1u, lim.threads)));
  // Before layer k is expanded (frontier search): layer k - 2 is dropped, and the successors
  // are tagged k + 1 (mod 3, the same tag).
  auto rotate = [&](std::size_t k) {
    if (!frontier) return;
    layer_tag = static_cast<unsigned>((k + 1) % 3);
    if (k < 2) return;
    arena.execute([&] {
      tbb::parallel_for(std::size_t{0}, shards.size(), [&](std::size_t i) { shards[i].recent.drop(layer_tag); });
    });
  };
  auto reshard = [&](int bits) {
    std::vector<Shard> old;
    old.swap(shards);
    shard_bits = bits;
    shards.assign(std::size_t{1} << bits, Shard{});
    set_bytes = sum_bytes();
    const unsigned keep_tag = layer_tag;
    for (auto& o : old) {
      o.all.for_each([&](const State& s) {
        const std::uint64_t h = mixed(s);
        admit(shards[shard_of(s)], s, h);
      });
      o.recent.for_each([&](const State& s, unsigned tag) {
        const std::uint64_t h = mixed(s);
        layer_tag = tag;
        admit(shards[shard_of(s)], s, h);
      });
      o = Shard{};
    }
    layer_tag = keep_tag;
    set_bytes = sum_bytes();
  };

  Batch layer;  // the frontier
  layer.sources = true;
  for (const State& s : sources) {
    const std::uint64_t h = mixed(s);
    if (admit(shards[shard_of(s)], s, h)) layer.push(s, {});
  }
  rotate(0);
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
  // One layer: expanded into buckets by shard, then each shard admits its candidates.
  auto expand_layer = [&](std::size_t depth) -> LayerStep {
    const std::size_t width = layer.size();
    if (width == 0) return {};
    const std::uint64_t states = res.states + width;  // with this layer
    if (lim.deadline) lim.deadline->check();
    // Aim for at most shard_target states per shard's set.
    const std::uint64_t held = frontier ? width : states;
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
          if (admit(shards[shard_of(t)], t, h)) next.push(t, m);
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
                l.buckets[shard_of(t)].push(t, m);
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
                if (frontier)
                  sh.recent.prefetch(h);
                else
                  sh.all.prefetch(h);
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
          lim.progress->update("explore: depth {}, {} states, {} in this layer", depth + 1, states, width);
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
    if constexpr (!std::is_same_v<Visit, NoVisit>)
      for (const auto& e : layer.items) visit(e.state);
    if (next.items.empty()) {  // the farthest: the smallest states of this layer
      res.farthest_count = width;
      std::vector<State> last(width);
      for (std::size_t i = 0; i < width; ++i) last[i] = layer.items[i].state;
      const std::size_t k = std::min(keep_farthest, width);
      std::partial_sort(last.begin(), last.begin() + static_cast<std::ptrdiff_t>(k), last.end());
      res.farthest.assign(last.begin(), last.begin() + static_cast<std::ptrdiff_t>(k));
      return {width, 0, 0, 0};
    }
    std::swap(layer, next);
    rotate(depth + 1);
    return {width, layer.items.size(), 0, 0};
  };
  auto layers = function_layers(expand_layer, [](StatesExploreResult<State>&) {});
  run_layers(layers, res, lim, 0);
  res.table_bytes = std::max(peak, set_bytes.load());
  return res;
}

}  // namespace tansaku::search
