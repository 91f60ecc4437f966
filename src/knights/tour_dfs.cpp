#include "knights/tour_dfs.h"

#include <algorithm>

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
  stack.push_back(expand(s));
  bool stop = false;
  while (!stack.empty() && !stop) {
    Frame& f = stack.back();
    if (f.next == f.count) {
      stack.pop_back();
      if (!stack.empty()) {
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

}  // namespace tansaku::knights
