#include "knights/tour_dfs.h"

#include <algorithm>
#include <atomic>
#include <mutex>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

namespace tansaku::knights {

DfsResult tour_dfs(const std::vector<std::vector<int>>& adj, const DfsOptions& o,
                   const std::function<bool(const std::vector<int>&)>& on_tour) {
  DfsResult res;
  const int n = static_cast<int>(adj.size());
  const int s = o.start;
  std::vector<int> path{s};
  if (n == 1) {
    res.exhausted = true;
    if (!o.closed) res.count = 1, on_tour(path);
    return res;
  }
  // e[y]: ways y can still be entered or left: unvisited neighbours, plus (closed) the
  // edge back to the first square. c[0], c[1]: unvisited squares with e == 0, e == 1.
  std::vector<char> visited(n, 0);
  std::vector<int> e(n, 0);
  int c[2] = {0, 0};
  auto bump = [&](int y, int delta) {
    if (e[y] < 2) --c[e[y]];
    e[y] += delta;
    if (e[y] < 2) ++c[e[y]];
  };
  for (int y = 0; y < n; ++y) {
    e[y] = static_cast<int>(adj[y].size());
    if (e[y] < 2) ++c[e[y]];
  }
  auto visit = [&](int x) {
    visited[x] = 1;
    if (e[x] < 2) --c[e[x]];
    // Closed tours keep the edge back to the first square as a way out of its neighbours.
    if (!(o.closed && x == s))
      for (int y : adj[x])
        if (!visited[y]) bump(y, -1);
  };
  auto unvisit = [&](int x) {
    if (!(o.closed && x == s))
      for (int y : adj[x])
        if (!visited[y]) bump(y, +1);
    visited[x] = 0;
    if (e[x] < 2) ++c[e[x]];
  };
  std::vector<char> near_start(n, 0);
  for (int y : adj[s]) near_start[y] = 1;

  struct Frame {
    int cand[8];
    int count = 0, next = 0;
  };
  std::vector<Frame> stack;
  stack.reserve(n);
  int left = n - 1;  // unvisited squares
  // Candidates from the head, pruned and ordered.
  auto expand = [&](int x) {
    Frame f;
    for (int z : adj[x]) {
      if (visited[z]) continue;
      if (left == 1) {
        if (!o.closed || near_start[z]) f.cand[f.count++] = z;
        continue;
      }
      const int ez = e[z];
      // z must be able to go on: a real unvisited neighbour (not just the way home).
      if (ez - (o.closed && near_start[z]) < 1) continue;
      const int c0 = c[0] - (ez == 0), c1 = c[1] - (ez == 1);
      if (c0 != 0 || c1 > (o.closed ? 0 : 1)) continue;
      f.cand[f.count++] = z;
    }
    // Warnsdorff order: fewest ways on first; ties by the caller's preference.
    std::sort(f.cand, f.cand + f.count, [&](int a, int b) {
      if (e[a] != e[b]) return e[a] < e[b];
      if (o.tie) return (*o.tie)[a] > (*o.tie)[b];
      return a < b;
    });
    return f;
  };
  visit(s);
  for (int z : o.prefix) {
    const auto& nb = adj[path.back()];
    if (visited[z] || std::find(nb.begin(), nb.end(), z) == nb.end()) {
      res.exhausted = true;  // not a knight's path: no tour through it
      return res;
    }
    path.push_back(z);
    ++res.nodes;
    if (left == 1) {
      if (!o.closed || near_start[z]) ++res.count, on_tour(path);
      res.exhausted = true;
      return res;
    }
    visit(z);
    --left;
  }
  stack.push_back(expand(path.back()));
  bool stop = false;
  while (!stack.empty() && !stop) {
    Frame& f = stack.back();
    if (f.next == f.count) {
      stack.pop_back();
      if (!stack.empty()) {  // (the prefix stays: it is not on the stack)
        unvisit(path.back());
        path.pop_back();
        ++left;
      }
      continue;
    }
    const int z = f.cand[f.next++];
    ++res.nodes;
    if (o.deadline) o.deadline->poll();
    if (o.max_nodes && res.nodes > o.max_nodes) return res;  // not exhausted
    if (o.shared_budget && (res.nodes & 4095) == 0 && o.shared_budget->fetch_sub(4096) < 4096) return res;
    path.push_back(z);
    if (left == 1) {
      ++res.count;
      if (!on_tour(path)) stop = true;
      path.pop_back();
      continue;
    }
    visit(z);
    --left;
    stack.push_back(expand(z));
  }
  res.exhausted = !stop;
  return res;
}

DfsCount count_tours_dfs(const std::vector<std::vector<int>>& adj, const std::vector<int>& symmetry, int start,
                         bool closed, unsigned threads, const Deadline* deadline, std::uint64_t max_nodes) {
  const int n = static_cast<int>(adj.size());
  struct Task {
    int start;
    std::vector<int> prefix;
    unsigned weight;  // squares this start stands for
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
    for (int z : adj[s])
      for (int y : adj[z])
        if (y != s) tasks.push_back({s, {z, y}, weight[s]});
  }
  DfsCount out;
  out.tasks = tasks.size();
  std::atomic<std::uint64_t> nodes{0};
  std::atomic<std::int64_t> budget{max_nodes ? static_cast<std::int64_t>(max_nodes) : 0};
  std::atomic<bool> cut{false};
  std::mutex mu;
  tbb::task_arena arena(static_cast<int>(std::max(1u, threads)));
  arena.execute([&] {
    tbb::parallel_for(std::size_t{0}, tasks.size(), [&](std::size_t i) {
      DfsOptions o;
      o.closed = closed;
      o.start = tasks[i].start;
      o.prefix = tasks[i].prefix;
      Deadline own = deadline ? *deadline : Deadline();  // each task polls its own copy
      o.deadline = &own;
      if (max_nodes) o.shared_budget = &budget;
      if (cut) return;
      auto res = tour_dfs(adj, o, [](const std::vector<int>&) { return true; });
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

}  // namespace tansaku::knights
