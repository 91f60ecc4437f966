// The graph module on graphs that are not puzzles: complete graphs, grid graphs, cycles,
// hypercubes, the Petersen graph (not bipartite, no Hamiltonian cycle). The frontier dp
// against known counts (OEIS) and backtracking; backtracking's modes (one, each once,
// directed counts, the parallel count, budgets, order); Warnsdorff + Posa paths and cycles,
// each checked here independently.
#include <gtest/gtest.h>

#include <set>

#include "tansaku/core/error.h"
#include "tansaku/graph/frontier_dp.h"
#include "tansaku/graph/hamiltonian_search.h"
#include "tansaku/graph/warnsdorff_posa.h"

using namespace tansaku::graph;

namespace {

AdjacencyGraph complete_graph(int n) {
  std::vector<std::pair<int, int>> e;
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) e.emplace_back(a, b);
  return AdjacencyGraph(n, e);
}

AdjacencyGraph grid_graph(int rows, int cols) {  // P_rows x P_cols, numbered row-major
  std::vector<std::pair<int, int>> e;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const int v = r * cols + c;
      if (c + 1 < cols) e.emplace_back(v, v + 1);
      if (r + 1 < rows) e.emplace_back(v, v + cols);
    }
  return AdjacencyGraph(rows * cols, e);
}

AdjacencyGraph cycle_graph(int n) {
  std::vector<std::pair<int, int>> e;
  for (int i = 0; i < n; ++i) e.emplace_back(i, (i + 1) % n);
  return AdjacencyGraph(n, e);
}

AdjacencyGraph path_graph(int n) {
  std::vector<std::pair<int, int>> e;
  for (int i = 0; i + 1 < n; ++i) e.emplace_back(i, i + 1);
  return AdjacencyGraph(n, e);
}

AdjacencyGraph hypercube(int d) {
  std::vector<std::pair<int, int>> e;
  for (int v = 0; v < (1 << d); ++v)
    for (int b = 0; b < d; ++b)
      if (!(v >> b & 1)) e.emplace_back(v, v | 1 << b);
  return AdjacencyGraph(1 << d, e);
}

AdjacencyGraph torus(int rows, int cols) {  // C_rows x C_cols
  std::vector<std::pair<int, int>> e;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) e.emplace_back(r * cols + c, r * cols + (c + 1) % cols), e.emplace_back(r * cols + c, (r + 1) % rows * cols + c);
  return AdjacencyGraph(rows * cols, e);
}

AdjacencyGraph petersen() {
  std::vector<std::pair<int, int>> e;
  for (int i = 0; i < 5; ++i) e.emplace_back(i, (i + 1) % 5), e.emplace_back(i, i + 5), e.emplace_back(5 + i, 5 + (i + 2) % 5);
  return AdjacencyGraph(10, e);
}

// Independent check: every vertex once, consecutive ones adjacent (closed: the ends too).
void expect_hamiltonian(const AdjacencyGraph& g, const std::vector<int>& p, bool closed) {
  ASSERT_EQ(static_cast<std::int64_t>(p.size()), g.size());
  std::vector<char> seen(p.size(), 0);
  for (std::size_t i = 0; i < p.size(); ++i) {
    ASSERT_TRUE(p[i] >= 0 && p[i] < g.size());
    EXPECT_FALSE(seen[p[i]]) << "vertex " << p[i] << " twice";
    seen[p[i]] = 1;
    if (i) {
      EXPECT_TRUE(g.adjacent(p[i - 1], p[i])) << p[i - 1] << " - " << p[i];
    }
  }
  if (closed) {
    EXPECT_TRUE(g.adjacent(p.back(), p.front()));
  }
}

std::string ham(const AdjacencyGraph& g, bool closed, int endpoint = -1, unsigned threads = 2) {
  tansaku::search::Limits l;
  l.threads = threads;
  return count_hamiltonian(g, {closed, endpoint}, l).count.get_str();
}

// Directed Hamiltonian paths (cycles) from s by backtracking.
std::uint64_t dfs_from(const AdjacencyGraph& g, int s, bool closed) {
  DfsOptions o;
  o.closed = closed;
  o.start = s;
  auto res = hamiltonian_dfs(g, o, [&](const std::vector<int>& p) {
    expect_hamiltonian(g, p, closed);
    return true;
  });
  EXPECT_TRUE(res.exhausted);
  return static_cast<std::uint64_t>(res.count);
}

// Undirected Hamiltonian paths (or cycles) by backtracking from every first vertex.
std::uint64_t ham_dfs(const AdjacencyGraph& g, bool closed) {
  const int n = static_cast<int>(g.size());
  std::uint64_t directed = 0;
  for (int s = 0; s < (closed ? 1 : n); ++s) directed += dfs_from(g, s, closed);
  return n == 1 ? directed : directed / 2;
}

// Each path (cycle) once, listed: every one valid and none twice in either direction.
std::uint64_t each_once(const AdjacencyGraph& g, bool closed) {
  DfsOptions o;
  o.closed = closed;
  std::set<std::vector<int>> seen;
  auto res = each_hamiltonian(g, o, true, [&](const std::vector<int>& p) {
    expect_hamiltonian(g, p, closed);
    std::vector<int> key = p;
    if (closed) {  // rotate to 0 first, then the smaller neighbour second
      std::rotate(key.begin(), std::find(key.begin(), key.end(), 0), key.end());
      if (key.size() > 2 && key[1] > key.back()) std::reverse(key.begin() + 1, key.end());
    } else if (key.front() > key.back()) {
      std::reverse(key.begin(), key.end());
    }
    EXPECT_TRUE(seen.insert(key).second) << "reported twice";
    return true;
  });
  EXPECT_TRUE(res.exhausted);
  EXPECT_EQ(static_cast<std::uint64_t>(res.count), seen.size());
  return seen.size();
}

}  // namespace

TEST(FrontierDp, CompleteGraphs) {  // labels: tsan
  std::uint64_t fact = 1;  // (n-1)!
  for (int n = 3; n <= 10; ++n) {
    fact *= static_cast<std::uint64_t>(n - 1);
    const AdjacencyGraph g = complete_graph(n);
    EXPECT_EQ(ham(g, false), std::to_string(fact * n / 2)) << "K_" << n << " paths: n!/2";
    EXPECT_EQ(ham(g, true), std::to_string(fact / 2)) << "K_" << n << " cycles: (n-1)!/2";
    EXPECT_EQ(ham(g, false, n - 1), std::to_string(fact)) << "K_" << n << " paths from a vertex: (n-1)!";
  }
  EXPECT_EQ(ham(complete_graph(2), false), "1");
  EXPECT_EQ(ham(complete_graph(2), true), "0");  // a cycle needs 3 vertices
}

TEST(FrontierDp, GridGraphCycles) {  // labels: tsan
  for (int n = 2; n <= 12; ++n) EXPECT_EQ(ham(grid_graph(2, n), true), "1") << "2x" << n;
  EXPECT_EQ(ham(grid_graph(4, 4), true), "6");  // OEIS A003763
  EXPECT_EQ(ham(grid_graph(6, 6), true), "1072");
  EXPECT_EQ(ham(grid_graph(8, 8), true), "4638576");
  EXPECT_EQ(ham(grid_graph(10, 10), true), "467260456608");
  EXPECT_EQ(ham(grid_graph(3, 5), true), "0");  // odd number of vertices
  EXPECT_EQ(ham(grid_graph(4, 5), true), "14");  // OEIS A006864 (4 x n): 1, 2, 6, 14, 37
  EXPECT_EQ(ham(grid_graph(4, 6), true), "37");
}

TEST(FrontierDp, GridGraphPathsAgreeWithBacktracking) {  // labels: tsan
  for (int r = 1; r <= 4; ++r)
    for (int c = r; c <= 5; ++c) {
      const AdjacencyGraph g = grid_graph(r, c);
      EXPECT_EQ(ham(g, false), std::to_string(ham_dfs(g, false))) << r << "x" << c;
      EXPECT_EQ(ham(g, true), std::to_string(ham_dfs(g, true))) << r << "x" << c << " closed";
    }
  EXPECT_EQ(ham(grid_graph(3, 3), false), "20");  // OEIS A096969: 1, 4, 20, 276, 4324, 229348
  EXPECT_EQ(ham(grid_graph(4, 4), false), "276");
  EXPECT_EQ(ham(grid_graph(5, 5), false), "4324");
  EXPECT_EQ(ham(grid_graph(6, 6), false), "229348");
}

TEST(FrontierDp, CyclesAndPetersen) {  // labels: tsan
  for (int n = 3; n <= 9; ++n) {
    EXPECT_EQ(ham(cycle_graph(n), true), "1") << "C_" << n;
    EXPECT_EQ(ham(cycle_graph(n), false), std::to_string(n)) << "C_" << n;
  }
  const AdjacencyGraph p = petersen();
  EXPECT_EQ(ham(p, true), "0");  // the Petersen graph is not Hamiltonian
  EXPECT_EQ(ham(p, false), std::to_string(ham_dfs(p, false)));
  EXPECT_NE(ham(p, false), "0");
  EXPECT_FALSE(find_hamiltonian(p, {true, -1}));
  auto path = find_hamiltonian(p, {false, 3});
  ASSERT_TRUE(path);
  EXPECT_EQ(path->front(), 3);
  expect_hamiltonian(p, *path, false);
}

// 1 and 2 threads count the same cycles and paths; the cycles are the published 1,072
// (OEIS A003763: Hamiltonian cycles on the 6x6 grid graph).
TEST(FrontierDp, ThreadsAgree) {  // labels: tsan
  const AdjacencyGraph g = grid_graph(6, 6);
  for (bool closed : {true, false}) {
    const std::string one = ham(g, closed, -1, 1);
    EXPECT_EQ(ham(g, closed, -1, 2), one) << (closed ? "cycles" : "paths");
    EXPECT_NE(one, "0");
  }
  EXPECT_EQ(ham(g, true, -1, 1), "1072");
}

// The count does not depend on the vertex order: a grid numbered along its long side has a
// frontier of more than 16 vertices (128-bit states), along its short side 5 (64-bit).
TEST(FrontierDp, WideStatesAgreeWithNarrowOrder) {  // labels: tsan
  const int rows = 2, cols = 17;
  const AdjacencyGraph wide = grid_graph(rows, cols);  // row-major: rows of 17
  auto at = [&](int v) { return (v % cols) * rows + v / cols; };
  std::vector<std::pair<int, int>> e;
  for (int v = 0; v < rows * cols; ++v)
    for (int w : wide[v])
      if (v < w) e.emplace_back(at(v), at(w));
  const AdjacencyGraph narrow(rows * cols, e);  // column-major
  EXPECT_GT(frontier_width(wide), 16);
  EXPECT_LE(frontier_width(narrow), 4);
  for (bool closed : {true, false}) {
    const std::string n = ham(narrow, closed), w = ham(wide, closed);
    EXPECT_EQ(w, n) << (closed ? "cycles" : "paths");
    EXPECT_NE(n, "0");
  }
  EXPECT_EQ(ham(wide, false, 0), ham(narrow, false, at(0)));
}

TEST(HamiltonianSearch, DirectedCountsFromAVertex) {
  std::uint64_t fact = 1;  // (n-1)!
  for (int n = 2; n <= 8; ++n) {
    fact *= static_cast<std::uint64_t>(n - 1);
    EXPECT_EQ(dfs_from(complete_graph(n), 0, false), fact) << "K_" << n;
    EXPECT_EQ(dfs_from(complete_graph(n), n - 1, true), n < 3 ? 0 : fact) << "K_" << n << " closed";
  }
  EXPECT_EQ(dfs_from(cycle_graph(7), 3, false), 2u);
  EXPECT_EQ(dfs_from(cycle_graph(7), 3, true), 2u);
  EXPECT_EQ(dfs_from(path_graph(6), 0, false), 1u);
  EXPECT_EQ(dfs_from(path_graph(6), 2, false), 0u);
  EXPECT_EQ(dfs_from(petersen(), 0, true), 0u);  // a proof: the search is exhausted
  EXPECT_EQ(dfs_from(AdjacencyGraph(1, {}), 0, false), 1u);
  EXPECT_EQ(dfs_from(AdjacencyGraph(1, {}), 0, true), 0u);
}

TEST(HamiltonianSearch, EachOnceAgreesWithTheDp) {
  for (int n = 1; n <= 7; ++n) {
    EXPECT_EQ(std::to_string(each_once(complete_graph(n), false)), ham(complete_graph(n), false)) << "K_" << n;
    EXPECT_EQ(std::to_string(each_once(complete_graph(n), true)), ham(complete_graph(n), true)) << "K_" << n;
  }
  for (auto [r, c] : {std::pair{3, 3}, std::pair{3, 4}, std::pair{4, 4}, std::pair{2, 7}}) {
    EXPECT_EQ(std::to_string(each_once(grid_graph(r, c), false)), ham(grid_graph(r, c), false)) << r << "x" << c;
    EXPECT_EQ(std::to_string(each_once(grid_graph(r, c), true)), ham(grid_graph(r, c), true)) << r << "x" << c;
  }
  EXPECT_EQ(std::to_string(each_once(petersen(), false)), ham(petersen(), false));
  EXPECT_EQ(each_once(petersen(), true), 0u);
  EXPECT_EQ(each_once(cycle_graph(8), true), 1u);
  EXPECT_EQ(each_once(path_graph(9), false), 1u);  // from its degree-1 end
  EXPECT_EQ(each_once(hypercube(3), true), 6u);    // Q_3 has 6 Hamiltonian cycles
}

TEST(HamiltonianSearch, DegreesDecideWithoutSearching) {
  // A star K_1,3: three vertices of degree 1. An isolated vertex. A cycle through a leaf.
  DfsOptions o;
  auto none = [](const std::vector<int>&) { return true; };
  auto star = each_hamiltonian(AdjacencyGraph(4, {{0, 1}, {0, 2}, {0, 3}}), o, true, none);
  EXPECT_TRUE(star.exhausted);
  EXPECT_EQ(star.nodes, 0u);
  EXPECT_EQ(each_hamiltonian(AdjacencyGraph(3, {{0, 1}}), o, true, none).nodes, 0u);
  o.closed = true;
  auto leaf = each_hamiltonian(AdjacencyGraph(4, {{0, 1}, {1, 2}, {2, 0}, {2, 3}}), o, true, none);
  EXPECT_TRUE(leaf.exhausted);
  EXPECT_EQ(leaf.count, 0u);
  EXPECT_EQ(leaf.nodes, 0u);
}

TEST(HamiltonianSearch, FirstPathFollowsTheOrder) {
  const AdjacencyGraph k4 = complete_graph(4);
  auto first = [&](DfsOptions o) {
    std::vector<int> got;
    auto res = hamiltonian_dfs(k4, o, [&](const std::vector<int>& p) {
      got = p;
      return false;
    });
    EXPECT_FALSE(res.exhausted);  // stopped at the first
    EXPECT_EQ(res.count, 1u);
    return got;
  };
  DfsOptions o;
  EXPECT_EQ(first(o), (std::vector<int>{0, 1, 2, 3}));
  o.high_first = true;
  EXPECT_EQ(first(o), (std::vector<int>{0, 3, 2, 1}));
  const std::vector<std::int64_t> tie = {0, 5, 9, 7};  // larger key first
  o.tie = &tie;
  EXPECT_EQ(first(o), (std::vector<int>{0, 2, 3, 1}));
  o.tie = nullptr;
  o.high_first = false;
  o.prefix = {2};
  EXPECT_EQ(first(o), (std::vector<int>{0, 2, 1, 3}));
  // A prefix that is not a path of the graph: nothing goes through it.
  o.prefix = {2, 2};
  auto res = hamiltonian_dfs(k4, o, [](const std::vector<int>&) { return true; });
  EXPECT_TRUE(res.exhausted);
  EXPECT_EQ(res.count, 0u);
}

TEST(HamiltonianSearch, BudgetStopsWithoutAProof) {
  // Two 4 x 4 grids joined at one corner: no Hamiltonian cycle, found out only by search.
  std::vector<std::pair<int, int>> e;
  for (int part : {0, 16})
    for (int v = 0; v < 16; ++v) {
      if (v % 4 < 3) e.emplace_back(part + v, part + v + 1);
      if (v < 12) e.emplace_back(part + v, part + v + 4);
    }
  e.emplace_back(15, 16);
  const AdjacencyGraph g(32, e);
  DfsOptions o;
  o.closed = true;
  auto all = hamiltonian_dfs(g, o, [](const std::vector<int>&) { return true; });
  ASSERT_TRUE(all.exhausted);
  EXPECT_EQ(all.count, 0u);
  ASSERT_GT(all.nodes, 10u);
  o.max_nodes = all.nodes / 2;
  auto cut = hamiltonian_dfs(g, o, [](const std::vector<int>&) { return true; });
  EXPECT_FALSE(cut.exhausted);
  EXPECT_EQ(cut.nodes, o.max_nodes + 1);
  o.max_nodes = 2;
  auto cut_each = each_hamiltonian(g, o, true, [](const std::vector<int>&) { return true; });
  EXPECT_FALSE(cut_each.exhausted);
  EXPECT_EQ(cut_each.nodes, 3u);
}

TEST(HamiltonianSearch, ParallelCountAgreesWithOneByOne) {  // labels: tsan
  tansaku::search::Limits two;
  two.threads = 2;
  for (const AdjacencyGraph& g : {grid_graph(4, 4), grid_graph(3, 5), complete_graph(6), petersen(), hypercube(4)}) {
    const int n = static_cast<int>(g.size());
    std::uint64_t all = 0;
    for (int s = 0; s < n; ++s) all += dfs_from(g, s, false);
    auto res = count_hamiltonian_dfs(g, {}, -1, false, UINT64_MAX, two);
    ASSERT_TRUE(res.complete);
    EXPECT_EQ(tansaku::to_u64(res.count), all);
    EXPECT_GT(res.tasks, 1u);
    auto closed = count_hamiltonian_dfs(g, {}, -1, true, UINT64_MAX, two);
    EXPECT_EQ(tansaku::to_u64(closed.count), dfs_from(g, 0, true));
    auto from = count_hamiltonian_dfs(g, {}, n - 1, false, UINT64_MAX, two);
    EXPECT_EQ(tansaku::to_u64(from.count), dfs_from(g, n - 1, false));
  }
  // Symmetry classes: on a cycle every vertex stands for all of them.
  std::vector<int> rep(9, 0);
  EXPECT_EQ(tansaku::to_u64(count_hamiltonian_dfs(cycle_graph(9), rep, -1, false, UINT64_MAX, two).count), 18u);
  auto cut = count_hamiltonian_dfs(grid_graph(6, 6), {}, -1, false, 100000, two);
  EXPECT_FALSE(cut.complete);
}

TEST(WarnsdorffPosa, PathsAndCyclesOfLargeGraphs) {
  struct Case {
    AdjacencyGraph g;
    bool closed;
  };
  std::vector<Case> cases = {{grid_graph(40, 41), false}, {grid_graph(30, 30), false}, {torus(31, 40), true}, {hypercube(12), true},
                             {complete_graph(50), true},  {grid_graph(1, 30), false}, {cycle_graph(101), true}};
  for (bool keep_first : {true, false}) {
    for (const Case& c : cases) {
      PosaStats st;
      WarnsdorffPosa<AdjacencyGraph> w(c.g, st);
      PosaOptions o;
      o.keep_first = keep_first;
      o.work = 2000 * static_cast<std::uint64_t>(c.g.size()) + 100000;
      o.seed = 7;
      ASSERT_TRUE(w.walk(0, [](int v) { return -v; }, o)) << c.g.size();
      if (keep_first) {
        EXPECT_EQ(w.path().front(), 0);
      }
      expect_hamiltonian(c.g, w.path(), false);
      if (c.closed) {
        ASSERT_TRUE(w.close(o)) << c.g.size();
        expect_hamiltonian(c.g, w.path(), true);
      }
      EXPECT_GE(st.steps, static_cast<std::uint64_t>(c.g.size()));
    }
  }
}

TEST(WarnsdorffPosa, NeverClaimsTheImpossible) {
  // The Petersen graph has Hamiltonian paths but no cycle; a path graph cannot be walked
  // from its middle with the first vertex fixed.
  const AdjacencyGraph p = petersen();
  PosaStats st;
  WarnsdorffPosa<AdjacencyGraph> w(p, st);
  PosaOptions o;
  o.keep_first = false;
  o.work = 100000;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    o.seed = seed;
    if (!w.walk(static_cast<int>(seed % 10), [](int v) { return v; }, o)) continue;
    expect_hamiltonian(p, w.path(), false);
    EXPECT_FALSE(w.close(o));
  }
  const AdjacencyGraph line = path_graph(9);
  WarnsdorffPosa<AdjacencyGraph> l(line, st);
  o.keep_first = true;
  EXPECT_FALSE(l.walk(4, [](int v) { return v; }, o));
  o.keep_first = false;
  ASSERT_TRUE(l.walk(4, [](int v) { return v; }, o));  // turns around at an end
  expect_hamiltonian(line, l.path(), false);
}
