// Micro-benchmarks of the knight families: Warnsdorff tours, the frontier-DP count,
// backtracking, and the swap searches on the seed board.
#include <benchmark/benchmark.h>

#include "knights/board.h"
#include "knights/swap_domain.h"
#include "knights/tour_analysis.h"
#include "knights/warnsdorff.h"
#include "tansaku/graph/frontier_dp.h"
#include "tansaku/graph/hamiltonian_search.h"
#include "tansaku/search/bidirectional_bfs.h"
#include "tansaku/search/explore.h"
#include "tansaku/search/shortest_paths.h"

using namespace tansaku;
using namespace tansaku::knights;

static void BM_WarnsdorffOpen(benchmark::State& state) {
  Board b(static_cast<int>(state.range(0)), static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(warnsdorff_tour(b, 0, false));
  state.SetItemsProcessed(state.iterations() * b.squares());
}
BENCHMARK(BM_WarnsdorffOpen)->Arg(8)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);

static void BM_WarnsdorffClosed(benchmark::State& state) {
  Board b(static_cast<int>(state.range(0)), static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(warnsdorff_tour(b, 0, true));
  state.SetItemsProcessed(state.iterations() * b.squares());
}
BENCHMARK(BM_WarnsdorffClosed)->Arg(8)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);

static void BM_CountDp(benchmark::State& state) {
  const int r = static_cast<int>(state.range(0)), c = static_cast<int>(state.range(1));
  const bool closed = state.range(2) != 0;
  NarrowGraph g = narrow_graph(Board(r, c));
  for (auto _ : state) benchmark::DoNotOptimize(graph::count_hamiltonian(g.adj, {closed, -1}));
}
BENCHMARK(BM_CountDp)->Args({5, 5, 0})->Args({6, 6, 1})->Args({3, 40, 0})->Unit(benchmark::kMillisecond);

static void BM_CountBacktracking5x5Corner(benchmark::State& state) {
  const graph::AdjacencyGraph adj(Board(5, 5).adjacency());
  for (auto _ : state) {
    graph::DfsOptions o;
    benchmark::DoNotOptimize(graph::hamiltonian_dfs(adj, o, [](const std::vector<int>&) { return true; }));
  }
}
BENCHMARK(BM_CountBacktracking5x5Corner)->Unit(benchmark::kMillisecond);

namespace {
SwapDomain seed_domain(const Cells& goal) {
  Armies a{{"0", "1", "2"}, {6, 3, 3}};
  return SwapDomain(Board(4, 3), a, goal);
}
const Cells kStart = {1, 1, 1, 0, 0, 0, 0, 0, 0, 2, 2, 2}, kGoal = {2, 2, 2, 0, 0, 0, 0, 0, 0, 1, 1, 1};
}  // namespace

static void BM_SwapBidirectional(benchmark::State& state) {
  auto d = seed_domain(kGoal);
  for (auto _ : state) benchmark::DoNotOptimize(search::bidirectional_bfs(d, d.make(kStart)));
}
BENCHMARK(BM_SwapBidirectional)->Unit(benchmark::kMillisecond);

static void BM_SwapCountShortest(benchmark::State& state) {
  auto d = seed_domain(kGoal);
  for (auto _ : state) benchmark::DoNotOptimize(search::shortest_paths(d, d.make(kStart), 0));
}
BENCHMARK(BM_SwapCountShortest)->Unit(benchmark::kMillisecond);

static void BM_SwapExplore(benchmark::State& state) {
  auto d = seed_domain(kGoal);
  const std::uint64_t src = d.rank(d.goal());
  for (auto _ : state) benchmark::DoNotOptimize(search::explore(d, std::span<const std::uint64_t>(&src, 1), 20));
}
BENCHMARK(BM_SwapExplore)->Unit(benchmark::kMillisecond);
