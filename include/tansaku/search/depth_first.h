// Depth-first search with a table of dead positions over any HeuristicDomain: it follows the
// child of least h first (or of least guide, where the domain has one: GuidedDomain; ties: the
// order generated) and never enters a state twice, so a
// state it has left without reaching the goal is proved dead and every transposition into
// it is cut at once. It finds one solution fast where dead ends are the difficulty and the
// goal depth is bounded (every move brings the goal closer, as when moves only remove
// pieces); no bound on the length, and where moves can be undone the path may wander. It is complete: ending
// without a solution, every reachable state was entered (a proof there is none), unless a
// child was cut by Limits::max_cost. A domain with `key(s)` (equal keys: states equally far
// from the goal, e.g. a canonical form under the goal's symmetries) is tabled by key; others
// by the state. An h of kDeadEnd or more says no goal is reachable: the child is skipped.
#pragma once
#include <algorithm>
#include <cstdint>
#include <unordered_set>
#include <vector>

#include "tansaku/core/error.h"
#include "tansaku/search/domain.h"
#include "tansaku/search/limits.h"
#include "tansaku/search/stats.h"

namespace tansaku::search {

template <HeuristicDomain D>
PathResult<typename D::Move> depth_first(const D& d, const typename D::State& start, const Limits& lim = {}) {
  using State = typename D::State;
  using Move = typename D::Move;
  constexpr bool keyed = requires(const State& s) {
    { d.key(s) } -> std::convertible_to<std::uint64_t>;
  };
  struct Child {
    Move move;
    State state;
    int order, g;  // order: h or the guide; g: the cost of the path to it
  };
  struct Frame {
    std::vector<Child> children;  // least order first
    std::size_t next = 0;
  };
  PathResult<Move> res;
  res.optimal = false;
  // The states entered: on the current path, or left without a solution (dead).
  std::unordered_set<std::uint64_t> keys;
  std::unordered_set<State, StateHash<D>> states(1024, StateHash<D>{&d});
  const auto enter = [&](const State& s) {
    if constexpr (keyed) return keys.insert(static_cast<std::uint64_t>(d.key(s))).second;
    else return states.insert(s).second;
  };
  const std::uint64_t per_entry = keyed ? sizeof(std::uint64_t) + 32 : sizeof(State) + 32;
  std::vector<Frame> path;  // path[i]: the state reached by i moves, and its children
  bool cut = false;         // a child beyond lim.max_cost: running dry proves nothing
  // Enters `s` at cost g: true if it is the goal; else pushes its frame of children.
  const auto expand = [&](const State& s, int g) {
    if (d.is_goal(s)) return true;
    if (lim.deadline) lim.deadline->poll();
    if (lim.progress && (res.stats.expanded & 0xffff) == 0)
      lim.progress->update("depth-first: depth {}, {} expanded", path.size(), res.stats.expanded);
    ++res.stats.expanded;
    Frame& f = path.emplace_back();
    d.for_each_move(s, [&](const Move& m, const State& t) {
      ++res.stats.generated;
      int h = static_cast<int>(d.h(t));
      if (h >= kDeadEnd) return;
      if constexpr (GuidedDomain<D>) h = static_cast<int>(d.guide(t));
      const int gt = g + move_cost(d, s, m);
      if (gt > lim.max_cost) {
        cut = true;
        return;
      }
      f.children.push_back({m, t, h, gt});
    });
    std::stable_sort(f.children.begin(), f.children.end(),
                     [](const Child& a, const Child& b) { return a.order < b.order; });
    return false;
  };
  enter(start);
  bool found = expand(start, 0);
  while (!found && !path.empty()) {
    Frame& f = path.back();
    if (f.next == f.children.size()) {
      path.pop_back();  // every child dead or entered before: this state is dead too
      continue;
    }
    const Child& c = f.children[f.next++];
    if (!enter(c.state)) continue;
    if ((keys.size() + states.size()) * per_entry > lim.memory)
      throw LimitError("depth-first search: the memory budget is exhausted (--memory)");
    const State t = c.state;  // (copied: the frames may move as the next one is pushed)
    const int g = c.g;
    found = expand(t, g);
  }
  res.stats.stored = keys.size() + states.size();
  if (!found) {
    res.exhausted = !cut;  // every reachable state entered, none the goal
    return res;
  }
  res.found = true;
  // The moves: each frame's child last taken (the goal itself has no frame).
  res.cost = 0;
  for (const Frame& f : path) {
    res.moves.push_back(f.children[f.next - 1].move);
    res.cost = f.children[f.next - 1].g;
  }
  return res;
}

}  // namespace tansaku::search
