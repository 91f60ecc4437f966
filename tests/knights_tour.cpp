// Knight's tour: the frontier-DP count against backtracking on every small board, known
// counts (OEIS A165134, A001230), the seed's tours, Warnsdorff on big boards, the proofs
// that need no search, and the verifier.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "tansaku/core/error.h"
#include "knights/board.h"
#include "knights/hamiltonian_dp.h"
#include "knights/tour_analysis.h"
#include "knights/tour_dfs.h"
#include "knights/tour_verify.h"
#include "knights/warnsdorff.h"

using namespace tansaku::knights;
using tansaku::to_string;

namespace {

std::string dp_count(const Board& b, bool closed, std::int64_t from = -1) {
  NarrowGraph g = narrow_graph(b);
  HamiltonOptions o;
  o.closed = closed;
  o.threads = 2;
  if (from >= 0) o.endpoint = g.pos_of[from];
  return to_string(count_hamiltonian(g.adj, o).count);
}

// Twice a decimal count, and half of an even one.
std::string decimal_twice(const std::string& x) { return to_string(2 * mpz_class(x)); }
std::string decimal_half(const std::string& x) { return to_string(mpz_class(x) / 2); }

// Directed tours from `from` by backtracking.
std::uint64_t dfs_count(const Board& b, bool closed, std::int64_t from) {
  DfsOptions o;
  o.closed = closed;
  o.start = static_cast<int>(from);
  auto res = tour_dfs(b.adjacency(), o, [](const std::vector<int>&) { return true; });
  EXPECT_TRUE(res.exhausted);
  return static_cast<std::uint64_t>(res.count);
}

// Independent check of a tour (not the product's verifier).
void expect_tour(const Board& b, const std::vector<std::int32_t>& t, std::int64_t from, bool closed) {
  ASSERT_EQ(static_cast<std::int64_t>(t.size()), b.squares());
  EXPECT_EQ(t.front(), from);
  std::vector<char> seen(b.squares(), 0);
  for (std::size_t i = 0; i < t.size(); ++i) {
    ASSERT_GE(t[i], 0);
    ASSERT_LT(t[i], b.squares());
    EXPECT_FALSE(seen[t[i]]) << "square " << t[i] << " twice";
    seen[t[i]] = 1;
    if (i) {
      const int dr = std::abs(t[i] / b.cols() - t[i - 1] / b.cols()), dc = std::abs(t[i] % b.cols() - t[i - 1] % b.cols());
      EXPECT_TRUE((dr == 1 && dc == 2) || (dr == 2 && dc == 1)) << t[i - 1] << " -> " << t[i];
    }
  }
  if (closed) {
    const int dr = std::abs(t.back() / b.cols() - t.front() / b.cols()), dc = std::abs(t.back() % b.cols() - t.front() % b.cols());
    EXPECT_TRUE((dr == 1 && dc == 2) || (dr == 2 && dc == 1));
  }
}

}  // namespace

TEST(KnightTour, SeedThreeByFourHasTwoToursFromTheCorner) {
  for (auto [r, c] : {std::pair{3, 4}, std::pair{4, 3}}) {
    Board b(r, c);
    EXPECT_EQ(dp_count(b, false, 0), "2") << r << "x" << c;
    EXPECT_EQ(dfs_count(b, false, 0), 2u) << r << "x" << c;
  }
  // The seed's two tours, on its 4 rows x 3 columns numbering.
  Board b(4, 3);
  std::set<std::vector<int>> tours;
  DfsOptions o;
  tour_dfs(b.adjacency(), o, [&](const std::vector<int>& p) {
    tours.insert(p);
    return true;
  });
  std::set<std::vector<int>> seed = {{0, 7, 2, 3, 10, 5, 6, 1, 8, 9, 4, 11}, {0, 7, 2, 3, 10, 5, 6, 11, 4, 9, 8, 1}};
  EXPECT_EQ(tours, seed);
}

TEST(KnightTour, KnownCounts) {
  EXPECT_EQ(decimal_twice(dp_count(Board(5, 5), false)), "1728");  // A165134
  EXPECT_EQ(dp_count(Board(5, 5), false, 0), "304");                // from a corner
  EXPECT_EQ(dp_count(Board(6, 6), true), "9862");                   // A001230
  EXPECT_EQ(dp_count(Board(3, 10), true), "16");                    // 3 x 2n closed tours: 16, 176
  EXPECT_EQ(dp_count(Board(3, 12), true), "176");
  EXPECT_EQ(dp_count(Board(5, 6), true), "8");
  EXPECT_EQ(dp_count(Board(4, 4), false), "0");
  EXPECT_EQ(dp_count(Board(8, 4), true), "0");  // no closed tour on 4 x n
  EXPECT_EQ(dp_count(Board(1, 1), false), "1");
  EXPECT_EQ(dp_count(Board(1, 1), true), "0");
}

// The counting DP and backtracking agree everywhere small: all open tours, tours from
// each square, closed tours.
TEST(KnightTour, DpAgreesWithBacktrackingOnSmallBoards) {
  for (int r = 1; r <= 5; ++r)
    for (int c = 1; c <= 6; ++c) {
      Board b(r, c);
      if (b.squares() > 25) continue;
      std::uint64_t all = 0;
      for (std::int64_t s = 0; s < b.squares(); ++s) {
        const std::uint64_t from_s = dfs_count(b, false, s);
        all += from_s;
        EXPECT_EQ(dp_count(b, false, s), std::to_string(from_s)) << r << "x" << c << " from " << s;
      }
      const std::string paths = dp_count(b, false);
      EXPECT_EQ(b.squares() == 1 ? paths : decimal_twice(paths), std::to_string(all)) << r << "x" << c;
      const std::uint64_t closed_from_0 = dfs_count(b, true, 0);
      EXPECT_EQ(dp_count(b, true), std::to_string(closed_from_0 / 2)) << r << "x" << c << " closed";
    }
  // Longer thin boards.
  for (int c : {7, 8, 9, 10}) {
    Board b(3, c);
    EXPECT_EQ(dp_count(b, false, 0), std::to_string(dfs_count(b, false, 0))) << "3x" << c;
    EXPECT_EQ(dp_count(b, true), std::to_string(dfs_count(b, true, 0) / 2)) << "3x" << c << " closed";
  }
}

// The parallel count (first squares up to symmetry, split by the first two moves) against
// the dp, on square and oblong boards.
TEST(KnightTour, SymmetricParallelCountAgreesWithDp) {
  for (auto [r, c] : {std::pair{5, 5}, std::pair{3, 7}, std::pair{4, 5}, std::pair{5, 6}, std::pair{3, 8}, std::pair{1, 1}}) {
    Board b(r, c);
    auto res = count_tours_dfs(b.adjacency(), symmetry_classes(b), -1, false, 2, nullptr);
    ASSERT_TRUE(res.complete);
    const std::string paths = dp_count(b, false);
    EXPECT_EQ(to_string(res.count), b.squares() == 1 ? paths : decimal_twice(paths)) << r << "x" << c;
    auto closed = count_tours_dfs(b.adjacency(), symmetry_classes(b), -1, true, 2, nullptr);
    EXPECT_EQ(to_string(mpz_class(closed.count / 2)), dp_count(b, true)) << r << "x" << c << " closed";
    auto from = count_tours_dfs(b.adjacency(), symmetry_classes(b), static_cast<int>(b.squares() - 1), false, 2, nullptr);
    EXPECT_EQ(to_string(from.count), dp_count(b, false, b.squares() - 1)) << r << "x" << c << " from the last square";
  }
  // A budget stops it and says so.
  Board b(6, 6);
  auto cut = count_tours_dfs(b.adjacency(), symmetry_classes(b), -1, false, 2, nullptr, 100000);
  EXPECT_FALSE(cut.complete);
}

TEST(KnightTour, DpBuildsToursOrProvesNone) {
  for (auto [r, c, closed] : {std::tuple{3, 4, false}, std::tuple{5, 5, false}, std::tuple{6, 6, true},
                              std::tuple{3, 10, true}, std::tuple{4, 9, false}, std::tuple{3, 40, false},
                              std::tuple{6, 5, true}}) {
    Board b(r, c);
    NarrowGraph g = narrow_graph(b);
    HamiltonOptions o;
    o.closed = closed;
    o.endpoint = g.pos_of[0];
    auto found = find_hamiltonian(g.adj, o);
    ASSERT_TRUE(found) << r << "x" << c;
    std::vector<std::int32_t> tour;
    for (int p : *found) tour.push_back(g.square_at[p]);
    expect_tour(b, tour, 0, closed);
    EXPECT_NO_THROW(verify_tour(b, tour, 0, closed));
  }
  for (auto [r, c, closed] : {std::tuple{4, 4, false}, std::tuple{3, 6, false}, std::tuple{4, 20, true}}) {
    Board b(r, c);
    NarrowGraph g = narrow_graph(b);
    HamiltonOptions o;
    o.closed = closed;
    o.endpoint = g.pos_of[0];
    EXPECT_FALSE(find_hamiltonian(g.adj, o)) << r << "x" << c;
  }
}

TEST(KnightTour, WideCountsBeyond128Bits) {
  // 3 x n open tours grow exponentially: the count switches to wide integers by itself.
  const std::string big = dp_count(Board(3, 300), false);
  EXPECT_GT(big.size(), 39u);  // more than 2^128
  EXPECT_EQ(decimal_half(decimal_twice(big)), big);
}

TEST(KnightTour, WarnsdorffOnBigBoards) {
  for (auto [r, c, from, closed] :
       {std::tuple{1000, 1000, 0, false}, std::tuple{1000, 1000, 123456, true}, std::tuple{99, 101, 0, false},
        std::tuple{101, 99, 5000, false}, std::tuple{8, 8, 27, true}, std::tuple{5, 6, 0, true},
        std::tuple{50, 7, 3, false}, std::tuple{12, 9, 100, true}}) {
    Board b(r, c);
    WarnsdorffStats st;
    auto tour = warnsdorff_tour(b, from, closed, nullptr, &st);
    ASSERT_TRUE(tour) << r << "x" << c << " from " << from << (closed ? " closed" : "");
    expect_tour(b, *tour, from, closed);
    EXPECT_NO_THROW(verify_tour(b, *tour, from, closed));
  }
}

TEST(KnightTour, WarnsdorffFromEveryMajoritySquare) {
  for (auto [r, c] : {std::pair{5, 5}, std::pair{7, 7}, std::pair{8, 8}, std::pair{6, 9}, std::pair{10, 11}}) {
    Board b(r, c);
    for (std::int64_t s = 0; s < b.squares(); ++s) {
      if (b.squares() % 2 && Board::colour(b.row(s), b.col(s))) continue;
      auto tour = warnsdorff_tour(b, s, false, nullptr);
      ASSERT_TRUE(tour) << r << "x" << c << " from " << s;
      expect_tour(b, *tour, s, false);
    }
  }
}

TEST(KnightTour, ProofsWithoutSearch) {
  EXPECT_TRUE(no_tour_reason(Board(3, 3), 0, false));      // the centre has no move
  EXPECT_TRUE(no_tour_reason(Board(5, 5), 0, true));       // odd: no closed tour
  EXPECT_TRUE(no_tour_reason(Board(5, 5), 1, false));      // minority colour
  EXPECT_FALSE(no_tour_reason(Board(5, 5), 0, false));
  EXPECT_TRUE(no_tour_reason(Board(1, 1), 0, true));
  EXPECT_FALSE(no_tour_reason(Board(1, 1), 0, false));
  EXPECT_TRUE(no_tour_reason(Board(2, 8), 0, false));      // disconnected
  EXPECT_TRUE(no_tour_reason(Board(1, 5), -1, false));
  EXPECT_FALSE(no_tour_reason(Board(8, 8), 0, true));
  EXPECT_FALSE(no_tour_reason(Board(1000, 1000), 999, false));
}

TEST(KnightTour, VerifierRejectsBadTours) {
  Board b(3, 4);
  std::vector<std::int32_t> good = {0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4};
  EXPECT_NO_THROW(verify_tour(b, good, 0, false));
  EXPECT_THROW(verify_tour(b, good, 1, false), std::logic_error);  // wrong first square
  EXPECT_THROW(verify_tour(b, good, 0, true), std::logic_error);   // 4 -> 0 is not a move
  auto twice = good;
  twice[11] = 0;
  EXPECT_THROW(verify_tour(b, twice, 0, false), std::logic_error);
  auto jump = good;
  std::swap(jump[3], jump[4]);
  EXPECT_THROW(verify_tour(b, jump, 0, false), std::logic_error);
  EXPECT_THROW(verify_tour(b, {0, 6, 8}, 0, false), std::logic_error);
}

// The frontier dp on graphs that are not knight's graphs: complete graphs, grid graphs,
// cycles, the Petersen graph (not bipartite, no Hamiltonian cycle), each against a known
// count or the backtracking counter.
namespace {

using Adj = std::vector<std::vector<int>>;

Adj complete_graph(int n) {
  Adj g(n);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (a != b) g[a].push_back(b);
  return g;
}

Adj grid_graph(int rows, int cols) {  // P_rows x P_cols, numbered row-major
  Adj g(rows * cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const int v = r * cols + c;
      if (c + 1 < cols) g[v].push_back(v + 1), g[v + 1].push_back(v);
      if (r + 1 < rows) g[v].push_back(v + cols), g[v + cols].push_back(v);
    }
  return g;
}

Adj petersen() {
  Adj g(10);
  auto edge = [&](int a, int b) { g[a].push_back(b), g[b].push_back(a); };
  for (int i = 0; i < 5; ++i) edge(i, (i + 1) % 5), edge(i, i + 5), edge(5 + i, 5 + (i + 2) % 5);
  return g;
}

std::string ham(const Adj& g, bool closed, int endpoint = -1, unsigned threads = 2) {
  HamiltonOptions o;
  o.closed = closed;
  o.endpoint = endpoint;
  o.threads = threads;
  return to_string(count_hamiltonian(g, o).count);
}

// Undirected Hamiltonian paths (or cycles) by backtracking from every first vertex.
std::uint64_t ham_dfs(const Adj& g, bool closed) {
  const int n = static_cast<int>(g.size());
  std::uint64_t directed = 0;
  for (int s = 0; s < (closed ? 1 : n); ++s) {
    DfsOptions o;
    o.closed = closed;
    o.start = s;
    auto res = tour_dfs(g, o, [](const std::vector<int>&) { return true; });
    EXPECT_TRUE(res.exhausted);
    directed += static_cast<std::uint64_t>(res.count);
  }
  return n == 1 ? directed : directed / 2;
}

}  // namespace

TEST(HamiltonDp, CompleteGraphs) {
  std::uint64_t fact = 1;  // (n-1)!
  for (int n = 3; n <= 10; ++n) {
    fact *= static_cast<std::uint64_t>(n - 1);
    const Adj g = complete_graph(n);
    EXPECT_EQ(ham(g, false), std::to_string(fact * n / 2)) << "K_" << n << " paths: n!/2";
    EXPECT_EQ(ham(g, true), std::to_string(fact / 2)) << "K_" << n << " cycles: (n-1)!/2";
    EXPECT_EQ(ham(g, false, n - 1), std::to_string(fact)) << "K_" << n << " paths from a vertex: (n-1)!";
  }
  EXPECT_EQ(ham(complete_graph(2), false), "1");
  EXPECT_EQ(ham(complete_graph(2), true), "0");  // a cycle needs 3 vertices
}

TEST(HamiltonDp, GridGraphCycles) {
  for (int n = 2; n <= 12; ++n) EXPECT_EQ(ham(grid_graph(2, n), true), "1") << "2x" << n;
  EXPECT_EQ(ham(grid_graph(4, 4), true), "6");  // OEIS A003763
  EXPECT_EQ(ham(grid_graph(6, 6), true), "1072");
  EXPECT_EQ(ham(grid_graph(8, 8), true), "4638576");
  EXPECT_EQ(ham(grid_graph(10, 10), true), "467260456608");
  EXPECT_EQ(ham(grid_graph(3, 5), true), "0");  // odd number of vertices
  EXPECT_EQ(ham(grid_graph(4, 5), true), "14");  // OEIS A006864 (4 x n): 1, 2, 6, 14, 37
  EXPECT_EQ(ham(grid_graph(4, 6), true), "37");
}

TEST(HamiltonDp, GridGraphPathsAgreeWithBacktracking) {
  for (int r = 1; r <= 4; ++r)
    for (int c = r; c <= 5; ++c) {
      const Adj g = grid_graph(r, c);
      EXPECT_EQ(ham(g, false), std::to_string(ham_dfs(g, false))) << r << "x" << c;
      EXPECT_EQ(ham(g, true), std::to_string(ham_dfs(g, true))) << r << "x" << c << " closed";
    }
  EXPECT_EQ(ham(grid_graph(3, 3), false), "20");  // OEIS A096969: 1, 4, 20, 276, 4324, 229348
  EXPECT_EQ(ham(grid_graph(4, 4), false), "276");
  EXPECT_EQ(ham(grid_graph(5, 5), false), "4324");
  EXPECT_EQ(ham(grid_graph(6, 6), false), "229348");
}

TEST(HamiltonDp, CyclesAndPetersen) {
  for (int n = 3; n <= 9; ++n) {
    Adj g(n);
    for (int i = 0; i < n; ++i) g[i].push_back((i + 1) % n), g[(i + 1) % n].push_back(i);
    EXPECT_EQ(ham(g, true), "1") << "C_" << n;
    EXPECT_EQ(ham(g, false), std::to_string(n)) << "C_" << n;
  }
  const Adj p = petersen();
  EXPECT_EQ(ham(p, true), "0");  // the Petersen graph is not Hamiltonian
  EXPECT_EQ(ham(p, false), std::to_string(ham_dfs(p, false)));
  EXPECT_NE(ham(p, false), "0");
  HamiltonOptions o;
  o.closed = true;
  EXPECT_FALSE(find_hamiltonian(p, o));
}

// One thread and several give the same counts (the shared table and its retries).
TEST(HamiltonDp, ThreadsAgree) {
  NarrowGraph g = narrow_graph(Board(5, 6));
  for (bool closed : {false, true}) {
    HamiltonOptions o;
    o.closed = closed;
    o.threads = 1;
    const mpz_class one = count_hamiltonian(g.adj, o).count;
    o.threads = 2;
    EXPECT_EQ(count_hamiltonian(g.adj, o).count, one);
  }
  EXPECT_EQ(ham(grid_graph(6, 6), true, -1, 1), "1072");
}

// A budget that cannot hold the tables is refused with a LimitError, not exceeded.
TEST(HamiltonDp, MemoryBudgetIsRespected) {
  NarrowGraph g = narrow_graph(Board(6, 6));
  HamiltonOptions o;
  o.threads = 2;
  o.memory = 1 << 20;  // 1 MiB: far too small for 6x6 open tours
  EXPECT_THROW(count_hamiltonian(g.adj, o), tansaku::LimitError);
}

// The count does not depend on the vertex order: a grid numbered along its long side has a
// frontier of more than 16 vertices (128-bit states), along its short side 5 (64-bit).
TEST(HamiltonDp, WideStatesAgreeWithNarrowOrder) {
  const int rows = 2, cols = 17;
  const Adj wide = grid_graph(rows, cols);  // row-major: rows of 17
  Adj narrow(rows * cols);                  // column-major
  auto at = [&](int v) { return (v % cols) * rows + v / cols; };
  for (int v = 0; v < rows * cols; ++v)
    for (int w : wide[v]) narrow[at(v)].push_back(at(w));
  EXPECT_GT(frontier_width(wide), 16);
  EXPECT_LE(frontier_width(narrow), 4);
  for (bool closed : {true, false}) {
    const std::string n = ham(narrow, closed), w = ham(wide, closed);
    EXPECT_EQ(w, n) << (closed ? "cycles" : "paths");
    EXPECT_NE(n, "0");
  }
  EXPECT_EQ(ham(wide, false, 0), ham(narrow, false, at(0)));
}
