// Unit tests of square-sum: the graph, the exact search (counts against OEIS A071983 and a
// brute force), smallest rows and rings, the large-N heuristic, the verifier.
#include <gtest/gtest.h>

#include <functional>

#include "square_sum/path_search.h"
#include "square_sum/solver.h"
#include "square_sum/squares.h"
#include "square_sum/verify.h"

using namespace tansaku::square_sum;

namespace {

// Plain backtracking, no pruning: rows counted once per reversal, rings once per
// rotation and reflection.
std::uint64_t brute_count(int n, bool ring) {
  std::vector<char> used(static_cast<std::size_t>(n) + 1, 0);
  std::uint64_t directed = 0;
  std::function<void(int, int, int)> dfs = [&](int v, int k, int s) {
    if (k == n) {
      if (!ring || is_square(v + s)) ++directed;
      return;
    }
    for (int u = 1; u <= n; ++u)
      if (!used[u] && is_square(u + v)) {
        used[u] = 1;
        dfs(u, k + 1, s);
        used[u] = 0;
      }
  };
  for (int s = 1; s <= (ring ? 1 : n); ++s) {
    used[s] = 1;
    dfs(s, 1, s);
    used[s] = 0;
  }
  return directed / 2;
}

std::uint64_t count(int n, bool ring) {
  SearchOptions o;
  o.mode = Mode::Count;
  o.ring = ring;
  return search(n, o).count;
}

}  // namespace

TEST(SquareSumGraph, NeighboursAreTheSquarePartners) {
  for (int n : {1, 2, 15, 50, 1000}) {
    for (int v = 1; v <= n; v += (n > 100 ? 37 : 1)) {
      std::vector<int> fast, slow;
      for_each_neighbour(n, v, [&](int u) { fast.push_back(u); });
      for (int u = 1; u <= n; ++u)
        if (u != v && is_square(u + v)) slow.push_back(u);
      EXPECT_EQ(fast, slow) << n << " " << v;
    }
  }
  EXPECT_TRUE(is_square(0));
  EXPECT_TRUE(is_square(1LL << 60));
  EXPECT_FALSE(is_square((1LL << 60) + 1));
  EXPECT_EQ(isqrt(99), 9);
}

TEST(SquareSumSearch, RowCountsMatchOeisA071983) {
  const std::vector<std::uint64_t> expected = {1, 1, 1, 0, 0, 0, 0, 0, 3};  // N = 15..23
  for (int n = 15; n <= 23; ++n) EXPECT_EQ(count(n, false), expected[n - 15]) << "N=" << n;
  for (int n = 1; n <= 14; ++n) EXPECT_EQ(count(n, false), n == 1 ? 1u : 0u) << "N=" << n;
}

TEST(SquareSumSearch, CountsAgreeWithBruteForce) {
  for (int n = 2; n <= 27; ++n) EXPECT_EQ(count(n, false), brute_count(n, false)) << "row N=" << n;
  for (int n = 3; n <= 34; ++n) EXPECT_EQ(count(n, true), brute_count(n, true)) << "ring N=" << n;
}

TEST(SquareSumSearch, SmallestRowIsFifteenAndUnique) {
  for (int n = 2; n < 15; ++n) EXPECT_EQ(search(n, SearchOptions{}).status, Status::None) << n;
  SearchOptions all;
  all.mode = Mode::All;
  SearchResult r = search(15, all);
  ASSERT_EQ(r.all.size(), 1u);
  EXPECT_EQ(r.all[0], (std::vector<int>{8, 1, 15, 10, 6, 3, 13, 12, 4, 5, 11, 14, 2, 7, 9}));
  FindResult f = find_sequence(15, false);
  ASSERT_TRUE(f.found);
  EXPECT_EQ(f.sequence, r.all[0]);
}

TEST(SquareSumSearch, SmallestRingIsThirtyTwo) {
  SearchOptions ring;
  ring.ring = true;
  for (int n = 3; n < 32; ++n) EXPECT_EQ(search(n, ring).status, Status::None) << n;
  FindResult f = find_sequence(32, true);
  ASSERT_TRUE(f.found);
  verify_sequence(32, f.sequence, true);
  EXPECT_EQ(f.sequence, (std::vector<int>{1, 8, 28, 21, 4, 32, 17, 19, 30, 6, 3, 13, 12, 24, 25, 11,
                                          5, 31, 18, 7, 29, 20, 16, 9, 27, 22, 14, 2, 23, 26, 10, 15}));
  EXPECT_EQ(count(32, true), 1u);
}

TEST(SquareSumSearch, ListsEveryRowOnceInCanonicalOrientation) {
  SearchOptions all;
  all.mode = Mode::All;
  SearchResult r = search(25, all);
  EXPECT_EQ(r.count, 10u);
  ASSERT_EQ(r.all.size(), 10u);
  for (const auto& s : r.all) {
    verify_sequence(25, s, false);
    EXPECT_LT(s.front(), s.back());
  }
  all.ring = true;
  SearchResult rings = search(34, all);
  EXPECT_EQ(rings.all.size(), rings.count);
  for (const auto& s : rings.all) {
    verify_sequence(34, s, true);
    EXPECT_EQ(s.front(), 1);
    EXPECT_LT(s[1], s.back());
  }
}

TEST(SquareSumHeuristic, LargeRowsAndRings) {
  for (int n : {100, 1000, 5000, 30000}) {
    for (bool ring : {false, true}) {
      auto p = posa_search(n, ring, 200ULL * n + 20000000ULL, 1);
      ASSERT_TRUE(p.has_value()) << n << " " << ring;
      verify_sequence(n, *p, ring);
    }
  }
  // Mid-sized N where the plain exact search stalls on rings (N = 56, 57, 59, 60, 80, 84).
  for (int n : {56, 57, 59, 60, 80, 84}) {
    FindResult f = find_sequence(n, true);
    ASSERT_TRUE(f.found) << n;
    verify_sequence(n, f.sequence, true);
  }
}

TEST(SquareSumHeuristic, EveryNFrom25To300HasARowAndFrom32ARing) {
  for (int n = 25; n <= 300; ++n) {
    FindResult row = find_sequence(n, false);
    ASSERT_TRUE(row.found) << n;
    verify_sequence(n, row.sequence, false);
    if (n >= 32) {
      FindResult ring = find_sequence(n, true);
      ASSERT_TRUE(ring.found) << n;
      verify_sequence(n, ring.sequence, true);
    }
  }
}

TEST(SquareSumVerify, RejectsBadSequences) {
  std::vector<int> row = {8, 1, 15, 10, 6, 3, 13, 12, 4, 5, 11, 14, 2, 7, 9};
  verify_sequence(15, row, false);
  EXPECT_THROW(verify_sequence(15, row, true), std::logic_error);  // 9 + 8 = 17
  auto bad = row;
  std::swap(bad[0], bad[1]);
  EXPECT_THROW(verify_sequence(15, bad, false), std::logic_error);
  bad = row;
  bad[0] = 1;
  EXPECT_THROW(verify_sequence(15, bad, false), std::logic_error);  // 1 twice
  EXPECT_THROW(verify_sequence(16, row, false), std::logic_error);  // too short
  bad = row;
  bad[0] = 16;
  EXPECT_THROW(verify_sequence(15, bad, false), std::logic_error);  // out of range
  std::vector<int> rev(row.rbegin(), row.rend());
  EXPECT_EQ(canonical(rev, false), row);
  EXPECT_EQ(canonical({3, 1, 8, 28}, true), (std::vector<int>{1, 3, 28, 8}));
}
