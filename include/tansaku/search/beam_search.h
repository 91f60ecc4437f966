// Beam search over any HeuristicDomain: breadth-first, but each layer keeps only the `width`
// states of least h (ties: the order generated), and a state seen in an earlier layer is not
// kept again. Memory grows with width x depth, not with the space; no bound on the length,
// and a beam that runs dry proves nothing (a wider beam may find a solution).
#pragma once
#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/search/bfs.h"
#include "tansaku/search/domain.h"
#include "tansaku/search/limits.h"
#include "tansaku/search/stats.h"

namespace tansaku::search {

template <HeuristicDomain D>
PathResult<typename D::Move> beam_search(const D& d, const typename D::State& start, std::size_t width,
                                         const Limits& lim = {}) {
  using State = typename D::State;
  using Move = typename D::Move;
  struct Node {
    State state;
    std::uint32_t parent;
    Move move;
    int g;
  };
  PathResult<Move> res;
  std::vector<Node> nodes;
  std::unordered_map<State, std::uint32_t, StateHash<D>> seen(1024, StateHash<D>{&d});
  const auto finish = [&](std::uint32_t i) {
    res.found = true;
    res.cost = nodes[i].g;
    for (; i != 0; i = nodes[i].parent) res.moves.push_back(nodes[i].move);
    std::reverse(res.moves.begin(), res.moves.end());
    res.stats.stored = nodes.size();
    return res;
  };
  nodes.push_back({start, 0, Move{}, 0});
  seen.emplace(start, 0);
  if (d.is_goal(start)) return finish(0);
  width = std::max<std::size_t>(width, 1);
  const std::uint64_t per_node = detail::node_bytes<State>() + sizeof(Node);
  std::vector<std::uint32_t> layer{0};
  struct Candidate {
    int h;
    std::uint32_t node;
  };
  std::vector<Candidate> next;
  bool cut = false;  // a layer lost states to the width: running dry then proves nothing
  for (int depth = 1; !layer.empty(); ++depth) {
    if (lim.progress) lim.progress->update("beam: depth {}, {} states", depth, nodes.size());
    next.clear();
    for (const std::uint32_t i : layer) {
      if (lim.deadline) lim.deadline->poll();
      ++res.stats.expanded;
      const State s = nodes[i].state;
      const int g0 = nodes[i].g;
      std::int64_t goal = -1;
      d.for_each_move(s, [&](const Move& m, const State& t) {
        if (goal >= 0) return;
        ++res.stats.generated;
        if (seen.contains(t)) return;
        if ((nodes.size() + 1) * per_node > lim.memory)
          throw LimitError("beam search: the memory budget is exhausted (--memory)");
        const auto k = static_cast<std::uint32_t>(nodes.size());
        nodes.push_back({t, i, m, g0 + move_cost(d, s, m)});
        seen.emplace(t, k);
        if (d.is_goal(t)) goal = k;
        else next.push_back({d.h(t), k});
      });
      if (goal >= 0) return finish(static_cast<std::uint32_t>(goal));
    }
    if (next.size() > width) {
      cut = true;
      std::nth_element(next.begin(), next.begin() + static_cast<std::ptrdiff_t>(width), next.end(),
                       [](const Candidate& a, const Candidate& b) { return a.h != b.h ? a.h < b.h : a.node < b.node; });
      next.resize(width);
    }
    layer.clear();
    for (const auto& c : next) layer.push_back(c.node);
    std::sort(layer.begin(), layer.end());
  }
  res.stats.stored = nodes.size();
  if (!cut) {  // nothing was dropped: every reachable state was seen, and no goal among them
    res.exhausted = true;
    return res;
  }
  throw LimitError(
      fmt::format("beam search: the beam of width {} ran dry before a solution (every position kept "
                  "was a dead end or seen before); a wider --beam-width may find one",
                  width));
}

}  // namespace tansaku::search
