// Breadth-first search with path recovery over any Domain: optimal in number of moves.
// Every generated state is kept (hash map state -> parent), so memory is checked as it grows.
#pragma once
#include <unordered_map>
#include <vector>

#include "tansaku/core/error.h"
#include "tansaku/search/domain.h"
#include "tansaku/search/limits.h"
#include "tansaku/search/stats.h"

namespace tansaku::search {

namespace detail {
// Rough bytes per stored state in a node-based hash map.
template <class State>
constexpr std::uint64_t node_bytes() { return sizeof(State) * 2 + sizeof(std::uint32_t) + 48; }
}  // namespace detail

template <Domain D>
PathResult<typename D::Move> bfs(const D& d, const typename D::State& start, const Limits& lim = {}) {
  using State = typename D::State;
  using Move = typename D::Move;
  struct Node {
    State state;
    std::uint32_t parent;
    Move move;
  };
  PathResult<Move> res;
  std::vector<Node> nodes;
  std::unordered_map<State, std::uint32_t, StateHash<D>> seen(1024, StateHash<D>{&d});
  auto finish = [&](std::uint32_t i) {
    res.found = true;
    for (; i != 0; i = nodes[i].parent) res.moves.push_back(nodes[i].move);
    std::reverse(res.moves.begin(), res.moves.end());
    res.cost = static_cast<int>(res.moves.size());
    res.stats.stored = nodes.size();
  };
  nodes.push_back({start, 0, Move{}});
  seen.emplace(start, 0);
  if (d.is_goal(start)) {
    finish(0);
    return res;
  }
  std::size_t head = 0, layer_end = 1;
  int depth = 0;
  while (head < nodes.size()) {
    if (head == layer_end) {
      layer_end = nodes.size();
      if (++depth >= lim.max_cost) break;
      if (lim.proved) lim.proved->raise(depth);  // no goal within depth - 1 moves
      if (lim.progress) lim.progress->update("bfs: depth {}, {} states", depth, nodes.size());
    }
    if (lim.deadline) lim.deadline->poll();
    const auto cur = static_cast<std::uint32_t>(head++);
    ++res.stats.expanded;
    bool done = false;
    State s = nodes[cur].state;
    d.for_each_move(s, [&](const Move& m, const State& t) {
      if (done) return;
      ++res.stats.generated;
      if (seen.contains(t)) return;
      if ((nodes.size() + 1) * detail::node_bytes<State>() > lim.memory)
        throw LimitError("bfs: the memory budget is exhausted (--memory)");
      seen.emplace(t, static_cast<std::uint32_t>(nodes.size()));
      nodes.push_back({t, cur, m});
      if (d.is_goal(t)) done = true;
    });
    if (done) {
      finish(static_cast<std::uint32_t>(nodes.size() - 1));
      return res;
    }
  }
  res.exhausted = head >= nodes.size();
  res.stats.stored = nodes.size();
  return res;
}

}  // namespace tansaku::search
