// IDA* with a transposition table of proven lower bounds. Each depth-first probe returns,
// for every state it finishes without success, the smallest cost that a solution through it
// could still have; that value is stored under the state's key and used as a stronger
// heuristic from then on (within the probe and in later iterations). States reached again
// by another path are then cut at once, and a state from which no goal can be reached at
// all is stored as "infinite", so exhausting the start is a proof that no solution exists.
//
// Needs a HeuristicDomain with `std::uint64_t key(s)`: equal keys must mean equal distance
// to the goal (e.g. a canonical form under the symmetries that fix the goal). Costs come
// from `cost(s, m)` (default 1); a zero-cost cycle would not terminate. Finds one optimal
// solution. The table is fixed-size (entries are replaced on collision: only stronger
// pruning is lost, never correctness).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <new>
#include <memory>
#include <vector>

#include "tansaku/search/domain.h"
#include "tansaku/search/limits.h"
#include "tansaku/search/stats.h"

namespace tansaku::search {

template <class D>
concept KeyedHeuristicDomain = HeuristicDomain<D> && requires(const D& d, const typename D::State& s) {
  { d.key(s) } -> std::convertible_to<std::uint64_t>;
};

struct TtOptions {
  std::uint64_t table_bytes = std::uint64_t{64} << 20;  // rounded down to a power of two of entries
};

// Fixed-size table key -> lower bound, 4-way buckets, the weakest entry is replaced.
class BoundTable {
 public:
  static constexpr int kInfinity = std::numeric_limits<std::uint16_t>::max();
  explicit BoundTable(std::uint64_t bytes) {
    std::uint64_t buckets = 1;
    while (buckets * 2 * sizeof(Bucket) <= bytes) buckets *= 2;
    mask_ = buckets - 1;
    // calloc: the pages are zero and only touched when used, so a large table costs nothing up front
    buckets_.reset(static_cast<Bucket*>(std::calloc(buckets, sizeof(Bucket))));
    if (!buckets_) throw std::bad_alloc();
  }
  std::uint64_t bytes() const { return (mask_ + 1) * sizeof(Bucket); }
  // Stored bound for key, or 0.
  int get(std::uint64_t key) const {
    const Bucket& b = buckets_.get()[index(key)];
    for (int i = 0; i < 4; ++i)
      if (b.key[i] == key + 1) return b.bound[i];
    return 0;
  }
  void put(std::uint64_t key, int bound) {
    Bucket& b = buckets_.get()[index(key)];
    const std::uint16_t v = static_cast<std::uint16_t>(std::min(bound, kInfinity));
    int weakest = 0;
    for (int i = 0; i < 4; ++i) {
      if (b.key[i] == key + 1) {
        b.bound[i] = std::max(b.bound[i], v);
        return;
      }
      if (b.bound[weakest] > b.bound[i] || b.key[i] == 0) weakest = i;
      if (b.key[i] == 0) break;
    }
    b.key[weakest] = key + 1;  // 0 marks an empty slot
    b.bound[weakest] = v;
  }

 private:
  struct Bucket {
    std::uint64_t key[4];
    std::uint16_t bound[4];
  };
  std::size_t index(std::uint64_t key) const {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return static_cast<std::size_t>(key & mask_);
  }
  std::uint64_t mask_ = 0;
  struct Free {
    void operator()(Bucket* p) const { std::free(p); }
  };
  std::unique_ptr<Bucket, Free> buckets_;
};

namespace detail {

template <KeyedHeuristicDomain D>
class IdaTtRun {
 public:
  using State = typename D::State;
  using Move = typename D::Move;
  static constexpr int kInf = BoundTable::kInfinity;
  IdaTtRun(const D& d, const Limits& lim, BoundTable& tt, PathResult<Move>& res) : d_(d), lim_(lim), tt_(tt), res_(res) {}

  // One probe under `bound`; returns the new lower bound of the start (kInf: unreachable goal).
  int probe(const State& s, int bound) {
    bound_ = bound;
    moves_.clear();
    return dfs(s, 0);
  }

 private:
  int dfs(const State& s, int g) {
    const int h0 = static_cast<int>(d_.h(s));
    if (h0 >= kInf) return kInf;
    if (g + h0 > bound_) return h0;  // cut by the heuristic alone: no need to look up the table
    const std::uint64_t key = d_.key(s);
    const int h = std::max(h0, tt_.get(key));
    if (h >= kInf) return kInf;
    if (g + h > bound_) return h;
    if (d_.is_goal(s)) {
      res_.found = true;
      res_.cost = g;
      res_.moves = moves_;
      return 0;
    }
    ++res_.stats.expanded;
    if (lim_.deadline) lim_.deadline->poll();
    int best = kInf;
    d_.for_each_move(s, [&](const Move& m, const State& t) {
      if (res_.found) return;
      ++res_.stats.generated;
      const int c = move_cost(d_, s, m);
      moves_.push_back(m);
      const int r = dfs(t, g + c);
      if (!res_.found) moves_.pop_back();
      if (r < kInf) best = std::min(best, c + r);
      return;
    });
    if (res_.found) return 0;
    tt_.put(key, best);
    return best;
  }

  const D& d_;
  const Limits& lim_;
  BoundTable& tt_;
  PathResult<Move>& res_;
  int bound_ = 0;
  std::vector<Move> moves_;
};

}  // namespace detail

template <KeyedHeuristicDomain D>
PathResult<typename D::Move> ida_star_tt(const D& d, const typename D::State& start, const TtOptions& o = {},
                                         const Limits& lim = {}) {
  PathResult<typename D::Move> res;
  BoundTable tt(std::min(o.table_bytes, lim.memory));
  res.stats.stored = tt.bytes();
  detail::IdaTtRun<D> run(d, lim, tt, res);
  int bound = d.h(start);
  while (true) {
    if (lim.progress) lim.progress->update("ida* + table: bound {}, {} nodes", bound, res.stats.expanded);
    const int next = run.probe(start, bound);
    if (res.found) return res;
    if (next >= BoundTable::kInfinity) {
      res.exhausted = true;  // no state reachable from the start leads to the goal
      return res;
    }
    if (next > lim.max_cost) return res;
    bound = std::max(next, bound + 1);
  }
}

}  // namespace tansaku::search
