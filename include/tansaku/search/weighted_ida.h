// Weighted IDA* over any HeuristicDomain: IDA*'s depth-first probes under a growing
// threshold on g + W h (W = num / den >= 1) instead of g + h, in linear memory, for the
// instances whose spaces are too large for weighted A*'s table. With an admissible h the
// first solution costs at most W times the optimum: every position n on an optimal path
// (cost C) has den g + num h <= num (g + h) <= num C, and the threshold grows to the least
// value that exceeded it, so it never passes num C before the optimal path lies within it;
// a solution found under threshold T costs at most T / den <= W C. Each iteration that
// ends without a solution proves C > T / num (a position of every optimal path exceeded T).
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "tansaku/search/domain.h"
#include "tansaku/search/limits.h"
#include "tansaku/search/stats.h"

namespace tansaku::search {

namespace detail {

template <HeuristicDomain D>
class WeightedIdaRun {
 public:
  using State = typename D::State;
  using Move = typename D::Move;
  WeightedIdaRun(const D& d, std::int64_t num, std::int64_t den, const Limits& lim, PathResult<Move>& res)
      : d_(d), num_(num), den_(den), lim_(lim), res_(res) {}

  // One probe under `bound` (in units of 1 / den); true once a solution is found.
  bool iterate(const State& start, std::int64_t bound) {
    bound_ = bound;
    next_ = std::numeric_limits<std::int64_t>::max();
    states_.assign(1, start);
    moves_.clear();
    return dfs(start, 0);
  }
  std::int64_t next_bound() const { return next_; }

 private:
  bool dfs(const State& s, int g) {
    const std::int64_t f = den_ * g + num_ * static_cast<std::int64_t>(d_.h(s));
    if (f > bound_) {
      next_ = std::min(next_, f);
      return false;
    }
    if (d_.is_goal(s)) {
      res_.found = true;
      res_.cost = g;
      res_.moves = moves_;
      res_.count = 1;
      return true;
    }
    ++res_.stats.expanded;
    if (lim_.deadline) lim_.deadline->poll();
    bool stop = false;
    d_.for_each_move(s, [&](const Move& m, const State& t) {
      if (stop) return;
      ++res_.stats.generated;
      if (states_.size() >= 2 && t == states_[states_.size() - 2]) return;  // straight back
      states_.push_back(t);
      moves_.push_back(m);
      stop = dfs(t, g + move_cost(d_, s, m));
      states_.pop_back();
      moves_.pop_back();
    });
    return stop;
  }

  const D& d_;
  std::int64_t num_, den_;
  const Limits& lim_;
  PathResult<Move>& res_;
  std::int64_t bound_ = 0, next_ = 0;
  std::vector<State> states_;
  std::vector<Move> moves_;
};

}  // namespace detail

// Weighted IDA*: W = num / den (>= 1); the answer costs at most W times the optimum (the
// result says so: optimal false, bound W). W = 1 is IDA*. Records in lim.proved the least
// length each finished iteration proves.
template <HeuristicDomain D>
PathResult<typename D::Move> weighted_ida_star(const D& d, const typename D::State& start, std::int64_t num,
                                               std::int64_t den, const Limits& lim = {}) {
  PathResult<typename D::Move> res;
  res.optimal = false;
  res.bound = static_cast<double>(num) / static_cast<double>(den);
  detail::WeightedIdaRun<D> run(d, num, den, lim, res);
  const int h0 = d.h(start);
  if (lim.proved) lim.proved->raise(h0);
  std::int64_t bound = num * static_cast<std::int64_t>(h0);
  while (true) {
    if (lim.progress)
      lim.progress->update("weighted ida*: threshold {}, {} nodes", static_cast<double>(bound) / den,
                           res.stats.expanded);
    if (run.iterate(start, bound)) return res;
    // No solution under `bound`: every optimal path has a position beyond it, so C > bound / num.
    if (lim.proved) lim.proved->raise(bound / num + 1);
    const std::int64_t next = run.next_bound();
    if (next == std::numeric_limits<std::int64_t>::max()) {
      res.exhausted = true;  // nothing beyond the threshold: no solution exists
      return res;
    }
    if (next / num > lim.max_cost) return res;  // no solution within lim.max_cost (not searched beyond)
    bound = next;
  }
}

}  // namespace tansaku::search
