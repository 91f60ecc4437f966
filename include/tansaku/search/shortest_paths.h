// Counting (and listing) every shortest solution by layered breadth-first search: each
// state of a layer carries the number of shortest paths that reach it, so the count costs
// one BFS instead of one probe per solution (IDA* in count mode enumerates them one by
// one). Listing walks the stored layers back from the goal through predecessors.
#pragma once
#include <algorithm>
#include <limits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "tansaku/core/error.h"
#include "tansaku/search/bfs.h"
#include "tansaku/search/domain.h"
#include "tansaku/search/limits.h"
#include "tansaku/search/stats.h"

namespace tansaku::search {

// found: cost = shortest length, count = number of shortest move sequences, all = up to
// max_all of them (only when max_all > 0; needs predecessors), moves = the first one.
// exhausted without found: the goal is unreachable.
template <Domain D>
PathResult<typename D::Move> shortest_paths(const D& d, const typename D::State& start, std::size_t max_all,
                                            const Limits& lim = {}) {
  using State = typename D::State;
  using Move = typename D::Move;
  using Layer = std::unordered_map<State, unsigned __int128, StateHash<D>>;
  PathResult<Move> res;
  const StateHash<D> hasher{&d};
  std::unordered_set<State, StateHash<D>> older(1024, hasher);  // layers before the current one
  std::vector<Layer> layers;
  layers.emplace_back(16, hasher);
  layers.back().emplace(start, 1);
  const std::uint64_t per = detail::node_bytes<State>() + sizeof(unsigned __int128);
  std::uint64_t stored = 1;
  std::vector<const State*> goals;  // every goal state of the last layer (a goal may be a set)
  while (true) {
    Layer& cur = layers.back();
    for (const auto& [s, c] : cur)
      if (d.is_goal(s)) {
        res.found = true;
        res.count += to_mpz(c);
        goals.push_back(&s);
      }
    if (res.found) break;
    if (cur.empty()) {
      res.exhausted = true;
      res.stats.stored = stored;
      return res;
    }
    if (static_cast<int>(layers.size()) - 1 >= lim.max_cost) return res;
    Layer next(cur.size() * 2 + 16, hasher);
    for (const auto& entry : cur) {
      const State& s = entry.first;
      const auto c = entry.second;  // not a structured binding: clang 14 cannot capture those
      if (lim.deadline) lim.deadline->poll();
      ++res.stats.expanded;
      d.for_each_move(s, [&](const Move&, const State& t) {
        ++res.stats.generated;
        if (older.contains(t) || cur.contains(t)) return;
        auto [it, fresh] = next.try_emplace(t, 0);
        it->second += c;
        if (fresh && ++stored * per > lim.memory)
          throw LimitError("counting shortest solutions: the memory budget is exhausted (--memory)");
      });
    }
    for (const auto& [s, c] : cur) older.insert(s);
    if (lim.progress)
      lim.progress->update("shortest paths: depth {}, {} states", layers.size(), stored);
    layers.push_back(std::move(next));
  }
  res.cost = static_cast<int>(layers.size()) - 1;
  res.stats.stored = stored;
  // Walk back from the goal: a predecessor one layer down lies on a shortest path.
  auto walk = [&](auto&& self, const State& s, int depth, std::vector<Move>& tail, std::size_t limit) -> void {
    if (res.all.size() >= limit) return;
    if (depth == 0) {
      res.all.emplace_back(tail.rbegin(), tail.rend());
      return;
    }
    d.for_each_predecessor(s, [&](const Move& m, const State& p) {
      if (res.all.size() >= limit || !layers[depth - 1].contains(p)) return;
      tail.push_back(m);
      self(self, p, depth - 1, tail, limit);
      tail.pop_back();
    });
  };
  if constexpr (BackwardDomain<D>) {
    std::vector<Move> tail;
    for (const State* g : goals) walk(walk, *g, res.cost, tail, std::max<std::size_t>(max_all, 1));
    res.moves = res.all.front();
    if (max_all == 0) res.all.clear();
  } else {
    throw InputError("listing shortest solutions needs predecessors, which this puzzle does not provide");
  }
  return res;
}

}  // namespace tansaku::search
