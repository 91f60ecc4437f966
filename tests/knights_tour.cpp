// Knight's tour: the frontier-DP count against backtracking on every small board, known
// counts (OEIS A165134, A001230), the split count of closed tours against both, the seed's tours, Warnsdorff on big
// boards, the proofs that need no search, and the verifier.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <tuple>

#include <unistd.h>
#include <stdexcept>

#include "knights/board.h"
#include "knights/tour_analysis.h"
#include "knights/tour_count.h"
#include "knights/tour_verify.h"
#include "knights/warnsdorff.h"
#include "tansaku/core/error.h"
#include "tansaku/graph/frontier_dp.h"
#include "tansaku/graph/hamiltonian_search.h"
#include "thread_cluster.h"

using namespace tansaku::knights;
using namespace tansaku::graph;
using tansaku::to_string;

namespace {

std::string dp_count(const Board& b, bool closed, std::int64_t from = -1) {
  NarrowGraph g = narrow_graph(b);
  tansaku::search::Limits limits;
  limits.threads = 2;
  return count_hamiltonian(g.adj, {closed, from >= 0 ? g.pos_of[from] : -1}, limits).count.get_str();
}

// Twice a decimal count, and half of an even one.
std::string decimal_twice(const std::string& x) { return to_string(2 * mpz_class(x)); }
std::string decimal_half(const std::string& x) { return to_string(mpz_class(x) / 2); }

// Directed tours from `from` by backtracking.
std::uint64_t dfs_count(const Board& b, bool closed, std::int64_t from) {
  DfsOptions o;
  o.closed = closed;
  o.start = static_cast<int>(from);
  auto res = hamiltonian_dfs(AdjacencyGraph(b.adjacency()), o, [](const std::vector<int>&) { return true; });
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
  hamiltonian_dfs(AdjacencyGraph(b.adjacency()), o, [&](const std::vector<int>& p) {
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
TEST(KnightTour, SymmetricParallelCountAgreesWithDp) {  // labels: tsan
  tansaku::search::Limits two;
  two.threads = 2;
  auto count_dfs = [&](const Board& b, int from, bool closed, std::uint64_t budget = UINT64_MAX) {
    return count_hamiltonian_dfs(AdjacencyGraph(b.adjacency()), symmetry_classes(b), from, closed, budget, two);
  };
  for (auto [r, c] : {std::pair{5, 5}, std::pair{3, 7}, std::pair{4, 5}, std::pair{5, 6}, std::pair{3, 8}, std::pair{1, 1}}) {
    Board b(r, c);
    auto res = count_dfs(b, -1, false);
    ASSERT_TRUE(res.complete);
    const std::string paths = dp_count(b, false);
    EXPECT_EQ(to_string(res.count), b.squares() == 1 ? paths : decimal_twice(paths)) << r << "x" << c;
    auto closed = count_dfs(b, -1, true);
    EXPECT_EQ(to_string(closed.count / 2), dp_count(b, true)) << r << "x" << c << " closed";
    auto from = count_dfs(b, static_cast<int>(b.squares() - 1), false);
    EXPECT_EQ(to_string(from.count), dp_count(b, false, b.squares() - 1)) << r << "x" << c << " from the last square";
  }
  // A budget stops it and says so.
  Board b(6, 6);
  auto cut = count_dfs(b, -1, false, 100000);
  EXPECT_FALSE(cut.complete);
}

TEST(KnightTour, DpBuildsToursOrProvesNone) {
  for (auto [r, c, closed] : {std::tuple{3, 4, false}, std::tuple{5, 5, false}, std::tuple{6, 6, true},
                              std::tuple{3, 10, true}, std::tuple{4, 9, false}, std::tuple{3, 40, false},
                              std::tuple{6, 5, true}}) {
    Board b(r, c);
    NarrowGraph g = narrow_graph(b);
    auto found = find_hamiltonian(g.adj, {closed, g.pos_of[0]});
    ASSERT_TRUE(found) << r << "x" << c;
    std::vector<std::int32_t> tour;
    for (int p : *found) tour.push_back(g.square_at[p]);
    expect_tour(b, tour, 0, closed);
    EXPECT_NO_THROW(verify_tour(b, tour, 0, closed));
  }
  for (auto [r, c, closed] : {std::tuple{4, 4, false}, std::tuple{3, 6, false}, std::tuple{4, 20, true}}) {
    Board b(r, c);
    NarrowGraph g = narrow_graph(b);
    EXPECT_FALSE(find_hamiltonian(g.adj, {closed, g.pos_of[0]})) << r << "x" << c;
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
    auto tour = warnsdorff_tour(b, from, closed, {}, &st);
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
      auto tour = warnsdorff_tour(b, s, false);
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

// One thread and several give the same counts (the shared table and its retries).
TEST(KnightTour, DpThreadsAgree) {  // labels: tsan
  NarrowGraph g = narrow_graph(Board(5, 6));
  for (bool closed : {false, true}) {
    tansaku::search::Limits l;
    l.threads = 1;
    const std::string one = count_hamiltonian(g.adj, {closed, -1}, l).count.get_str();
    l.threads = 2;
    EXPECT_EQ(count_hamiltonian(g.adj, {closed, -1}, l).count.get_str(), one);
  }
}

// A budget that cannot hold the tables is refused with a LimitError, not exceeded.
TEST(KnightTour, DpMemoryBudgetIsRespected) {
  NarrowGraph g = narrow_graph(Board(6, 6));
  tansaku::search::Limits l;
  l.threads = 2;
  l.memory = 1 << 20;  // 1 MiB: far too small for 6x6 open tours
  EXPECT_THROW(count_hamiltonian(g.adj, {false, -1}, l), tansaku::LimitError);
}

namespace {
// Closed tours by the split count, in `parts` parts (0: chosen by size) on `threads` threads.
std::string split_count(const Board& b, unsigned parts, unsigned threads, SplitCountStats* stats = nullptr) {
  tansaku::search::Limits l;
  l.threads = threads;
  SplitCountOptions o;
  o.parts = parts;
  const SplitCountStats st = count_cycles_split(narrow_graph(b).adj, l, o);
  if (stats) *stats = st;
  return st.count.get_str();
}
}  // namespace

// The split count of closed tours against the frontier dp on every board up to 6x6 and 5x8,
// unsplit and split, on one and two threads, with the same states in every step.
TEST(KnightTour, SplitCountAgreesWithDp) {
  for (int r = 1; r <= 6; ++r)
    for (int c = r; c <= 8; ++c) {
      if (r * c > 40 || (r == 6 && c > 6)) continue;
      Board b(r, c);
      NarrowGraph g = narrow_graph(b);
      tansaku::search::Limits two;
      two.threads = 2;
      const FrontierStats dp = count_hamiltonian(g.adj, {true, -1}, two);
      for (unsigned parts : {1u, 4u, 64u, 0u})
        for (unsigned threads : {1u, 2u}) {
          SplitCountStats st;
          EXPECT_EQ(split_count(b, parts, threads, &st), dp.count.get_str())
              << r << "x" << c << ", " << parts << " parts, " << threads << " threads";
          EXPECT_EQ(st.states, dp.states) << r << "x" << c;
          EXPECT_EQ(st.widest, dp.widest) << r << "x" << c;
          if (parts == 1) {
            EXPECT_EQ(st.parts, 1u);
          }
          if (parts == 64 && r * c >= 20 && dp.states > 0) {
            EXPECT_EQ(st.parts, 64u) << r << "x" << c;
          }
        }
    }
  EXPECT_EQ(split_count(Board(6, 6), 0, 2), "9862");  // A001230
  EXPECT_EQ(split_count(Board(5, 8), 16, 2), "44202");
  EXPECT_EQ(split_count(Board(3, 12), 8, 2), "176");
}

// Against backtracking (each cycle found from both ends) on the largest of those boards.
TEST(KnightTour, SplitCountAgreesWithBacktracking) {
  tansaku::search::Limits two;
  two.threads = 2;
  for (auto [r, c] : {std::pair{5, 6}, std::pair{3, 10}, std::pair{6, 6}, std::pair{5, 8}}) {
    Board b(r, c);
    auto res = count_hamiltonian_dfs(AdjacencyGraph(b.adjacency()), symmetry_classes(b), -1, true, UINT64_MAX, two);
    ASSERT_TRUE(res.complete);
    for (unsigned parts : {1u, 16u})
      EXPECT_EQ(split_count(b, parts, 2), to_string(res.count / 2)) << r << "x" << c << ", " << parts << " parts";
  }
}

// Open tours by the split count (a hub joined to every square, or two hubs for a first
// square) against the frontier dp and backtracking on every board up to 30 squares: each path
// once, split and unsplit, on one and two threads; on the boards up to 20 squares also the
// directed paths from each first square, which add up to twice the paths.
TEST(KnightTour, SplitCountOfOpenToursAgreesWithDpAndBacktracking) {
  tansaku::search::Limits one, two;
  two.threads = 2;
  for (int r = 1; r <= 5; ++r)
    for (int c = r; c * r <= 30; ++c) {
      Board b(r, c);
      NarrowGraph g = narrow_graph(b);
      const std::string dp = count_hamiltonian(g.adj, {false, -1}, two).count.get_str();
      if (r == 5 && c == 5) {
        EXPECT_EQ(dp, "864");  // 1,728 directed (A165134)
      }
      for (unsigned parts : {0u, 1u, 16u})
        for (const auto* lim : {&two, &one}) {
          SplitCountOptions o;
          o.parts = parts;
          EXPECT_EQ(count_paths_split(g.adj, -1, *lim, o).count.get_str(), dp)
              << r << "x" << c << ", " << parts << " parts, " << lim->threads << " threads";
        }
      if (r * c > 20) continue;
      mpz_class from_all = 0;
      for (int v = 0; v < r * c; ++v) {
        const mpz_class from = count_paths_split(g.adj, v, two).count;
        EXPECT_EQ(from.get_str(), count_hamiltonian(g.adj, {false, v}, two).count.get_str())
            << r << "x" << c << " from " << v;
        from_all += from;
      }
      EXPECT_EQ(from_all, r * c == 1 ? mpz_class(1) : 2 * mpz_class(dp)) << r << "x" << c;
    }
  for (auto [r, c] : {std::pair{4, 5}, std::pair{5, 6}}) {
    Board b(r, c);
    auto res = count_hamiltonian_dfs(AdjacencyGraph(b.adjacency()), symmetry_classes(b), -1, false, UINT64_MAX, two);
    ASSERT_TRUE(res.complete);
    EXPECT_EQ(count_paths_split(narrow_graph(b).adj, -1, two).count, res.count / 2) << r << "x" << c;
  }
}

// The same on the larger boards up to 6x6 and 5x8, once each (split by size, two threads).
TEST(KnightTour, SplitCountOfOpenToursOnLargerBoards) {
  tansaku::search::Limits two;
  two.threads = 2;
  for (auto [r, c] : {std::pair{4, 8}, std::pair{5, 7}, std::pair{5, 8}, std::pair{6, 6}}) {
    NarrowGraph g = narrow_graph(Board(r, c));
    const mpz_class paths = count_paths_split(g.adj, -1, two).count;
    EXPECT_EQ(paths, count_hamiltonian(g.adj, {false, -1}, two).count) << r << "x" << c;
    if (r == 6) {
      EXPECT_EQ(paths.get_str(), "3318960");  // 6,637,920 directed (A165134), each path once
    }
  }
}

// The budgets: a memory budget the layers outgrow and an expired deadline stop the count.
TEST(KnightTour, SplitCountHonoursItsLimits) {
  const NarrowGraph g = narrow_graph(Board(6, 6));
  tansaku::search::Limits l;
  l.threads = 2;
  l.memory = 1 << 20;
  EXPECT_THROW(count_cycles_split(g.adj, l, {}), tansaku::LimitError);
  tansaku::Deadline past(1e-9);
  tansaku::search::Limits d;
  d.deadline = &past;
  EXPECT_THROW(count_cycles_split(g.adj, d, {}), tansaku::LimitError);
  // The estimate grows with the widest layer: 8x8 (about 1e9 states) needs about 17 GiB, or
  // under 16 GiB of memory and about 21 GiB of disk when it may spill within 16 GiB.
  EXPECT_GT(split_count_bytes(1e9, 2), 16ull << 30);
  const SplitNeed spill = split_count_need(1e9, 2, 16ull << 30);
  EXPECT_LT(spill.memory, 16ull << 30);
  EXPECT_GT(spill.disk, 16e9);
  EXPECT_EQ(split_count_need(22.5e6, 2, 16ull << 30).memory, split_count_bytes(22.5e6, 2));
}

// A count stopped after a checkpoint resumes from it and ends with the same count.
TEST(KnightTour, SplitCountResumesFromItsCheckpoint) {
  const auto dir = std::filesystem::temp_directory_path() / ("tansaku-split-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const NarrowGraph g = narrow_graph(Board(6, 6));
  tansaku::search::Limits l;
  l.threads = 2;
  SplitCountOptions o;
  o.row_width = 6;
  o.checkpoint = dir.string();
  o.stop_after = 2;
  EXPECT_THROW(count_cycles_split(g.adj, l, o), tansaku::LimitError);
  auto files = [&] {
    int n = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) n += e.path().extension() == ".layer";
    return n;
  };
  EXPECT_EQ(files(), 1);
  // Another graph does not take it (nor remove it).
  SplitCountOptions other = o;
  other.stop_after = 0;
  const SplitCountStats fresh = count_cycles_split(narrow_graph(Board(6, 7)).adj, l, other);
  EXPECT_EQ(fresh.resumed_at, -1);
  EXPECT_EQ(fresh.count.get_str(), "1067638");
  EXPECT_EQ(files(), 1);
  // This one resumes at the third row (the second checkpoint) with the same states.
  o.stop_after = 0;
  const SplitCountStats st = count_cycles_split(g.adj, l, o);
  EXPECT_EQ(st.resumed_at, 12);
  EXPECT_EQ(st.count.get_str(), "9862");
  EXPECT_EQ(st.states, 587821u);
  EXPECT_EQ(files(), 0);
  std::filesystem::remove_all(dir);
}

// Once its time between saves has passed, the count also saves inside a row: stopped after
// the fifth such save (every square here), it resumes at square 5 with the same count.
TEST(KnightTour, SplitCountSavesInsideARowWhenOverdue) {  // labels: tsan
  const auto dir = std::filesystem::temp_directory_path() / ("tansaku-overdue-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const NarrowGraph g = narrow_graph(Board(6, 6));
  tansaku::search::Limits l;
  l.threads = 2;
  SplitCountOptions o;
  o.row_width = 6;
  o.checkpoint = dir.string();
  o.checkpoint_seconds = 1e-9;
  o.stop_after = 5;
  EXPECT_THROW(count_cycles_split(g.adj, l, o), tansaku::LimitError);
  o.stop_after = 0;
  const SplitCountStats st = count_cycles_split(g.adj, l, o);
  EXPECT_EQ(st.resumed_at, 5);
  EXPECT_EQ(st.count.get_str(), "9862");
  EXPECT_EQ(st.states, 587821u);
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  std::filesystem::remove_all(dir);
}

// Short of memory (here: beyond 256 KiB of layers) the split count keeps chunks of its layers
// on disk in the checkpoint directory, and counts the same; the checkpoint saves them too.
TEST(KnightTour, SplitCountSpillsToDisk) {
  const auto dir = std::filesystem::temp_directory_path() / ("tansaku-spill-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  tansaku::search::Limits l;
  l.threads = 2;
  SplitCountOptions o;
  o.row_width = 6;
  o.checkpoint = dir.string();
  o.spill_above = 256 << 10;
  const NarrowGraph g = narrow_graph(Board(6, 6));
  const SplitCountStats st = count_cycles_split(g.adj, l, o);
  EXPECT_EQ(st.count.get_str(), "9862");
  EXPECT_EQ(st.states, 587821u);
  EXPECT_GT(st.spilled, 0u);
  // Stopped after the fourth row (its layer partly on disk), then resumed.
  o.stop_after = 4;
  EXPECT_THROW(count_cycles_split(g.adj, l, o), tansaku::LimitError);
  o.stop_after = 0;
  const SplitCountStats again = count_cycles_split(g.adj, l, o);
  EXPECT_EQ(again.resumed_at, 24);
  EXPECT_EQ(again.count.get_str(), "9862");
  EXPECT_EQ(split_count(Board(5, 8), 0, 1), "44202");
  EXPECT_TRUE(std::filesystem::is_empty(dir));  // no spill file or checkpoint left behind
  std::filesystem::remove_all(dir);
}

namespace {
// The split count on k ranks simulated by threads (tests/thread_cluster.h), every rank with
// `threads` threads and the same options: each rank's statistics, or its error.
struct RankResult {
  SplitCountStats stats;
  std::string error;  // "limit: ...", "input: ..." or "" (none)
};
std::vector<RankResult> on_ranks(int k, const AdjacencyGraph& g, int from, bool closed, unsigned parts,
                                 unsigned threads, std::vector<tansaku::search::Limits> limits = {},
                                 const SplitCountOptions& options = {}) {
  limits.resize(static_cast<std::size_t>(k));
  std::vector<RankResult> got(static_cast<std::size_t>(k));
  tansaku::on_thread_ranks(k, [&](int j, tansaku::Cluster& c) {
    tansaku::search::Limits lim = limits[static_cast<std::size_t>(j)];
    lim.threads = threads;
    lim.cluster = &c;
    SplitCountOptions o = options;
    o.parts = parts;
    RankResult& r = got[static_cast<std::size_t>(j)];
    try {
      r.stats = closed ? count_cycles_split(g, lim, o) : count_paths_split(g, from, lim, o);
    } catch (const tansaku::LimitError& e) {
      r.error = std::string("limit: ") + e.what();
    } catch (const tansaku::InputError& e) {
      r.error = std::string("input: ") + e.what();
    }
  });
  return got;
}
}  // namespace

// The split count shared among 1 to 3 ranks (as threads): on every rank the count and the
// states of every step are the frontier dp's, closed and open (from every square and from
// one), unsplit and split, on one and two threads a rank; the largest boards (6x6 and 5x8)
// closed, unsplit on one thread and split on two.
TEST(KnightTour, SplitCountOnRanksAgreesWithDp) {
  tansaku::search::Limits two;
  two.threads = 2;
  for (auto [r, c] :
       {std::pair{3, 4}, std::pair{4, 5}, std::pair{3, 10}, std::pair{4, 6}, std::pair{6, 6}, std::pair{5, 8}}) {
    const NarrowGraph g = narrow_graph(Board(r, c));
    const bool big = r * c >= 36;
    for (bool closed : {true, false}) {
      if (!closed && big) continue;  // open tours of the big boards: SplitCountOnRanksAgreesWithBacktracking
      const FrontierStats dp = count_hamiltonian(g.adj, {closed, -1}, two);
      for (int k = 1; k <= 3; ++k)
        for (unsigned parts : {1u, 0u})
          for (unsigned threads : {1u, 2u}) {
            if (big && (threads == 2) != (parts == 0)) continue;  // the big boards: two of the four
            SCOPED_TRACE(::testing::Message() << r << "x" << c << (closed ? " closed" : " open") << ", " << k
                                              << " ranks, " << parts << " parts, " << threads << " threads");
            const auto got = on_ranks(k, g.adj, -1, closed, parts, threads);
            for (const RankResult& one : got) {
              EXPECT_EQ(one.error, "");
              EXPECT_EQ(one.stats.count, dp.count);
              if (closed) {  // the same steps (open: the hub's steps besides)
                EXPECT_EQ(one.stats.states, dp.states);
                EXPECT_EQ(one.stats.widest, dp.widest);
              }
              EXPECT_EQ(one.stats.states, got[0].stats.states);
              EXPECT_EQ(one.stats.peak_bytes, got[0].stats.peak_bytes);
            }
            if (k > 1 && parts == 0 && dp.states > 100) {
              EXPECT_GE(got[0].stats.parts, 16u * static_cast<unsigned>(k));
            }
          }
    }
  }
  // Directed open tours from one square, against the dp.
  const NarrowGraph g = narrow_graph(Board(4, 5));
  for (int v : {0, 7}) {
    const mpz_class want = count_hamiltonian(g.adj, {false, v}, two).count;
    for (int k : {2, 3})
      for (const RankResult& one : on_ranks(k, g.adj, v, false, 0, 1)) EXPECT_EQ(one.stats.count, want) << v;
  }
}

// Against backtracking on the largest boards (6x6 and 5x8 closed, 5x6 open), on 2 and 3 ranks.
TEST(KnightTour, SplitCountOnRanksAgreesWithBacktracking) {
  tansaku::search::Limits two;
  two.threads = 2;
  for (auto [r, c, closed] : {std::tuple{6, 6, true}, std::tuple{5, 8, true}, std::tuple{5, 6, false}}) {
    Board b(r, c);
    auto res = count_hamiltonian_dfs(AdjacencyGraph(b.adjacency()), symmetry_classes(b), -1, closed, UINT64_MAX, two);
    ASSERT_TRUE(res.complete);
    for (int k : {2, 3})
      for (const RankResult& one : on_ranks(k, narrow_graph(b).adj, -1, closed, 0, 2))
        EXPECT_EQ(one.stats.count, res.count / 2) << r << "x" << c << " on " << k << " ranks";
  }
}

// Counts beyond 64 bits on ranks: the cycles of a band graph (i ~ j when |i - j| <= 3) on
// 100 vertices (more than 2^64 of them: the count restarts with 128-bit counts on every rank
// at once), summed exactly over the ranks.
TEST(KnightTour, SplitCountOnRanksBeyond64Bits) {  // labels: tsan
  std::vector<std::vector<int>> lists(100);
  for (int i = 0; i < 100; ++i)
    for (int j = std::max(0, i - 3); j <= std::min(99, i + 3); ++j)
      if (j != i) lists[static_cast<std::size_t>(i)].push_back(j);
  const AdjacencyGraph g(lists);
  const mpz_class alone = count_cycles_split(g, {}, {}).count;
  EXPECT_GT(alone, mpz_class("18446744073709551616")) << alone.get_str();
  for (int k : {2, 3})
    for (const RankResult& one : on_ranks(k, g, -1, true, 0, 1)) EXPECT_EQ(one.stats.count, alone) << k << " ranks";
}

// A limit met by one rank stops every rank with the same error (none is left waiting in a
// collective): a deadline past on rank 1 only, a memory budget too small on rank 0 only; a
// checkpoint directory is refused on more than one rank.
TEST(KnightTour, SplitCountOnRanksStopsTogether) {
  const NarrowGraph g = narrow_graph(Board(6, 6));
  tansaku::Deadline past(1e-9);
  std::vector<tansaku::search::Limits> late(3);
  late[1].deadline = &past;
  for (const RankResult& one : on_ranks(3, g.adj, -1, true, 0, 2, late))
    EXPECT_EQ(one.error, "limit: time limit reached (--timeout)");
  std::vector<tansaku::search::Limits> small(2);
  small[0].memory = 1 << 20;
  for (const RankResult& one : on_ranks(2, g.adj, -1, false, 0, 1, small)) {
    EXPECT_EQ(one.error.rfind("limit: the split count: its layers outgrow the memory budget", 0), 0u) << one.error;
    EXPECT_NE(one.error.find("on 1 of 2 ranks"), std::string::npos) << one.error;
  }
  SplitCountOptions keep;
  keep.checkpoint = (std::filesystem::temp_directory_path() / "tansaku-ranks-checkpoint").string();
  for (const RankResult& one : on_ranks(2, g.adj, -1, true, 0, 1, {}, keep))
    EXPECT_EQ(one.error, "input: " + split_checkpoint_refusal(2));
  EXPECT_FALSE(std::filesystem::exists(keep.checkpoint));
  // The estimate on ranks: a share of the layer each (and the exchange's buffers).
  EXPECT_LT(split_count_bytes(1e9, 2, 2), split_count_bytes(1e9, 2) * 7 / 10);
  EXPECT_GT(split_count_bytes(1e9, 2, 2), split_count_bytes(1e9, 2) / 2);
}
