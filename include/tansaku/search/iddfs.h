// Iterative-deepening depth-first search: IDA* with the zero heuristic, for domains that
// have no lower bound.
#pragma once
#include "tansaku/search/ida_star.h"

namespace tansaku::search {

template <Domain D>
struct ZeroHeuristic {
  using State = typename D::State;
  using Move = typename D::Move;
  const D& d;
  bool is_goal(const State& s) const { return d.is_goal(s); }
  template <class F>
  void for_each_move(const State& s, F&& f) const { d.for_each_move(s, std::forward<F>(f)); }
  int h(const State&) const { return 0; }
  int cost(const State& s, const Move& m) const { return move_cost(d, s, m); }
};

template <Domain D>
PathResult<typename D::Move> iddfs(const D& d, const typename D::State& start, const IdaOptions& o = {},
                                   const Limits& lim = {}) {
  return ida_star(ZeroHeuristic<D>{d}, start, o, lim);
}

}  // namespace tansaku::search
