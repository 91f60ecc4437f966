// Bidirectional breadth-first search: whole layers are expanded alternately from the start
// and (through predecessors) from the goal, always on the smaller frontier; the best meeting
// found in the first layer that meets is optimal.
#pragma once
#include <algorithm>
#include <limits>
#include <unordered_map>
#include <vector>

#include "tansaku/core/error.h"
#include "tansaku/search/bfs.h"

namespace tansaku::search {

template <BackwardDomain D>
PathResult<typename D::Move> bidirectional_bfs(const D& d, const typename D::State& start, const Limits& lim = {}) {
  using State = typename D::State;
  using Move = typename D::Move;
  struct Node {
    State state;
    std::uint32_t parent;  // toward start (forward side) or toward goal (backward side)
    Move move;
  };
  struct Side {
    std::vector<Node> nodes;
    std::unordered_map<State, std::uint32_t, StateHash<D>> seen;
    std::size_t begin = 0, end = 1;  // current frontier [begin, end)
    int depth = 0;
  };
  PathResult<Move> res;
  const State goal = d.goal();
  Side fw{{}, decltype(Side::seen)(1024, StateHash<D>{&d})}, bw{{}, decltype(Side::seen)(1024, StateHash<D>{&d})};
  fw.nodes.push_back({start, 0, Move{}});
  fw.seen.emplace(start, 0);
  bw.nodes.push_back({goal, 0, Move{}});
  bw.seen.emplace(goal, 0);

  auto build = [&](std::uint32_t fi, std::uint32_t bi) {
    res.found = true;
    for (std::uint32_t i = fi; i != 0; i = fw.nodes[i].parent) res.moves.push_back(fw.nodes[i].move);
    std::reverse(res.moves.begin(), res.moves.end());
    for (std::uint32_t i = bi; i != 0; i = bw.nodes[i].parent) res.moves.push_back(bw.nodes[i].move);
    res.cost = static_cast<int>(res.moves.size());
    res.stats.stored = fw.nodes.size() + bw.nodes.size();
  };
  if (d.is_goal(start)) {
    build(0, 0);
    return res;
  }
  const std::uint64_t per = detail::node_bytes<State>();
  while (fw.begin < fw.end && bw.begin < bw.end) {
    if (fw.depth + bw.depth >= lim.max_cost) break;
    const bool forward = (fw.end - fw.begin) <= (bw.end - bw.begin);
    Side& a = forward ? fw : bw;
    Side& b = forward ? bw : fw;
    int best = std::numeric_limits<int>::max();
    std::uint32_t best_a = 0, best_b = 0;
    for (std::size_t i = a.begin; i < a.end; ++i) {
      if (lim.deadline) lim.deadline->poll();
      ++res.stats.expanded;
      const State s = a.nodes[i].state;
      auto visit = [&](const Move& m, const State& t) {
        ++res.stats.generated;
        if (a.seen.contains(t)) return;
        if ((fw.nodes.size() + bw.nodes.size() + 1) * per > lim.memory)
          throw LimitError("bidirectional bfs: the memory budget is exhausted (--memory)");
        auto idx = static_cast<std::uint32_t>(a.nodes.size());
        a.seen.emplace(t, idx);
        a.nodes.push_back({t, static_cast<std::uint32_t>(i), m});
        if (auto it = b.seen.find(t); it != b.seen.end()) {
          // b's node depth: b.depth or less; compute it by walking (cheap, rare).
          int db = 0;
          for (std::uint32_t j = it->second; j != 0; j = b.nodes[j].parent) ++db;
          int total = a.depth + 1 + db;
          if (total < best) best = total, best_a = idx, best_b = it->second;
        }
      };
      if (forward)
        d.for_each_move(s, visit);
      else
        d.for_each_predecessor(s, visit);
    }
    a.begin = a.end;
    a.end = a.nodes.size();
    ++a.depth;
    if (lim.progress) lim.progress->update("bidirectional bfs: depths {}+{}, {} states", fw.depth, bw.depth,
                                           fw.nodes.size() + bw.nodes.size());
    if (best != std::numeric_limits<int>::max()) {
      if (forward) build(best_a, best_b); else build(best_b, best_a);
      return res;
    }
    if (lim.proved) lim.proved->raise(fw.depth + bw.depth + 1);  // the two balls do not meet
  }
  res.exhausted = fw.begin >= fw.end || bw.begin >= bw.end;
  res.stats.stored = fw.nodes.size() + bw.nodes.size();
  return res;
}

}  // namespace tansaku::search
