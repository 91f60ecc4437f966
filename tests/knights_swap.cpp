// Knight swap: the seed's board (16 moves, 18,480 states), Guarini's problem (16 moves),
// the domain's moves, predecessors and ranking, shortest-solution counting against IDA*,
// and the verifier.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "knights/board.h"
#include "knights/swap_domain.h"
#include "knights/swap_verify.h"
#include "tansaku/search/bfs.h"
#include "tansaku/search/bidirectional_bfs.h"
#include "tansaku/search/explore.h"
#include "tansaku/search/ida_star.h"
#include "tansaku/search/shortest_paths.h"

using namespace tansaku;
using namespace tansaku::knights;

namespace {

// Labels: 0 empty, 1 and 2 the armies.
Armies two_armies(const Cells& c) {
  Armies a{{"0", "1", "2"}, {0, 0, 0}};
  for (auto x : c) ++a.counts[x];
  return a;
}

const Cells kSeedStart = {1, 1, 1, 0, 0, 0, 0, 0, 0, 2, 2, 2};
const Cells kSeedGoal = {2, 2, 2, 0, 0, 0, 0, 0, 0, 1, 1, 1};
const Cells kGuariniStart = {1, 0, 1, 0, 0, 0, 2, 0, 2};
const Cells kGuariniGoal = {2, 0, 2, 0, 0, 0, 1, 0, 1};

}  // namespace

TEST(KnightSwap, SeedBoardSixteenMoves) {
  Board b(4, 3);
  SwapDomain d(b, two_armies(kSeedGoal), kSeedGoal);
  const auto start = d.make(kSeedStart);
  auto bi = search::bidirectional_bfs(d, start);
  ASSERT_TRUE(bi.found);
  EXPECT_EQ(bi.cost, 16);
  EXPECT_NO_THROW(verify_swap(b, kSeedStart, kSeedGoal, bi.moves));
  auto plain = search::bfs(d, start);
  ASSERT_TRUE(plain.found);
  EXPECT_EQ(plain.cost, 16);
  search::IdaOptions ida;
  ida.step = 2;
  auto ida_res = search::ida_star(d, start, ida);
  ASSERT_TRUE(ida_res.found);
  EXPECT_EQ(ida_res.cost, 16);
  EXPECT_NO_THROW(verify_swap(b, kSeedStart, kSeedGoal, ida_res.moves));
}

TEST(KnightSwap, SeedBoardHas18480States) {
  Board b(4, 3);
  SwapDomain d(b, two_armies(kSeedGoal), kSeedGoal);
  EXPECT_EQ(d.size(), 18480u);  // 12! / (3! 3! 6!)
  const std::uint64_t src = d.rank(d.goal());
  search::Limits lim;
  lim.threads = 2;
  auto res = search::explore(d, std::span<const std::uint64_t>(&src, 1), 5, lim);
  EXPECT_EQ(res.states, 18480u);  // every arrangement is reachable
  std::uint64_t sum = 0;
  for (auto h : res.histogram) sum += h;
  EXPECT_EQ(sum, 18480u);
  EXPECT_EQ(res.histogram[0], 1u);
  EXPECT_EQ(res.histogram[1], 12u);  // the goal's twelve moves
  EXPECT_GE(res.depth, 16);          // the start lies 16 moves away
}

TEST(KnightSwap, GuariniSixteenMoves) {
  Board b(3, 3);
  SwapDomain d(b, two_armies(kGuariniGoal), kGuariniGoal);
  auto res = search::bidirectional_bfs(d, d.make(kGuariniStart));
  ASSERT_TRUE(res.found);
  EXPECT_EQ(res.cost, 16);
  EXPECT_NO_THROW(verify_swap(b, kGuariniStart, kGuariniGoal, res.moves));
}

TEST(KnightSwap, ShortestPathCountAgreesWithIdaStar) {
  Board b(3, 3);
  SwapDomain d(b, two_armies(kGuariniGoal), kGuariniGoal);
  const auto start = d.make(kGuariniStart);
  auto counted = search::shortest_paths(d, start, 1000);
  ASSERT_TRUE(counted.found);
  EXPECT_EQ(counted.cost, 16);
  EXPECT_EQ(counted.all.size(), 1000u);
  std::set<std::vector<std::pair<int, int>>> distinct;
  for (const auto& sol : counted.all) {
    EXPECT_EQ(sol.size(), 16u);
    EXPECT_NO_THROW(verify_swap(b, kGuariniStart, kGuariniGoal, sol));
    std::vector<std::pair<int, int>> key;
    for (auto m : sol) key.emplace_back(m.from, m.to);
    distinct.insert(key);
  }
  EXPECT_EQ(distinct.size(), 1000u);
  // A smaller instance where IDA* can enumerate every optimal solution.
  Board small(3, 4);
  const Cells s = {1, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 1}, g = {2, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 2};
  SwapDomain ds(small, two_armies(g), g);
  search::IdaOptions ida;
  ida.step = 2;
  ida.mode = search::SolutionMode::Count;
  auto by_ida = search::ida_star(ds, ds.make(s), ida);
  auto by_bfs = search::shortest_paths(ds, ds.make(s), 0);
  ASSERT_TRUE(by_ida.found);
  ASSERT_TRUE(by_bfs.found);
  EXPECT_EQ(by_ida.cost, by_bfs.cost);
  EXPECT_EQ(tansaku::to_u64(by_ida.count), tansaku::to_u64(by_bfs.count));
  EXPECT_GT(tansaku::to_u64(by_bfs.count), 1u);
}

TEST(KnightSwap, MovesPredecessorsAndRanksAgree) {
  Board b(4, 3);
  SwapDomain d(b, two_armies(kSeedGoal), kSeedGoal);
  const auto s = d.make(kSeedStart);
  int moves = 0;
  d.for_each_move(s, [&](const SwapMove& m, const SwapState& t) {
    ++moves;
    EXPECT_TRUE(b.adjacent(m.from, m.to));
    bool back = false;  // s is a predecessor of t through the same move
    d.for_each_predecessor(t, [&](const SwapMove& pm, const SwapState& p) {
      if (p == s && pm.from == m.from && pm.to == m.to) back = true;
    });
    EXPECT_TRUE(back);
  });
  EXPECT_EQ(moves, 12);  // each of the six knights has two empty squares a move away
  // Fast-path neighbour ranks equal the ranks of the successors.
  for (std::uint64_t r = 0; r < d.size(); r += 97) {
    std::multiset<std::uint64_t> slow, fast;
    d.for_each_move(d.unrank(r), [&](const SwapMove&, const SwapState& t) { slow.insert(d.rank(t)); });
    d.for_each_neighbor_rank(r, [&](std::uint64_t t) { fast.insert(t); });
    EXPECT_EQ(slow, fast);
    EXPECT_EQ(d.rank(d.unrank(r)), r);
  }
}

TEST(KnightSwap, UnreachableGoalIsProved) {
  // On 3x3 the centre square has no knight's move: a knight there can never leave.
  Board b(3, 3);
  const Cells s = {1, 0, 0, 0, 2, 0, 0, 0, 0}, g = {2, 0, 0, 0, 1, 0, 0, 0, 0};
  SwapDomain d(b, two_armies(g), g);
  auto res = search::bidirectional_bfs(d, d.make(s));
  EXPECT_FALSE(res.found);
  EXPECT_TRUE(res.exhausted);
}

TEST(KnightSwap, VerifierRejectsBadSolutions) {
  Board b(4, 3);
  EXPECT_THROW(verify_swap(b, kSeedStart, kSeedGoal, {}), std::logic_error);             // goal not reached
  EXPECT_THROW(verify_swap(b, kSeedStart, kSeedGoal, {{3, 8}}), std::logic_error);       // no knight on 3
  EXPECT_THROW(verify_swap(b, kSeedStart, kSeedGoal, {{0, 1}}), std::logic_error);       // occupied
  EXPECT_THROW(verify_swap(b, kSeedStart, kSeedGoal, {{0, 4}}), std::logic_error);       // not a knight's move
  EXPECT_THROW(verify_swap(b, kSeedStart, kSeedGoal, {{0, 5}, {5, 0}}), std::logic_error);
}
