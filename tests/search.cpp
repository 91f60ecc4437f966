// The generic algorithms on a small explicit domain: a ring of n positions with steps
// +1 and +2, where distances are known in closed form.
#include <gtest/gtest.h>

#include "tansaku/search/bfs.h"
#include "tansaku/search/bidirectional_bfs.h"
#include "tansaku/search/explore.h"
#include "tansaku/search/iddfs.h"
#include "tansaku/search/ida_star.h"

using namespace tansaku::search;

namespace {
struct Ring {
  using State = int;
  using Move = int;
  int n, target;
  bool is_goal(int s) const { return s == target; }
  int goal() const { return target; }
  template <class F>
  void for_each_move(int s, F&& f) const {
    f(1, (s + 1) % n);
    f(2, (s + 2) % n);
  }
  template <class F>
  void for_each_predecessor(int s, F&& f) const {
    f(1, (s - 1 + n) % n);
    f(2, (s - 2 + n) % n);
  }
  int h(int s) const { return ((target - s + n) % n + 1) / 2; }
  std::uint64_t size() const { return n; }
  std::uint64_t rank(int s) const { return s; }
  int unrank(std::uint64_t r) const { return static_cast<int>(r); }
};
int expected(int n, int t) { return (t % n + 1) / 2; }
}  // namespace

TEST(Search, AllAlgorithmsAgreeOnRing) {
  for (int t = 0; t < 23; ++t) {
    Ring d{23, t};
    auto a = bfs(d, 0), b = bidirectional_bfs(d, 0), c = ida_star(d, 0), e = iddfs(d, 0);
    ASSERT_TRUE(a.found && b.found && c.found && e.found);
    EXPECT_EQ(a.cost, expected(23, t));
    EXPECT_EQ(b.cost, a.cost);
    EXPECT_EQ(c.cost, a.cost);
    EXPECT_EQ(e.cost, a.cost);
    int s = 0;
    for (int m : b.moves) s = (s + m) % 23;
    EXPECT_EQ(s, t);
  }
}

TEST(Search, CountsOptimalSolutions) {
  // distance 5 with steps in {1,2}: the orders of 2+2+1, three sequences
  Ring d{100, 5};
  IdaOptions o;
  o.mode = SolutionMode::Count;
  auto r = ida_star(d, 0, o);
  EXPECT_EQ(r.cost, 3);
  EXPECT_EQ(tansaku::to_u64(r.count), 3u);
  o.mode = SolutionMode::All;
  auto all = ida_star(d, 0, o);
  EXPECT_EQ(all.all.size(), 3u);
}

TEST(Search, ExploreHistogramAnyThreadCount) {
  Ring d{1001, 0};
  std::uint64_t src = 0;
  for (unsigned threads : {1u, 2u, 4u}) {
    Limits lim;
    lim.threads = threads;
    auto r = explore(d, std::span<const std::uint64_t>(&src, 1), 5, lim);
    EXPECT_EQ(r.states, 1001u);
    EXPECT_EQ(r.depth, 500);
    EXPECT_EQ(r.histogram[1], 2u);
    EXPECT_EQ(r.histogram[2], 2u);  // layer d is {2d-1, 2d}
    EXPECT_EQ(r.farthest_count, 2u);
    ASSERT_EQ(r.farthest.size(), 2u);
    EXPECT_EQ(r.farthest[0], 999u);
    EXPECT_EQ(r.farthest[1], 1000u);
  }
}

namespace {
struct Line {
  using State = int;
  using Move = int;
  bool is_goal(int s) const { return s == -1; }
  template <class F>
  void for_each_move(int s, F&& f) const {
    if (s < 10) f(1, s + 1);
  }
};
}  // namespace

TEST(Search, BfsReportsExhaustion) {
  Line d;
  auto r = bfs(d, 0);
  EXPECT_FALSE(r.found);
  EXPECT_TRUE(r.exhausted);
}
