// The generic algorithms on a small explicit domain: a ring of n positions with steps
// +1 and +2, where distances are known in closed form.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tansaku/search/beam_search.h"
#include "tansaku/search/best_first.h"
#include "tansaku/search/bfs.h"
#include "tansaku/search/bidirectional_bfs.h"
#include "tansaku/search/depth_first.h"
#include "tansaku/search/explore.h"
#include "tansaku/search/explore_path.h"
#include "tansaku/search/ida_star.h"
#include "tansaku/search/ida_star_inplace.h"
#include "tansaku/search/iddfs.h"

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

TEST(Search, ExploreHistogramAnyThreadCount) {  // labels: tsan
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
// The ring with steps -2, -1, +1, +2 (symmetric), optionally with the batch paths (a derived
// type, not a requires-clause on the members: clang 14 would still see them in the concept).
struct SymRingPlain {
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
};

struct SymRingBatch : SymRingPlain {
  template <class F, class P>
  std::pair<std::uint64_t, std::uint64_t> for_each_neighbor_rank_batch(const std::uint64_t* r, std::size_t k, F f,
                                                                       P touch) const {
    std::uint64_t calls = 0, trues = 0;
    for (int m : {-2, -1, 1, 2}) {  // move by move
      touch(0, size());
      for (std::size_t i = 0; i < k; ++i) ++calls, trues += f(static_cast<std::uint64_t>((static_cast<int>(r[i]) + m + n) % n));
    }
    return {calls, trues};
  }
  template <class F, class P>
  std::pair<std::uint64_t, std::uint64_t> any_neighbor_rank_batch(const std::uint64_t* r, std::size_t k, F pred,
                                                                  P) const {
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
using SymRing = std::conditional_t<Batch, SymRingBatch, SymRingPlain>;

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

TEST(Search, ExploreKeepsDistancesMod3AndPathsFollow) {  // labels: tsan
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

namespace {
// A grid with walls: the plain Manhattan distance is admissible but often far off, so the
// non-optimal searches take detours a BFS does not.
struct Maze {
  using State = int;
  using Move = char;
  int w, rows;
  std::string cells;  // '#' wall
  int target;
  bool is_goal(int s) const { return s == target; }
  int h(int s) const { return std::abs(s % w - target % w) + std::abs(s / w - target / w); }
  template <class F>
  void for_each_move(int s, F&& f) const {
    const int x = s % w, y = s / w;
    const auto go = [&](char m, int nx, int ny) {
      if (nx >= 0 && nx < w && ny >= 0 && ny < rows && cells[static_cast<std::size_t>(ny * w + nx)] != '#')
        f(m, ny * w + nx);
    };
    go('r', x + 1, y), go('l', x - 1, y), go('d', x, y + 1), go('u', x, y - 1);
  }
};
// Replays moves from `start`: the cell reached (-1 on an illegal move).
int replay(const Maze& d, int s, const std::vector<char>& moves) {
  for (char m : moves) {
    int next = -1;
    d.for_each_move(s, [&](char mv, int t) {
      if (mv == m) next = t;
    });
    if (next < 0) return -1;
    s = next;
  }
  return s;
}
const Maze kMaze{8, 6,
                 "........"
                 ".######."
                 ".#....#."
                 ".#.##.#."
                 "...#...."
                 "####.##.",
                 4 * 8 + 4};
}  // namespace

TEST(Search, WeightedAStarKeepsItsBound) {
  const int least = bfs(kMaze, 0).cost;
  ASSERT_GT(least, 0);
  for (auto [num, den] : {std::pair{1, 1}, {3, 2}, {2, 1}, {5, 1}}) {
    const auto r = weighted_astar(kMaze, 0, num, den);
    ASSERT_TRUE(r.found);
    EXPECT_EQ(replay(kMaze, 0, r.moves), kMaze.target);
    EXPECT_EQ(r.cost, static_cast<int>(r.moves.size()));
    EXPECT_LE(r.cost * den, least * num) << num << "/" << den;
    if (num == den) {
      EXPECT_EQ(r.cost, least);  // A*
    }
  }
}

TEST(Search, GreedyAndBeamFindAPath) {
  const int least = bfs(kMaze, 0).cost;
  const auto g = greedy_best_first(kMaze, 0);
  ASSERT_TRUE(g.found);
  EXPECT_EQ(replay(kMaze, 0, g.moves), kMaze.target);
  EXPECT_GE(g.cost, least);
  for (std::size_t width : {1u, 2u, 1000u}) {
    const auto b = beam_search(kMaze, 0, width);
    ASSERT_TRUE(b.found) << width;
    EXPECT_EQ(replay(kMaze, 0, b.moves), kMaze.target);
    EXPECT_GE(b.cost, least);
  }
  EXPECT_EQ(beam_search(kMaze, 0, 1000).cost, least);  // nothing cut: breadth-first
}

TEST(Search, NonOptimalSearchesProveExhaustion) {
  Maze walled = kMaze;
  walled.cells[static_cast<std::size_t>(3 * 8 + 4)] = '#';  // the goal's only ways in
  walled.cells[static_cast<std::size_t>(4 * 8 + 5)] = '#';
  walled.cells[static_cast<std::size_t>(5 * 8 + 4)] = '#';
  for (const auto& r : {weighted_astar(walled, 0, 2, 1), greedy_best_first(walled, 0), beam_search(walled, 0, 1000)}) {
    EXPECT_FALSE(r.found);
    EXPECT_TRUE(r.exhausted);
  }
  EXPECT_THROW(beam_search(walled, 0, 1), tansaku::LimitError);  // a cut beam proves nothing
}

// The maze with a guide that sends the search the wrong way first (away from the target).
struct Misguided : Maze {
  int guide(int s) const { return -h(s); }
};

TEST(Search, DepthFirstFindsAPathAndProvesExhaustion) {
  const int least = bfs(kMaze, 0).cost;
  const auto r = depth_first(kMaze, 0);
  ASSERT_TRUE(r.found);
  EXPECT_FALSE(r.optimal);
  EXPECT_EQ(replay(kMaze, 0, r.moves), kMaze.target);
  EXPECT_EQ(r.cost, static_cast<int>(r.moves.size()));
  EXPECT_GE(r.cost, least);
  // No cell entered twice: the path is at most the open cells long.
  EXPECT_LT(r.cost, static_cast<int>(std::count(kMaze.cells.begin(), kMaze.cells.end(), '.')));
  // A guide orders the tries: on an open 5x5 grid h leads straight to the far corner, the
  // guide away from it (a snake through the grid).
  const Maze open{5, 5, std::string(25, '.'), 24};
  const auto straight = depth_first(open, 0);
  ASSERT_TRUE(straight.found);
  EXPECT_EQ(straight.cost, 8);
  const Misguided m{open};
  static_assert(GuidedDomain<Misguided> && !GuidedDomain<Maze>);
  const auto g = depth_first(m, 0);
  ASSERT_TRUE(g.found);
  EXPECT_EQ(replay(open, 0, g.moves), 24);
  EXPECT_GT(g.cost, 8);
  // The start as goal: no moves.
  const auto z = depth_first(kMaze, kMaze.target);
  ASSERT_TRUE(z.found);
  EXPECT_EQ(z.cost, 0);
  EXPECT_TRUE(z.moves.empty());
  // Walled off: every reachable cell entered, a proof; cut by max_cost, no proof.
  Maze walled = kMaze;
  walled.cells[static_cast<std::size_t>(3 * 8 + 4)] = '#';
  walled.cells[static_cast<std::size_t>(4 * 8 + 5)] = '#';
  walled.cells[static_cast<std::size_t>(5 * 8 + 4)] = '#';
  const auto w = depth_first(walled, 0);
  EXPECT_FALSE(w.found);
  EXPECT_TRUE(w.exhausted);
  Limits lim;
  lim.max_cost = least - 1;
  const auto c = depth_first(kMaze, 0, lim);
  EXPECT_FALSE(c.found);
  EXPECT_FALSE(c.exhausted);
  lim.memory = 64;  // not one entry
  EXPECT_THROW(depth_first(kMaze, 0, lim), tansaku::LimitError);
}

// Peg-like: every move removes one of n tokens; a goal at depth n, many dead ends. Keyed by
// the number of tokens left and whether token 0 is still there: equal keys, equal futures.
struct Tokens {
  using State = unsigned;  // bit i: token i present
  using Move = int;
  int n;
  bool is_goal(unsigned s) const { return s == 1; }  // token 0 alone
  int h(unsigned s) const { return (s & 1) ? std::popcount(s) - 1 : kDeadEnd; }
  std::uint64_t key(unsigned s) const { return std::popcount(s) * 2 + (s & 1); }
  template <class F>
  void for_each_move(unsigned s, F&& f) const {
    for (int i = 0; i < n; ++i)
      if (s >> i & 1) f(i, s & ~(1u << i));
  }
};

TEST(Search, DepthFirstCutsDeadEndsAndTranspositions) {
  const Tokens d{12};
  const auto r = depth_first(d, (1u << 12) - 1);
  ASSERT_TRUE(r.found);
  EXPECT_EQ(r.cost, 11);
  EXPECT_EQ(std::count(r.moves.begin(), r.moves.end(), 0), 0);  // token 0 never removed (h: dead)
  // One state per key entered: the first child of each, no backtracking.
  EXPECT_EQ(r.stats.expanded, 11u);
  EXPECT_EQ(r.stats.stored, 12u);
  // Token 0 missing: every child is dead at once, a proof.
  const auto none = depth_first(d, (1u << 12) - 2);
  EXPECT_FALSE(none.found);
  EXPECT_TRUE(none.exhausted);
}

TEST(Search, IdaStarRecordsItsLowerBound) {
  Proved proved;
  Limits lim;
  lim.proved = &proved;
  const auto r = ida_star(kMaze, 0, {}, lim);
  ASSERT_TRUE(r.found);
  EXPECT_EQ(proved.lower_bound, r.cost);  // the last bound searched is the optimum
}

namespace {
// Sorting a permutation by swaps of neighbours, in place: the least number of swaps is the
// number of inversions, the same for the permutation and its inverse (a sorting of the
// inverse, reversed, sorts the permutation: swaps are their own inverses). h: half the
// elements out of place, rounded up (a swap moves two), or 0 (uninformed: a larger search).
struct SwapSort {
  using Move = int;
  struct Undo {
    int last;
  };
  static constexpr int kMaxMoves = 8;
  std::array<int, 8> p{};
  int n = 0, last = -1;
  bool informed = true;
  int out_of_place() const {
    int out = 0;
    for (int i = 0; i < n; ++i) out += p[static_cast<std::size_t>(i)] != i;
    return out;
  }
  int h() const { return informed ? (out_of_place() + 1) / 2 : 0; }
  bool is_goal() const { return out_of_place() == 0; }
  int moves(Move* buf) const {
    int k = 0;
    for (int i = 0; i + 1 < n; ++i)
      if (i != last) buf[k++] = i;  // never the swap just made
    return k;
  }
  Undo apply(Move m) {
    const Undo u{last};
    std::swap(p[static_cast<std::size_t>(m)], p[static_cast<std::size_t>(m) + 1]);
    last = m;
    return u;
  }
  void undo(Move m, const Undo& u) {
    std::swap(p[static_cast<std::size_t>(m)], p[static_cast<std::size_t>(m) + 1]);
    last = u.last;
  }
};
}  // namespace

TEST(Search, InPlaceDualSearchesTheSmallerRootAndFindsTheOptimum) {
  std::mt19937 rng(7);
  int deep = 0;
  for (int trial = 0; trial < 40; ++trial) {
    SwapSort a;
    a.n = 5;
    for (int i = 0; i < a.n; ++i) a.p[static_cast<std::size_t>(i)] = i;
    std::shuffle(a.p.begin(), a.p.begin() + a.n, rng);
    SwapSort b = a;  // the inverse permutation
    for (int i = 0; i < a.n; ++i) b.p[static_cast<std::size_t>(a.p[static_cast<std::size_t>(i)])] = i;
    int inversions = 0;
    for (int i = 0; i < a.n; ++i)
      for (int j = i + 1; j < a.n; ++j)
        inversions += a.p[static_cast<std::size_t>(i)] > a.p[static_cast<std::size_t>(j)];
    for (const bool a_informed : {false, true}) {
      a.informed = a_informed;
      b.informed = !a_informed;
      for (const unsigned threads : {1u, 2u}) {
        Limits lim;
        lim.threads = threads;
        InPlaceIdaOptions o;
        o.parallel_threshold = 50;  // the iterations split over the threads too
        const auto one = ida_star_inplace(a, o, lim);
        bool dual = false;
        const auto two = ida_star_inplace_dual(a, b, dual, o, lim, 20);
        ASSERT_TRUE(one.found && two.found);
        EXPECT_EQ(one.cost, inversions);
        EXPECT_EQ(two.cost, inversions);
        // Past the first few bounds the informed root's smaller iterations are searched.
        if (inversions >= 4) {
          EXPECT_EQ(dual, !a_informed) << "trial " << trial;
        }
        // The moves sort the root they start from; from b's, reversed they sort a.
        std::vector<int> moves = two.moves;
        if (dual) std::reverse(moves.begin(), moves.end());
        SwapSort s = a;
        for (const int m : moves) (void)s.apply(m);
        EXPECT_TRUE(s.is_goal()) << "trial " << trial << (dual ? " (from the inverse)" : "");
      }
    }
    deep += inversions >= 4;
  }
  EXPECT_GE(deep, 20);  // the searches went past the measuring bounds most of the time
}
