// The generic algorithms on a small explicit domain: a ring of n positions with steps
// +1 and +2, where distances are known in closed form.
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>

#include "tansaku/search/bfs.h"
#include "tansaku/search/bidirectional_bfs.h"
#include "tansaku/search/explore.h"
#include "tansaku/search/explore_path.h"
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
// The ring with steps -2, -1, +1, +2 (symmetric), optionally with the batch paths.
template <bool Batch>
struct SymRing {
  using State = int;
  using Move = int;
  int n;
  bool is_goal(int s) const { return s == 0; }
  template <class F>
  void for_each_move(int s, F&& f) const {
    for (int m : {-2, -1, 1, 2}) f(m, (s + m + n) % n);
  }
  bool symmetric() const { return true; }
  std::uint64_t size() const { return static_cast<std::uint64_t>(n); }
  std::uint64_t rank(int s) const { return static_cast<std::uint64_t>(s); }
  int unrank(std::uint64_t r) const { return static_cast<int>(r); }
  template <class F, class P>
  std::pair<std::uint64_t, std::uint64_t> for_each_neighbor_rank_batch(const std::uint64_t* r, std::size_t k, F f, P touch) const
    requires Batch
  {
    std::uint64_t calls = 0, trues = 0;
    for (int m : {-2, -1, 1, 2}) {  // move by move
      touch(0, size());
      for (std::size_t i = 0; i < k; ++i) ++calls, trues += f(static_cast<std::uint64_t>((static_cast<int>(r[i]) + m + n) % n));
    }
    return {calls, trues};
  }
  template <class F, class P>
  std::pair<std::uint64_t, std::uint64_t> any_neighbor_rank_batch(const std::uint64_t* r, std::size_t k, F pred, P) const
    requires Batch
  {
    std::uint64_t calls = 0, found = 0;
    for (std::size_t i = 0; i < k; ++i)
      for (int m : {-2, -1, 1, 2}) {
        ++calls;
        if (pred(static_cast<std::uint64_t>((static_cast<int>(r[i]) + m + n) % n))) {
          found |= std::uint64_t{1} << i;
          break;
        }
      }
    return {calls, found};
  }
};

template <bool Batch>
void check_sym_ring() {
  SymRing<Batch> d{100003};
  static_assert(BatchRankedDomain<SymRing<true>> && !BatchRankedDomain<SymRing<false>>);
  std::uint64_t src = 0;
  for (unsigned threads : {1u, 2u}) {
    Limits lim;
    lim.threads = threads;
    auto r = explore(d, std::span<const std::uint64_t>(&src, 1), 3, lim, true);
    EXPECT_EQ(r.states, 100003u);
    EXPECT_EQ(r.depth, 25001);  // the farthest: 50001 and 50002, 25001 steps of 2 away
    EXPECT_EQ(r.farthest_count, 2u);
    EXPECT_EQ(r.histogram[1], 4u);
    ASSERT_TRUE(r.distances);
    for (std::uint64_t s = 0; s < 100003; s += 97) {
      const std::uint64_t around = std::min(s, 100003 - s);
      EXPECT_EQ(r.distances->get(s), static_cast<unsigned>((around + 1) / 2 % 3)) << s;
    }
    const auto path = path_to_source(d, *r.distances, r.farthest[0], r.depth);
    ASSERT_EQ(path.size(), 25001u);
    long long at = static_cast<long long>(r.farthest[0]);
    for (int m : path) at = (at + m + 100003) % 100003;
    EXPECT_EQ(at, 0);
  }
}
}  // namespace

TEST(Search, ExploreKeepsDistancesMod3AndPathsFollow) {
  check_sym_ring<false>();
  check_sym_ring<true>();  // the batch paths, forward and backward
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
