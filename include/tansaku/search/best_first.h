// Best-first search with duplicate detection over any HeuristicDomain: weighted A* (the
// frontier ordered by g + W h, W = num/den >= 1; a state reached again more cheaply is
// reopened, so with an admissible h the solution costs at most W times the optimum; W = 1 is
// A*, optimal) and greedy best-first (ordered by h alone, no reopening: fast, no bound).
// Every generated state is kept, so memory is checked as it grows.
#pragma once
#include <algorithm>
#include <cstdint>
#include <queue>
#include <unordered_map>
#include <vector>

#include "tansaku/core/error.h"
#include "tansaku/search/bfs.h"
#include "tansaku/search/domain.h"
#include "tansaku/search/limits.h"
#include "tansaku/search/stats.h"

namespace tansaku::search {

struct BestFirstOptions {
  std::int64_t weight_num = 1, weight_den = 1;  // W = num / den >= 1 (weighted A*)
  bool greedy = false;                          // order by h alone (W ignored)
};

template <HeuristicDomain D>
PathResult<typename D::Move> best_first(const D& d, const typename D::State& start, const BestFirstOptions& o = {},
                                        const Limits& lim = {}) {
  using State = typename D::State;
  using Move = typename D::Move;
  struct Node {
    State state;
    std::uint32_t parent;
    Move move;
    int g, h;
  };
  struct Entry {
    std::int64_t key;  // den*g + num*h, or h (greedy)
    int g;
    std::uint32_t node;
    // The smallest key first; among equals the deeper node (closer to a goal, as a rule).
    bool operator<(const Entry& e) const { return key != e.key ? key > e.key : g < e.g; }
  };
  PathResult<Move> res;
  std::vector<Node> nodes;
  std::unordered_map<State, std::uint32_t, StateHash<D>> seen(1024, StateHash<D>{&d});
  std::priority_queue<Entry> open;
  const auto key = [&](int g, int h) {
    return o.greedy ? static_cast<std::int64_t>(h) : o.weight_den * g + o.weight_num * static_cast<std::int64_t>(h);
  };
  const std::uint64_t per_node = detail::node_bytes<State>() + sizeof(Node) + sizeof(Entry);
  nodes.push_back({start, 0, Move{}, 0, d.h(start)});
  seen.emplace(start, 0);
  open.push({key(0, nodes[0].h), 0, 0});
  while (!open.empty()) {
    const Entry e = open.top();
    open.pop();
    if (e.g != nodes[e.node].g) continue;  // reached again more cheaply since: a stale entry
    if (d.is_goal(nodes[e.node].state)) {
      res.found = true;
      res.cost = e.g;
      for (std::uint32_t i = e.node; i != 0; i = nodes[i].parent) res.moves.push_back(nodes[i].move);
      std::reverse(res.moves.begin(), res.moves.end());
      res.stats.stored = nodes.size();
      return res;
    }
    if (lim.deadline) lim.deadline->poll();
    if (lim.progress && (res.stats.expanded & 0xffff) == 0)
      lim.progress->update("{}: {} states, {} expanded", o.greedy ? "greedy" : "weighted a*", nodes.size(),
                           res.stats.expanded);
    ++res.stats.expanded;
    const State s = nodes[e.node].state;
    d.for_each_move(s, [&](const Move& m, const State& t) {
      ++res.stats.generated;
      const int g = e.g + move_cost(d, s, m);
      if (g > lim.max_cost) return;
      auto it = seen.find(t);
      if (it != seen.end()) {
        Node& n = nodes[it->second];
        if (o.greedy || g >= n.g) return;
        n.parent = e.node, n.move = m, n.g = g;  // a cheaper path: reopened
        open.push({key(g, n.h), g, it->second});
        return;
      }
      if ((nodes.size() + open.size() + 1) * per_node > lim.memory)
        throw LimitError("best-first search: the memory budget is exhausted (--memory)");
      const auto i = static_cast<std::uint32_t>(nodes.size());
      nodes.push_back({t, e.node, m, g, d.h(t)});
      seen.emplace(t, i);
      open.push({key(g, nodes.back().h), g, i});
    });
  }
  res.exhausted = true;  // every reachable state was generated: no goal among them
  res.stats.stored = nodes.size();
  return res;
}

// Weighted A*: W = num / den (>= 1); the answer costs at most W times the optimum.
template <HeuristicDomain D>
PathResult<typename D::Move> weighted_astar(const D& d, const typename D::State& start, std::int64_t num,
                                            std::int64_t den, const Limits& lim = {}) {
  return best_first(d, start, BestFirstOptions{num, den, false}, lim);
}

// Greedy best-first: the state of least h first.
template <HeuristicDomain D>
PathResult<typename D::Move> greedy_best_first(const D& d, const typename D::State& start, const Limits& lim = {}) {
  return best_first(d, start, BestFirstOptions{1, 1, true}, lim);
}

}  // namespace tansaku::search
