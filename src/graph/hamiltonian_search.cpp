// Counting Hamiltonian paths and cycles by backtracking in parallel: the search is split into
// tasks by start vertex (one per symmetry class) and two-step prefix, run over TBB.
#include "tansaku/graph/hamiltonian_search.h"

#include <algorithm>
#include <atomic>
#include <mutex>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

namespace tansaku::graph {

DfsCount count_hamiltonian_dfs(const AdjacencyGraph& g, const std::vector<int>& symmetry, int start, bool closed,
                               std::uint64_t max_nodes, const search::Limits& limits) {
  const int n = static_cast<int>(g.size());
  struct Task {
    int start;
    std::vector<int> prefix;
    unsigned weight;  // vertices this start stands for
  };
  std::vector<int> starts;
  std::vector<unsigned> weight(n, 0);
  if (start >= 0) starts.push_back(start), weight[start] = 1;
  else if (closed) starts.push_back(0), weight[0] = 1;
  else
    for (int s = 0; s < n; ++s) {
      const int rep = symmetry.empty() || symmetry[s] < 0 ? s : symmetry[s];
      if (weight[rep]++ == 0) starts.push_back(rep);
    }
  std::vector<Task> tasks;
  for (int s : starts) {
    if (n <= 3) {
      tasks.push_back({s, {}, weight[s]});
      continue;
    }
    for (int z : g[s])
      for (int y : g[z])
        if (y != s) tasks.push_back({s, {z, y}, weight[s]});
  }
  DfsCount out;
  out.tasks = tasks.size();
  std::atomic<std::uint64_t> nodes{0};
  std::atomic<std::int64_t> budget{max_nodes == UINT64_MAX ? 0 : static_cast<std::int64_t>(max_nodes)};
  std::atomic<bool> cut{false};
  std::mutex mu;
  tbb::task_arena arena(static_cast<int>(std::max(1u, limits.threads)));
  arena.execute([&] {
    tbb::parallel_for(std::size_t{0}, tasks.size(), [&](std::size_t i) {
      DfsOptions o;
      o.closed = closed;
      o.start = tasks[i].start;
      o.prefix = tasks[i].prefix;
      Deadline own = limits.deadline ? *limits.deadline : Deadline();  // each task polls its own copy
      search::Limits task;
      task.deadline = &own;
      if (max_nodes != UINT64_MAX) o.shared_budget = &budget;
      if (cut) return;
      auto res = hamiltonian_dfs(g, o, [](const std::vector<int>&) { return true; }, task);
      nodes += res.nodes;
      if (!res.exhausted) cut = true;
      std::lock_guard lock(mu);
      out.count += to_mpz(res.count) * tasks[i].weight;
    });
  });
  out.nodes = nodes;
  out.complete = !cut;
  return out;
}

}  // namespace tansaku::graph
