// The flip configuration space: the algebraic explore (distance transform over the coset
// classes) checked against the generic 2-bit BFS explore, and the seed's counts.
#include <gtest/gtest.h>

#include <random>

#include "flip/board.h"
#include "flip/space.h"
#include "tansaku/search/bfs.h"
#include "tansaku/search/explore.h"

using namespace tansaku;
using namespace tansaku::flip;

namespace {
search::ExploreResult bfs_explore(const Board& b, std::uint64_t source, std::size_t keep) {
  SpaceDomain d{word_patterns(b), static_cast<int>(b.cells()), 0};
  search::Limits lim;
  lim.threads = 2;
  return search::explore(d, std::span<const std::uint64_t>(&source, 1), keep, lim);
}
}  // namespace

TEST(FlipSpace, SeedFourByFourHistogram) {
  Board b(4, 4, false, parse_rule("eight"));
  auto a = explore_algebra(b, 0, 40, search::Limits{});
  EXPECT_EQ(a.histogram, (std::vector<std::uint64_t>{1, 16, 120, 560, 1387, 1440, 540, 32}));
  EXPECT_EQ(a.states, 4096u);
  EXPECT_EQ(a.rank, 12);
  EXPECT_EQ(a.nullity, 4);
  EXPECT_EQ(a.farthest_count, 32u);
  auto s = bfs_explore(b, 0, 40);
  EXPECT_EQ(s.histogram, a.histogram);
  EXPECT_EQ(s.farthest, a.farthest);
}

TEST(FlipSpace, AlgebraMatchesBfs) {
  std::mt19937_64 rng(21);
  const char* rules[] = {"eight", "lights-out", "110/011/000", "001/010/100", "111/111/111", "010/101/010"};
  int trials = 0;
  for (int R = 1; R <= 4; ++R)
    for (int C = 1; C <= 5; ++C)
      for (const char* rule : rules)
        for (bool torus : {false, true}) {
          Board b(R, C, torus, parse_rule(rule));
          const std::uint64_t src = rng() & ((std::uint64_t{1} << (R * C)) - 1);
          auto a = explore_algebra(b, src, 7, search::Limits{});
          auto s = bfs_explore(b, src, 7);
          SCOPED_TRACE(testing::Message() << R << "x" << C << " " << rule << " torus " << torus);
          ASSERT_EQ(a.histogram, s.histogram);
          ASSERT_EQ(a.states, s.states);
          ASSERT_EQ(a.depth, s.depth);
          ASSERT_EQ(a.farthest_count, s.farthest_count);
          ASSERT_EQ(a.farthest, s.farthest);
          ASSERT_EQ(std::uint64_t{1} << a.rank, a.states);
          ++trials;
        }
  EXPECT_EQ(trials, 240);
}

TEST(FlipSpace, FiveByFiveBothWays) {
  // Seed 000: 2^24 configurations reach all-off, the farthest need 20 presses (126 of them).
  Board b(5, 5, false, parse_rule("eight"));
  auto a = explore_algebra(b, 0, 20, search::Limits{});
  EXPECT_EQ(a.states, 1u << 24);
  EXPECT_EQ(a.depth, 20);
  EXPECT_EQ(a.farthest_count, 126u);
  auto s = bfs_explore(b, 0, 20);
  EXPECT_EQ(s.histogram, a.histogram);
  EXPECT_EQ(s.farthest, a.farthest);
}

TEST(FlipSpace, FourBySixLongest) {
  Board b(4, 6, false, parse_rule("eight"));
  auto a = explore_algebra(b, 0, 5, search::Limits{});
  EXPECT_EQ(a.states, 1u << 24);
  EXPECT_EQ(a.nullity, 0);
  EXPECT_EQ(a.depth, 24);
  EXPECT_EQ(a.farthest_count, 1u);
  // Pressing every cell lights the border (odd neighbour counts): it needs all 24 presses.
  ASSERT_EQ(a.farthest.size(), 1u);
  Bits f(24);
  f.data()[0] = a.farthest[0];
  EXPECT_EQ(b.format_grid(f), "111111/100001/100001/111111");
}

TEST(FlipSpace, SolveByBfsMatchesDistances) {
  // The generic BFS path search agrees with the explore distances on random starts.
  Board b(3, 4, false, parse_rule("lights-out"));
  SpaceDomain d{word_patterns(b), 12, 0};
  std::vector<int> dist(1 << 12, -1);
  auto a = explore_algebra(b, 0, 1, search::Limits{});
  std::mt19937_64 rng(2);
  for (int t = 0; t < 50; ++t) {
    const std::uint64_t s = rng() & 4095;
    auto r = search::bfs(d, s, {});
    ASSERT_TRUE(r.found);  // 3x4 Lights Out is nonsingular
    ASSERT_LT(static_cast<std::size_t>(r.cost), a.histogram.size());
  }
}
