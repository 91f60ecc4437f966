// Iterative-deepening A*: depth-first probes under a growing cost bound, pruned by an
// admissible heuristic; linear memory. Finds one optimal solution, every optimal solution,
// or their number. Moves that return to the grandparent state are skipped; the bound grows
// to the smallest f that exceeded it, and at least by `step` (2 where the cost of every
// solution has a known parity, as when every move flips a parity of the state).
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "tansaku/search/deepening.h"
#include "tansaku/search/domain.h"
#include "tansaku/search/limits.h"
#include "tansaku/search/stats.h"

namespace tansaku::search {

enum class SolutionMode { First, All, Count };

struct IdaOptions {
  SolutionMode mode = SolutionMode::First;
  int step = 1;                 // bound increment granularity (2 for parity-constrained costs)
  std::size_t max_all = 100000; // cap on solutions kept in All mode
  // The knobs of the non-optimal searches a family offers beside IDA* (best_first.h,
  // beam_search.h), carried with the solution mode so every family's job has them.
  std::int64_t weight_num = 2, weight_den = 1;  // weighted A*: W = num / den >= 1
  std::size_t beam_width = 1000;                // beam search: states kept per layer
};

namespace detail {

template <HeuristicDomain D>
class IdaRun {
 public:
  using State = typename D::State;
  using Move = typename D::Move;
  IdaRun(const D& d, const IdaOptions& o, const Limits& lim, PathResult<Move>& res)
      : d_(d), o_(o), lim_(lim), res_(res) {}

  // One iteration under `bound`; returns true when the search should stop.
  bool iterate(const State& start, int bound) {
    bound_ = bound;
    next_ = std::numeric_limits<int>::max();
    states_.assign(1, start);
    moves_.clear();
    return dfs(start, 0);
  }
  int next_bound() const { return next_; }

 private:
  bool dfs(const State& s, int g) {
    const int f = g + d_.h(s);
    if (f > bound_) {
      next_ = std::min(next_, f);
      return false;
    }
    if (d_.is_goal(s)) {
      res_.found = true;
      res_.cost = g;
      if (res_.count == 0) res_.moves = moves_;
      if (o_.mode == SolutionMode::All && res_.all.size() < o_.max_all) res_.all.push_back(moves_);
      ++res_.count;
      return o_.mode == SolutionMode::First;
    }
    ++res_.stats.expanded;
    if (lim_.deadline) lim_.deadline->poll();
    bool stop = false;
    d_.for_each_move(s, [&](const Move& m, const State& t) {
      if (stop) return;
      ++res_.stats.generated;
      if (states_.size() >= 2 && t == states_[states_.size() - 2]) return;
      states_.push_back(t);
      moves_.push_back(m);
      stop = dfs(t, g + move_cost(d_, s, m));
      states_.pop_back();
      moves_.pop_back();
    });
    return stop;
  }

  const D& d_;
  const IdaOptions& o_;
  const Limits& lim_;
  PathResult<Move>& res_;
  int bound_ = 0, next_ = 0;
  std::vector<State> states_;
  std::vector<Move> moves_;
};

}  // namespace detail

template <HeuristicDomain D>
PathResult<typename D::Move> ida_star(const D& d, const typename D::State& start, const IdaOptions& o = {},
                                      const Limits& lim = {}) {
  PathResult<typename D::Move> res;
  detail::IdaRun<D> run(d, o, lim, res);
  deepen("ida*", d.h(start), o.step, lim, res, [&](int bound) {
    run.iterate(start, bound);
    return run.next_bound();
  });
  return res;
}

}  // namespace tansaku::search
