// Unit tests of the colouring family: the seed map, DIMACS parsing, bounds, exact
// decisions against brute force, counting (chromatic polynomials), the verifier.
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <sstream>

#include "coloring/chromatic.h"
#include "coloring/clique.h"
#include "coloring/colouring_count.h"
#include "coloring/dimacs.h"
#include "coloring/dsatur.h"
#include "coloring/graph.h"
#include "coloring/sat.h"
#include "coloring/tabucol.h"
#include "coloring/verify.h"
#include "tansaku/core/error.h"

using namespace tansaku;
using namespace tansaku::coloring;

namespace {

const std::string kData = std::string(TANSAKU_DATA_DIR) + "/coloring/";

Graph load(const std::string& name) { return read_dimacs_file(kData + name + ".col"); }

Graph parse(const std::string& text) {
  std::istringstream in(text);
  return parse_dimacs(in, "test.col", 1ULL << 30);
}

// Independent reference: smallest K with a colouring, by plain backtracking in vertex order.
bool brute_colourable(const Graph& g, int K) {
  std::vector<int> c(static_cast<std::size_t>(g.n), 0);
  std::function<bool(int)> rec = [&](int v) {
    if (v == g.n) return true;
    for (int k = 1; k <= K; ++k) {
      bool ok = true;
      for (int u : g.adj[v])
        if (u < v && c[u] == k) ok = false;
      if (!ok) continue;
      c[v] = k;
      if (rec(v + 1)) return true;
    }
    c[v] = 0;
    return false;
  };
  return rec(0);
}

std::uint64_t brute_count(const Graph& g, int K, int fixed_first = 0) {
  std::vector<int> c(static_cast<std::size_t>(g.n), 0);
  std::uint64_t total = 0;
  std::function<void(int)> rec = [&](int v) {
    if (v == g.n) {
      ++total;
      return;
    }
    for (int k = 1; k <= K; ++k) {
      if (v == 0 && fixed_first && k != fixed_first) continue;
      bool ok = true;
      for (int u : g.adj[v])
        if (u < v && c[u] == k) ok = false;
      if (!ok) continue;
      c[v] = k;
      rec(v + 1);
      c[v] = 0;
    }
  };
  rec(0);
  return total;
}

Graph random_graph(int n, double p, std::mt19937& rng) {
  std::vector<std::pair<int, int>> e;
  std::bernoulli_distribution coin(p);
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (coin(rng)) e.emplace_back(i, j);
  return make_graph(n, e);
}

Graph cycle(int n) {
  std::vector<std::pair<int, int>> e;
  for (int i = 0; i < n; ++i) e.emplace_back(i, (i + 1) % n);
  return make_graph(n, e);
}

}  // namespace

TEST(ColoringMap12, AdjacencyIsTheSeedsAndSymmetric) {
  Graph g = map12();
  EXPECT_EQ(g.n, 12);
  EXPECT_EQ(g.edge_count(), 30u);
  EXPECT_EQ(g.names[0], "A");
  EXPECT_EQ(g.names[11], "L");
  EXPECT_EQ(g.adj[0], (std::vector<int>{1, 2, 3, 5, 10, 11}));
  EXPECT_EQ(g.adj[9], (std::vector<int>{5, 6, 7, 8, 10, 11}));
  for (int v = 0; v < g.n; ++v)
    for (int u : g.adj[v]) EXPECT_TRUE(g.adjacent(u, v));
}

TEST(ColoringMap12, ThreeColoursImpossibleFourPossible) {
  Graph g = map12();
  EXPECT_FALSE(brute_colourable(g, 3));
  SolverOptions o;
  ChromaticResult r = chromatic_number(g, o);
  EXPECT_TRUE(r.exact);
  EXPECT_EQ(r.upper, 4);
  EXPECT_EQ(r.lower, 4);
  EXPECT_EQ(verify_colouring(g, r.colouring, 4), 4);
  KResult k3 = colour_with(g, 3, o);
  EXPECT_FALSE(k3.found);
  KResult k4 = colour_with(g, 4, o);
  ASSERT_TRUE(k4.found);
  verify_colouring(g, k4.colouring, 4);
}

TEST(ColoringMap12, FiftyFourColouringsWithRegionAFixed) {
  Graph g = map12();
  CountResult c = count_colourings(g, 4);
  EXPECT_EQ(c.total, 216);
  EXPECT_EQ(c.total / 4, 54);
  EXPECT_EQ(brute_count(g, 4, /*fixed_first=*/1), 54u);  // the seed's own count, independently
  EXPECT_EQ(count_colourings(g, 3).total, 0);
  auto all = all_colourings(g, 4, 1000);
  EXPECT_EQ(all.size(), 216u);
  std::size_t with_a1 = 0;
  for (const auto& s : all) {
    verify_colouring(g, s, 4);
    with_a1 += s[0] == 1;
  }
  EXPECT_EQ(with_a1, 54u);
}

TEST(ColoringCount, ChromaticPolynomials) {
  // Cycle C_n: (k-1)^n + (-1)^n (k-1).
  EXPECT_EQ(count_colourings(cycle(5), 3).total.get_str(), "30");
  EXPECT_EQ(count_colourings(cycle(6), 3).total.get_str(), "66");
  // Complete graph K4 with 4 colours: 4!; with 3: none.
  std::vector<std::pair<int, int>> k4;
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) k4.emplace_back(i, j);
  EXPECT_EQ(count_colourings(make_graph(4, k4), 4).total.get_str(), "24");
  EXPECT_EQ(count_colourings(make_graph(4, k4), 3).total.get_str(), "0");
  // Edgeless graph: K^n, beyond 64 bits.
  EXPECT_EQ(count_colourings(make_graph(30, {}), 10).total.get_str(), "1" + std::string(30, '0'));
  // Two components multiply.
  Graph two = make_graph(6, {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}});
  EXPECT_EQ(count_colourings(two, 3).total.get_str(), std::to_string(6 * 12));
}

TEST(ColoringCount, AgreesWithBruteForceOnRandomGraphs) {
  std::mt19937 rng(7);
  for (int t = 0; t < 30; ++t) {
    Graph g = random_graph(9, 0.35, rng);
    for (int K = 1; K <= 4; ++K)
      EXPECT_EQ(count_colourings(g, K).total.get_str(), std::to_string(brute_count(g, K))) << t << " K=" << K;
  }
}

TEST(ColoringDimacs, ShippedInstancesAndRepeatedEdges) {
  Graph q = load("queen5_5");  // every edge is listed twice
  EXPECT_EQ(q.n, 25);
  EXPECT_EQ(q.edge_count(), 160u);
  Graph m = load("myciel3");
  EXPECT_EQ(m.n, 11);
  EXPECT_EQ(m.edge_count(), 20u);
  EXPECT_EQ(m.names[0], "1");
}

TEST(ColoringDimacs, ToleratesExtraFieldsCommentsAndLoops) {
  DimacsInfo info;
  std::istringstream in("c a comment\n\np edge 3 4 extra fields here\ne 1 2\ne 2 1\ne 2 3\ne 3 3\n");
  Graph g = parse_dimacs(in, "t", 1 << 20, &info);
  EXPECT_EQ(g.n, 3);
  EXPECT_EQ(g.edge_count(), 2u);
  EXPECT_EQ(info.edge_lines, 4u);
  EXPECT_EQ(info.self_loops, 1u);
  EXPECT_EQ(parse("p col 2 1\ne 1 2\n").edge_count(), 1u);
  EXPECT_EQ(parse("p edge 4 0\n").n, 4);
}

TEST(ColoringDimacs, MalformedInputIsRefused) {
  for (const char* bad : {"e 1 2\np edge 2 1\n",            // e before p
                          "p edge 2 1\ne 1\n",               // missing vertex
                          "p edge 2 1\ne 1 2 3\n",           // extra field on e
                          "p edge 2 1\ne 1 x\n",             // not a number
                          "p edge 2 1\ne 0 1\n",             // vertex 0
                          "p edge 2 1\ne 1 3\n",             // vertex > N
                          "p edge 2 1\ne -1 2\n",            // negative
                          "p edge 2\n",                      // short p line
                          "p edge two 1\n",                  // bad N
                          "p matrix 2 1\n",                  // unknown problem
                          "p edge 2 1\np edge 2 1\n",        // two p lines
                          "p edge 2 1\nx 1 2\n",             // unknown line
                          "c only a comment\n"})             // no p line
    EXPECT_THROW(parse(bad), InputError) << bad;
  EXPECT_THROW(read_dimacs_file("/nonexistent/file.col"), InputError);
  std::istringstream huge("p edge 1000000 1\n");
  EXPECT_THROW(parse_dimacs(huge, "t", 1 << 20), InputError);  // bit rows do not fit 1 MiB
}

TEST(ColoringBounds, CliquesOfKnownGraphs) {
  for (auto [name, size] : std::vector<std::pair<std::string, std::size_t>>{
           {"myciel3", 2}, {"myciel4", 2}, {"myciel5", 2}, {"queen5_5", 5}, {"queen6_6", 6}, {"queen8_8", 8}}) {
    Graph g = load(name);
    CliqueResult c = max_clique(g, 10000000);
    EXPECT_TRUE(c.exact) << name;
    EXPECT_EQ(c.clique.size(), size) << name;
    verify_clique(g, c.clique);
  }
  std::vector<int> greedy = dsatur_greedy(load("queen5_5"));
  verify_colouring(load("queen5_5"), greedy, 25);
}

TEST(ColoringExact, KnownChromaticNumbers) {
  for (auto [name, chi] : std::vector<std::pair<std::string, int>>{
           {"myciel3", 4}, {"myciel4", 5}, {"queen5_5", 5}, {"myciel5", 6}, {"queen6_6", 7}, {"queen7_7", 7}}) {
    Graph g = load(name);
    for (Strategy alg : {Strategy::Auto, Strategy::Dsatur}) {
      SolverOptions o;
      o.strategy = alg;
      ChromaticResult r = chromatic_number(g, o);
      EXPECT_TRUE(r.exact) << name;
      EXPECT_EQ(r.upper, chi) << name << " " << static_cast<int>(alg);
      EXPECT_EQ(r.lower, chi) << name << " " << static_cast<int>(alg);
      EXPECT_EQ(verify_colouring(g, r.colouring, chi), chi);
      EXPECT_FALSE(colour_with(g, chi - 1, o).found) << name;
      EXPECT_TRUE(colour_with(g, chi, o).found) << name;
    }
  }
}

TEST(ColoringExact, AgreesWithBruteForceOnRandomGraphs) {
  std::mt19937 rng(11);
  for (int t = 0; t < 60; ++t) {
    Graph g = random_graph(11, 0.25 + 0.05 * (t % 8), rng);
    int chi = 0;
    while (!brute_colourable(g, chi)) ++chi;
    ChromaticResult r = chromatic_number(g, SolverOptions{});
    EXPECT_EQ(r.upper, chi) << t;
    EXPECT_TRUE(r.exact);
    SolverOptions d;
    d.strategy = Strategy::Dsatur;
    for (int K = 1; K <= chi; ++K) {
      DecideResult dr = dsatur_decide(g, K, {}, UINT64_MAX);
      EXPECT_EQ(dr.status == Decision::Found, K >= chi) << t << " K=" << K;
      if (dr.status == Decision::Found) verify_colouring(g, dr.colours, K);
    }
  }
}

TEST(ColoringExact, PeelingAndTabuColFindValidColourings) {
  Graph g = load("queen6_6");
  auto t = tabucol(g, 7, dsatur_greedy(g), 200000, 1);
  ASSERT_TRUE(t.has_value());
  EXPECT_LE(verify_colouring(g, *t, 7), 7);
  Graph path = make_graph(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}});
  Peel p = peel(path, 2);
  EXPECT_TRUE(p.core.empty());
  std::vector<int> c(5, 0);
  extend_peeled(path, p, 2, c);
  verify_colouring(path, c, 2);
}

TEST(ColoringSat, FormulaAndSolver) {
  Graph tri = make_graph(3, {{0, 1}, {1, 2}, {0, 2}});
  SatColouring f(tri, 2, 2);
  // 6 x + 6 y + 2 selector variables; 3 vertex + 6 edge clauses, 1 "at most i+1 colours",
  // 2 precedence, 4 + 12 defining y, 6 selector.
  EXPECT_EQ(f.variables(), 14);
  EXPECT_EQ(f.clauses(), 34);
  EXPECT_EQ(f.decide(2, {}).status, SatStatus::Unsat);
  Graph g = load("myciel4");
  EXPECT_EQ(sat_decide(g, 4, {}).status, SatStatus::Unsat);
  SatResult s = sat_decide(g, 5, {});
  ASSERT_EQ(s.status, SatStatus::Sat);
  verify_colouring(g, s.colours, 5);
  std::mt19937 rng(5);
  for (int t = 0; t < 12; ++t) {
    Graph rg = random_graph(10, 0.45, rng);
    int chi = 0;
    while (!brute_colourable(rg, chi)) ++chi;
    EXPECT_EQ(sat_decide(rg, chi - 1, {}).status, SatStatus::Unsat) << t;
    SatResult ok = sat_decide(rg, chi, {});
    ASSERT_EQ(ok.status, SatStatus::Sat) << t;
    verify_colouring(rg, ok.colours, chi);
    // One incremental formula for chi+2 down to chi-1 colours (selectors assumed).
    SatColouring inc(rg, std::max(1, chi - 1), chi + 2);
    for (int K = chi + 2; K >= std::max(1, chi - 1); --K) {
      SatResult d = inc.decide(K, {});
      ASSERT_EQ(d.status, K >= chi ? SatStatus::Sat : SatStatus::Unsat) << t << " K=" << K;
      if (K >= chi) verify_colouring(rg, d.colours, K);
    }
  }
  // The deadline stops the solver (myciel5 with 5 colours takes far longer than this).
  {
    Deadline gone(1e-9);
    search::Limits lim;
    lim.deadline = &gone;
    EXPECT_THROW(sat_decide(load("myciel5"), 5, {}, lim), tansaku::LimitError);
  }
  // A formula that does not fit the memory budget is not built.
  search::Limits small;
  small.memory = 1000;
  EXPECT_EQ(sat_decide(g, 4, {}, small).status, SatStatus::Unavailable);
  SolverOptions o;
  o.strategy = Strategy::Sat;
  ChromaticResult r = chromatic_number(load("queen6_6"), o);
  EXPECT_EQ(r.upper, 7);
  EXPECT_TRUE(r.exact);
}

TEST(ColoringVerify, RejectsBadColourings) {
  Graph g = map12();
  std::vector<int> ok = {1, 2, 2, 3, 4, 3, 1, 2, 1, 4, 2, 3};
  EXPECT_EQ(verify_colouring(g, ok, 4), 4);
  auto bad = ok;
  bad[1] = 1;  // A and B adjacent
  EXPECT_THROW(verify_colouring(g, bad, 4), std::logic_error);
  EXPECT_THROW(verify_colouring(g, ok, 3), std::logic_error);  // colour 4 > K
  bad = ok;
  bad[5] = 0;
  EXPECT_THROW(verify_colouring(g, bad, 4), std::logic_error);
  EXPECT_THROW(verify_colouring(g, std::vector<int>(11, 1), 4), std::logic_error);
  EXPECT_THROW(verify_clique(g, {0, 4}), std::logic_error);  // A, E not adjacent
  EXPECT_THROW(make_graph(2, {{0, 2}}), InputError);
}
