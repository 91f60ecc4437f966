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
// solution. The table has a size limit (entries are replaced on collision: only stronger
// pruning is lost, never correctness).
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "tansaku/core/zeroed_pages.h"
#include "tansaku/search/domain.h"
#include "tansaku/search/ida_star.h"
#include "tansaku/search/limits.h"
#include "tansaku/search/stats.h"

namespace tansaku::search {

template <class D>
concept KeyedHeuristicDomain = HeuristicDomain<D> && requires(const D& d, const typename D::State& s) {
  { d.key(s) } -> std::convertible_to<std::uint64_t>;
};

struct TtOptions {
  std::uint64_t table_bytes = std::uint64_t{64} << 20;  // the table grows up to this size
  std::uint64_t max_expanded = 0;  // give up (found and exhausted both false) past this; 0: never
  // An upper bound of the cost of an optimal solution when one exists (0: none known), e.g.
  // the number of states less one with unit costs (a shortest path visits no state twice). In
  // a domain whose moves can be undone no state is ever proved a dead end, so without it an
  // unsolvable start would deepen forever; with it, a bound beyond it is a proof (exhausted).
  std::uint64_t cost_bound = 0;
};

// Key -> lower bound in 4-way buckets; the weakest entry of a full bucket is replaced. It
// starts small and grows (by rehashing) while it is more than 3/4 full, up to its limit.
class BoundTable {
 public:
  static constexpr int kInfinity = kDeadEnd;  // (the largest bound a slot holds)
  explicit BoundTable(std::uint64_t max_bytes) {
    max_buckets_ = 1;
    while (max_buckets_ * 2 * sizeof(Bucket) <= max_bytes) max_buckets_ *= 2;
    allocate(std::min<std::uint64_t>(max_buckets_, std::uint64_t{1} << 15));  // 1.25 MiB to start
  }
  std::uint64_t bytes() const { return (mask_ + 1) * sizeof(Bucket); }
  // Stored bound for key, or 0.
  int get(std::uint64_t key) const {
    const Bucket& b = buckets_[index(key)];
    for (int i = 0; i < 4; ++i)
      if (b.key[i] == key && b.bound[i]) return b.bound[i];
    return 0;
  }
  // Records bound (>= 1) for key.
  void put(std::uint64_t key, int bound) {
    if (count_ * 4 > (mask_ + 1) * 4 * 3 && mask_ + 1 < max_buckets_) grow();
    store(key, static_cast<std::uint16_t>(std::clamp(bound, 1, kInfinity)));
  }

 private:
  struct Bucket {
    std::uint64_t key[4];
    std::uint16_t bound[4];  // 0: empty slot
  };
  void store(std::uint64_t key, std::uint16_t v) {
    Bucket& b = buckets_[index(key)];
    int weakest = 0;
    for (int i = 0; i < 4; ++i) {
      if (b.bound[i] == 0) {
        b.key[i] = key, b.bound[i] = v;
        ++count_;
        return;
      }
      if (b.key[i] == key) {
        b.bound[i] = std::max(b.bound[i], v);
        return;
      }
      if (b.bound[i] < b.bound[weakest]) weakest = i;
    }
    b.key[weakest] = key;
    b.bound[weakest] = v;
  }
  void allocate(std::uint64_t buckets) {
    mask_ = buckets - 1;
    count_ = 0;
    buckets_ = zeroed_array<Bucket>(buckets);  // untouched pages cost nothing up front
  }
  void grow() {
    ZeroedArray<Bucket> old = std::move(buckets_);
    const std::uint64_t n = mask_ + 1;
    allocate(std::min(max_buckets_, n * 4));
    for (std::uint64_t i = 0; i < n; ++i)
      for (int k = 0; k < 4; ++k)
        if (old[i].bound[k]) store(old[i].key[k], old[i].bound[k]);
  }
  std::size_t index(std::uint64_t key) const {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return static_cast<std::size_t>(key & mask_);
  }
  std::uint64_t mask_ = 0, count_ = 0, max_buckets_ = 1;
  ZeroedArray<Bucket> buckets_;
};

namespace detail {

template <KeyedHeuristicDomain D>
class IdaTtRun {
 public:
  using State = typename D::State;
  using Move = typename D::Move;
  static constexpr int kInf = BoundTable::kInfinity;
  IdaTtRun(const D& d, const Limits& lim, std::uint64_t max_expanded, BoundTable& tt, PathResult<Move>& res)
      : d_(d), lim_(lim), max_expanded_(max_expanded), tt_(tt), res_(res) {}
  bool gave_up() const { return gave_up_; }

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
    if (++res_.stats.expanded > max_expanded_ && max_expanded_) gave_up_ = true;
    if (gave_up_) return kInf;
    if (lim_.deadline) lim_.deadline->poll();
    int best = kInf;
    d_.for_each_move(s, [&](const Move& m, const State& t) {
      if (res_.found || gave_up_) return;
      ++res_.stats.generated;
      const int c = move_cost(d_, s, m);
      moves_.push_back(m);
      const int r = dfs(t, g + c);
      if (!res_.found) moves_.pop_back();
      if (r < kInf) best = std::min(best, c + r);
      return;
    });
    if (res_.found) return 0;
    if (gave_up_) return kInf;  // (nothing is stored from an unfinished subtree)
    tt_.put(key, best);
    return best;
  }

  const D& d_;
  const Limits& lim_;
  std::uint64_t max_expanded_;
  bool gave_up_ = false;
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
  detail::IdaTtRun<D> run(d, lim, o.max_expanded, tt, res);
  deepen("ida* + table", d.h(start), 1, lim, res, [&](int bound) {
    const int next = run.probe(start, bound);
    res.stats.stored = tt.bytes();
    if (run.gave_up()) return kGaveUp;
    if (next >= BoundTable::kInfinity || (o.cost_bound && static_cast<std::uint64_t>(next) > o.cost_bound))
      return kNothingBeyond;  // no state reachable from the start leads to the goal
    return next;
  });
  return res;
}

// A domain given a table key (`key_of(s)`: equal keys must mean equal states, e.g. a rank)
// and, with `heuristic` false, the zero heuristic (IDDFS with a table).
template <HeuristicDomain D, class Key>
struct KeyedDomain {
  using State = typename D::State;
  using Move = typename D::Move;
  const D& d;
  Key key_of;
  bool heuristic = true;
  bool is_goal(const State& s) const { return d.is_goal(s); }
  template <class F>
  void for_each_move(const State& s, F&& f) const {
    d.for_each_move(s, std::forward<F>(f));
  }
  int h(const State& s) const { return heuristic ? static_cast<int>(d.h(s)) : 0; }
  int cost(const State& s, const Move& m) const { return move_cost(d, s, m); }
  std::uint64_t key(const State& s) const { return key_of(s); }
};

// IDA* over a domain whose states are reached by many paths, in every solution mode: the
// table's search finds one optimal solution or proves there is none (a plain IDA* would deepen
// forever on an unsolvable instance); for All and Count, plain IDA* (which lists and counts
// every path) then walks only that optimal cost. `o.step` and the table size are respected.
template <KeyedHeuristicDomain D>
PathResult<typename D::Move> ida_star_tt_modes(const D& d, const typename D::State& start, const IdaOptions& o,
                                               TtOptions tt, const Limits& lim = {}) {
  tt.table_bytes = std::min(tt.table_bytes, std::max<std::uint64_t>(lim.memory / 4, 1 << 20));
  PathResult<typename D::Move> first = ida_star_tt(d, start, tt, lim);
  if (o.mode == SolutionMode::First || !first.found) return first;
  Limits at = lim;
  at.max_cost = first.cost;
  PathResult<typename D::Move> res = ida_star(d, start, o, at);
  res.stats.expanded += first.stats.expanded;
  res.stats.generated += first.stats.generated;
  res.stats.stored = std::max(res.stats.stored, first.stats.stored);
  return res;
}

}  // namespace tansaku::search
