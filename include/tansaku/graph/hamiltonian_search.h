// Exhaustive backtracking over Hamiltonian paths and cycles, for any graph (explicit, or
// implicit as a board's moves): Warnsdorff move order (fewest onward moves first) and
// dead-end pruning before each move — a vertex with no way in is fatal, and every vertex
// with only one way left must be the last one (a cycle allows none). Finds one path, lists
// them, or counts them; with no budget an empty result is a proof that none exists.
// Iterative, so paths of 100,000 vertices are fine. The budgets (deadline, progress line,
// threads of the parallel count) come as search::Limits; DfsOptions holds the search's own
// knobs (and a move budget, for a caller that hands over to another search when it is spent).
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "tansaku/core/count.h"
#include "tansaku/graph/graph.h"
#include "tansaku/search/limits.h"

namespace tansaku::graph {

struct DfsOptions {
  bool closed = false;          // cycles: the last vertex must be adjacent to the first
  int start = 0;                // first vertex
  std::vector<int> prefix;      // fixed next vertices after start, if any
  const std::vector<std::int64_t>* tie = nullptr;  // among equal degrees, larger key first
  bool high_first = false;      // without tie keys: among equal degrees, larger vertex first
  std::uint64_t max_nodes = UINT64_MAX;                // give up beyond this many moves
  std::atomic<std::int64_t>* shared_budget = nullptr;  // moves left for all searches together
};

struct DfsResult {
  bool exhausted = false;        // the whole tree was searched (a count or a proof)
  std::uint64_t nodes = 0;       // moves made
  unsigned __int128 count = 0;   // paths reported (hamiltonian_dfs: directed, from o.start)
};

// Calls on_path(path) for each Hamiltonian path (closed: cycle, as a path whose ends are
// adjacent) from o.start through o.prefix; on_path returns false to stop (then the result
// is not exhausted). Polls lim.deadline and updates lim.progress.
template <Graph G, class OnPath>
DfsResult hamiltonian_dfs(const G& g, const DfsOptions& o, OnPath&& on_path, const search::Limits& lim = {}) {
  DfsResult res;
  const int n = static_cast<int>(g.size());
  const int s = o.start;
  std::vector<int> path{s};
  if (n <= 1 || (o.closed && n < 3)) {  // a cycle needs three vertices
    res.exhausted = true;
    if (n == 1 && !o.closed) res.count = 1, on_path(path);
    return res;
  }
  // e[y]: ways y can still be entered or left: unvisited neighbours, plus (closed) the
  // edge back to the first vertex. c[0], c[1]: unvisited vertices with e == 0, e == 1.
  std::vector<char> visited(n, 0);
  std::vector<int> e(n, 0);
  int c[2] = {0, 0};
  auto bump = [&](int y, int delta) {
    if (e[y] < 2) --c[e[y]];
    e[y] += delta;
    if (e[y] < 2) ++c[e[y]];
  };
  for (int y = 0; y < n; ++y) {
    e[y] = g.degree(y);
    if (e[y] < 2) ++c[e[y]];
  }
  auto visit = [&](int x) {
    visited[x] = 1;
    if (e[x] < 2) --c[e[x]];
    // Cycles keep the edge back to the first vertex as a way out of its neighbours.
    if (!(o.closed && x == s))
      g.for_each_neighbor(x, [&](int y) {
        if (!visited[y]) bump(y, -1);
      });
  };
  auto unvisit = [&](int x) {
    if (!(o.closed && x == s))
      g.for_each_neighbor(x, [&](int y) {
        if (!visited[y]) bump(y, +1);
      });
    visited[x] = 0;
    if (e[x] < 2) ++c[e[x]];
  };
  std::vector<char> near_start(n, 0);
  g.for_each_neighbor(s, [&](int y) { near_start[y] = 1; });

  // The frames' candidates lie end to end in cand: the top frame's are its last `size`
  // entries, the first `tried` of them tried.
  struct Frame {
    std::uint32_t size, tried;
  };
  std::vector<Frame> stack;
  std::vector<int> cand;
  stack.reserve(n);
  path.reserve(n);
  int left = n - 1;  // unvisited vertices
  // Candidates from the head, pruned and ordered.
  auto expand = [&](int x) {
    const std::size_t begin = cand.size();
    g.for_each_neighbor(x, [&](int z) {
      if (visited[z]) return;
      if (left == 1) {
        if (!o.closed || near_start[z]) cand.push_back(z);
        return;
      }
      const int ez = e[z];
      // z must be able to go on: a real unvisited neighbour (not just the way back).
      if (ez - (o.closed && near_start[z]) < 1) return;
      const int c0 = c[0] - (ez == 0), c1 = c[1] - (ez == 1);
      if (c0 != 0 || c1 > (o.closed ? 0 : 1)) return;
      cand.push_back(z);
    });
    // Warnsdorff order: fewest ways on first; ties by the caller's preference.
    std::sort(cand.begin() + static_cast<std::ptrdiff_t>(begin), cand.end(), [&](int a, int b) {
      if (e[a] != e[b]) return e[a] < e[b];
      if (o.tie) return (*o.tie)[a] > (*o.tie)[b];
      return o.high_first ? a > b : a < b;
    });
    stack.push_back({static_cast<std::uint32_t>(cand.size() - begin), 0});
  };
  visit(s);
  for (int z : o.prefix) {
    if (visited[z] || !g.adjacent(path.back(), z)) {
      res.exhausted = true;  // not a path of the graph: nothing goes through it
      return res;
    }
    path.push_back(z);
    ++res.nodes;
    if (left == 1) {
      if (!o.closed || near_start[z]) ++res.count, on_path(path);
      res.exhausted = true;
      return res;
    }
    visit(z);
    --left;
  }
  expand(path.back());
  bool stop = false;
  while (!stack.empty() && !stop) {
    Frame& f = stack.back();
    if (f.tried == f.size) {
      cand.resize(cand.size() - f.size);
      stack.pop_back();
      if (!stack.empty()) {  // (the prefix stays: it is not on the stack)
        unvisit(path.back());
        path.pop_back();
        ++left;
      }
      continue;
    }
    const int z = cand[cand.size() - f.size + f.tried++];
    ++res.nodes;
    if (lim.deadline) lim.deadline->poll();
    if (res.nodes > o.max_nodes) return res;  // not exhausted
    if ((res.nodes & 4095) == 0) {
      if (o.shared_budget && o.shared_budget->fetch_sub(4096) < 4096) return res;
      if (lim.progress) lim.progress->update("Hamiltonian search: {} nodes, depth {} of {}", res.nodes, path.size(), n);
    }
    path.push_back(z);
    if (left == 1) {
      ++res.count;
      if (!on_path(path)) stop = true;
      path.pop_back();
      continue;
    }
    visit(z);
    --left;
    expand(z);
  }
  res.exhausted = !stop;
  return res;
}

// Every Hamiltonian path (closed: cycle) of the graph, from first vertices chosen by
// degree: when `once`, each path is reported once (from its end of smaller index) and each
// cycle once (through the vertex of least degree, in the direction whose second vertex is
// the smaller neighbour); otherwise every path found, in both directions (use it to stop
// at the first). The first vertices: a vertex of degree 1 (every path ends there), or
// every vertex, least degree first (ties: larger index first); a cycle passes through the
// vertex of least degree. A vertex of degree 0 (closed: < 2) or three of degree 1 rule
// everything out at once. o.start and o.prefix are not used; o.max_nodes is for the whole.
template <Graph G, class OnPath>
DfsResult each_hamiltonian(const G& g, const DfsOptions& o, bool once, OnPath&& on_path, const search::Limits& lim = {}) {
  DfsResult out;
  const int n = static_cast<int>(g.size());
  out.exhausted = true;
  if (n <= 1 || (o.closed && n < 3)) {
    if (n == 1 && !o.closed) out.count = 1, on_path(std::vector<int>{0});
    return out;
  }
  std::vector<int> deg1;
  std::vector<std::pair<int, int>> by_degree;  // (degree, -vertex)
  for (int v = 0; v < n; ++v) {
    const int d = g.degree(v);
    if (d == 0 || (o.closed && d < 2)) return out;
    if (d == 1) deg1.push_back(v);
    by_degree.emplace_back(d, -v);
  }
  if (deg1.size() > 2) return out;
  std::sort(by_degree.begin(), by_degree.end());
  std::vector<int> starts;
  bool from_smaller_end = false;
  if (o.closed) {
    starts = {-by_degree.front().second};
  } else if (!deg1.empty()) {
    starts = {deg1.front()};
  } else {
    for (auto [d, negv] : by_degree) starts.push_back(-negv);
    from_smaller_end = once;
  }
  for (int s : starts) {
    DfsOptions so = o;
    so.start = s;
    so.prefix.clear();
    so.max_nodes = o.max_nodes == UINT64_MAX ? UINT64_MAX : o.max_nodes - out.nodes;
    auto r = hamiltonian_dfs(
        g, so,
        [&](const std::vector<int>& p) {
          if (once && o.closed && p.size() > 2 && p[1] > p.back()) return true;  // the other direction of a cycle
          if (from_smaller_end && p.back() < s) return true;                       // counted from its other end
          ++out.count;
          return on_path(p);
        },
        lim);
    out.nodes += r.nodes;
    if (!r.exhausted) {
      out.exhausted = false;
      break;
    }
  }
  return out;
}

// Directed Hamiltonian paths from `start` (every vertex when start < 0; closed: directed
// cycles from vertex 0), counted by backtracking split into many independent tasks (first
// vertices up to the graph's symmetries, then the first two moves) run in parallel on
// limits.threads (each task polls its own copy of limits.deadline). `symmetry[v]` is the representative of v's class under the symmetries
// (empty, or -1 entries: none used). Stops (complete = false) beyond max_nodes moves.
struct DfsCount {
  bool complete = false;  // false: max_nodes ran out first (the count is partial)
  mpz_class count = 0;
  std::uint64_t nodes = 0;
  std::size_t tasks = 0;
};
DfsCount count_hamiltonian_dfs(const AdjacencyGraph& g, const std::vector<int>& symmetry, int start, bool closed,
                               std::uint64_t max_nodes, const search::Limits& limits);

}  // namespace tansaku::graph
