// Subgoal search: a goal reached in stages, where each stage's goal keeps every earlier
// stage's (the pieces of a puzzle put in place a few at a time). Each stage is an IDA* from
// where the previous stage ended to that stage's goal, under that stage's own lower bound;
// the stages' paths, one after the other, reach the last stage's goal, which is the domain's
// goal. Every stage is short and its bound is over few pieces, so no stage wanders on the
// plateaus a bound over the whole goal has; the answer is not proved least and has no bound
// on its length (result: optimal false, bound 0).
#pragma once
#include <concepts>
#include <vector>

#include "tansaku/search/domain.h"
#include "tansaku/search/ida_star.h"
#include "tansaku/search/limits.h"
#include "tansaku/search/stats.h"

namespace tansaku::search {

// is_goal(s, k): the goal of stage k (0 <= k < stages()) holds, and with it every earlier
// stage's; the last stage's goal is the domain's goal. h(s, k): a lower bound on the moves
// to stage k's goal.
template <class D>
concept StagedDomain = requires(const D& d, const typename D::State& s, int k) {
  typename D::Move;
  d.for_each_move(s, [](const typename D::Move&, const typename D::State&) {});
  { d.stages() } -> std::convertible_to<int>;
  { d.is_goal(s, k) } -> std::convertible_to<bool>;
  { d.h(s, k) } -> std::convertible_to<int>;
};

namespace detail {

// One stage of a staged domain as a HeuristicDomain, for ida_star.
template <StagedDomain D>
struct StageView {
  using State = typename D::State;
  using Move = typename D::Move;
  const D& d;
  int stage;
  bool is_goal(const State& s) const { return d.is_goal(s, stage); }
  int h(const State& s) const { return d.h(s, stage); }
  template <class F>
  void for_each_move(const State& s, F&& f) const {
    d.for_each_move(s, std::forward<F>(f));
  }
  int cost(const State& s, const Move& m) const { return move_cost(d, s, m); }
};

}  // namespace detail

// The stages in turn, each by IDA*. A stage whose IDA* sees every position without meeting
// its goal proves the final goal unreachable too (exhausted). The limits stop it as they stop
// IDA* (lim.proved is not told anything: a stage's bound is no bound on the whole).
template <StagedDomain D>
PathResult<typename D::Move> subgoal_search(const D& d, const typename D::State& start, const Limits& lim = {}) {
  using State = typename D::State;
  using Move = typename D::Move;
  PathResult<Move> res;
  res.optimal = false;
  Limits stage_lim = lim;
  stage_lim.proved = nullptr;
  State s = start;
  int cost = 0;
  for (int k = 0; k < d.stages(); ++k) {
    if (d.is_goal(s, k)) continue;
    // A domain that prunes moves by the ones before them may forget them at a stage's start
    // (a stage may need a move the last one would forbid).
    if constexpr (requires(State & x) { d.begin_stage(x); }) d.begin_stage(s);
    const detail::StageView<D> view{d, k};
    const PathResult<Move> r = ida_star(view, s, IdaOptions{}, stage_lim);
    res.stats.expanded += r.stats.expanded;
    res.stats.generated += r.stats.generated;
    if (!r.found) {
      res.exhausted = r.exhausted;
      return res;
    }
    // Follow the stage's moves to where it ended.
    for (const Move& m : r.moves) {
      bool moved = false;
      const State from = s;
      d.for_each_move(from, [&](const Move& mm, const State& t) {
        if (!moved && mm == m) {
          s = t;
          moved = true;
        }
      });
      cost += move_cost(d, from, m);
      res.moves.push_back(m);
    }
  }
  res.found = true;
  res.cost = cost;
  res.count = 1;
  return res;
}

}  // namespace tansaku::search
