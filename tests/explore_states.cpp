// The hashed layered explore (search/explore_states.h) in its three forms - every state kept,
// frontier search for symmetric domains, and move pruning after the last move - against an
// independent breadth-first search over an array and closed forms, on graphs wide enough
// for the parallel path, with 1 and 2 threads.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <vector>

#include "tansaku/core/error.h"
#include "tansaku/search/explore_states.h"

using namespace tansaku::search;

namespace {

// The n-cube with extra moves: flip one bit, or (with `pairs`) two neighbouring bits, which
// joins states of the same layer and so tests the frontier's look at layer d. Moves are
// involutions, so the graph is undirected.
struct Cube {
  using State = std::uint32_t;
  using Move = int;  // the first bit flipped; pairs: n + i
  int n;
  bool pairs;
  bool is_goal(State) const { return false; }
  template <class F>
  void for_each_move(State s, F&& f) const {
    for (int i = 0; i < n; ++i) f(i, s ^ (1u << i));
    if (pairs)
      for (int i = 0; i + 1 < n; ++i) f(n + i, s ^ (3u << i));
  }
  std::size_t hash(State s) const { return s; }
};

// The same graph declared symmetric (frontier search).
struct SymCube : Cube {
  bool symmetric() const { return true; }
};

// Symmetric, and after a move the same move (which undoes it) is left out.
struct PrunedCube : SymCube {
  template <class F>
  void for_each_move_after(State s, const Move* last, F&& f) const {
    for_each_move(s, [&](Move m, State t) {
      if (!last || m != *last) f(m, t);
    });
  }
};

static_assert(PrunesAfterMove<PrunedCube> && !PrunesAfterMove<SymCube>);

// Distances by an array BFS.
std::vector<std::uint64_t> reference(const Cube& c, std::uint32_t src, int* depth, std::uint32_t* first_farthest) {
  std::vector<int> dist(std::size_t{1} << c.n, -1);
  std::deque<std::uint32_t> q{src};
  dist[src] = 0;
  std::vector<std::uint64_t> hist;
  while (!q.empty()) {
    const std::uint32_t s = q.front();
    q.pop_front();
    const int ds = dist[s];
    if (static_cast<std::size_t>(ds) >= hist.size()) hist.resize(static_cast<std::size_t>(ds) + 1, 0);
    ++hist[static_cast<std::size_t>(ds)];
    c.for_each_move(s, [&](int, std::uint32_t t) {
      if (dist[t] < 0) dist[t] = ds + 1, q.push_back(t);
    });
  }
  *depth = static_cast<int>(hist.size()) - 1;
  for (std::uint32_t s = 0; s < dist.size(); ++s)
    if (dist[s] == *depth) {
      *first_farthest = s;
      break;
    }
  return hist;
}

template <class D>
void check(const D& d, std::uint32_t src) {
  int depth = 0;
  std::uint32_t first = 0;
  const auto want = reference(d, src, &depth, &first);
  for (unsigned threads : {1u, 2u}) {
    SCOPED_TRACE(testing::Message() << "threads " << threads << " pairs " << d.pairs);
    Limits lim;
    lim.threads = threads;
    const auto r = explore_states(d, std::span<const std::uint32_t>(&src, 1), 3, lim);
    EXPECT_EQ(r.histogram, want);
    EXPECT_EQ(r.states, std::uint64_t{1} << d.n);
    EXPECT_EQ(r.depth, depth);
    ASSERT_FALSE(r.farthest.empty());
    EXPECT_EQ(r.farthest[0], first);
    EXPECT_EQ(r.farthest_count, want.back());
  }
}

std::uint64_t binomial(int n, int k) {
  std::uint64_t c = 1;
  for (int i = 1; i <= k; ++i) c = c * static_cast<std::uint64_t>(n - k + i) / static_cast<std::uint64_t>(i);
  return c;
}

}  // namespace

TEST(ExploreStates, CubeLayersAreBinomials) {  // labels: tsan
  // 2^20 states, the widest layer C(20, 10) = 184,756: the parallel path.
  {
    const Cube c{20, false};
    Limits lim;
    lim.threads = 2;
    std::uint32_t src = 0;
    const auto plain = explore_states(c, std::span<const std::uint32_t>(&src, 1), 2, lim);
    const auto sym = explore_states(SymCube{c}, std::span<const std::uint32_t>(&src, 1), 2, lim);
    const auto pruned = explore_states(PrunedCube{{c}}, std::span<const std::uint32_t>(&src, 1), 2, lim);
    ASSERT_EQ(plain.histogram.size(), 21u);
    for (int k = 0; k <= 20; ++k) EXPECT_EQ(plain.histogram[static_cast<std::size_t>(k)], binomial(20, k)) << k;
    EXPECT_EQ(sym.histogram, plain.histogram);
    EXPECT_EQ(pruned.histogram, plain.histogram);
    EXPECT_EQ(plain.farthest, std::vector<std::uint32_t>{0xFFFFFu});
    EXPECT_EQ(sym.farthest, plain.farthest);
    EXPECT_FALSE(plain.frontier);
    EXPECT_TRUE(sym.frontier);
    // The frontier keeps three layers, not the whole space, and prunes the move back.
    EXPECT_EQ(plain.stats.stored, std::uint64_t{1} << 20);
    EXPECT_LT(sym.stats.stored, 3 * binomial(20, 10) + 1);
    EXPECT_EQ(sym.stats.generated, 20u << 20);
    EXPECT_EQ(pruned.stats.generated, (20u << 20) - ((1u << 20) - 1));  // every state but the source
    // (Not table_bytes: the shards' hash sets grow by doubling as threads fill them, so with
    // 2^20 states the two peaks can land either way round: 38.0 vs 39.3 MB was seen.)
  }
}

TEST(ExploreStates, SameLayerEdgesAgreeWithArrayBfs) {  // labels: tsan
  for (bool pairs : {false, true}) {
    const Cube c{16, pairs};
    check(c, 0);
    check(SymCube{c}, 0);
    check(PrunedCube{{c}}, 0);
    check(PrunedCube{{c}}, 0xAAAAu);
  }
}

TEST(ExploreStates, MemoryBudgetRefusesCleanly) {  // labels: tsan
  Limits lim;
  lim.memory = 1 << 20;  // the plain explore of 2^20 states needs far more
  std::uint32_t src = 0;
  EXPECT_THROW(explore_states(Cube{20, false}, std::span<const std::uint32_t>(&src, 1), 1, lim), tansaku::LimitError);
}

// The visit (random positions are drawn from it) sees every reachable state exactly once, also
// in a frontier search that drops old layers, with 1 and 2 threads.
TEST(ExploreStates, VisitSeesEveryStateOnce) {  // labels: tsan
  for (unsigned threads : {1u, 2u}) {
    Limits lim;
    lim.threads = threads;
    const std::uint32_t src = 0;
    std::vector<int> seen(1u << 16, 0);
    std::uint64_t calls = 0;
    const auto r = explore_states(PrunedCube{{Cube{16, true}}}, std::span<const std::uint32_t>(&src, 1), 1, lim,
                                  [&](std::uint32_t s) { ++seen[s], ++calls; });
    EXPECT_TRUE(r.frontier);
    EXPECT_EQ(calls, r.states);
    EXPECT_EQ(calls, std::uint64_t{1} << 16);
    for (int v : seen) ASSERT_EQ(v, 1);
  }
}
