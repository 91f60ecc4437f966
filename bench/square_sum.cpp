// Micro-benchmarks of square-sum: large rows and rings (Warnsdorff + Posa), the exact
// search (smallest ring, counts). Run: build/release/bench/bench_square_sum
#include <benchmark/benchmark.h>

#include "square_sum/path_search.h"
#include "square_sum/solver.h"

using namespace tansaku::square_sum;

namespace {
void BM_Find(benchmark::State& state, bool ring) {
  const int n = static_cast<int>(state.range(0));
  for (auto _ : state) {
    FindResult f = find_sequence(n, ring);
    if (!f.found) state.SkipWithError("not found");
    benchmark::DoNotOptimize(f.sequence.data());
  }
}
void BM_Row(benchmark::State& state) { BM_Find(state, false); }
void BM_Ring(benchmark::State& state) { BM_Find(state, true); }

void BM_Count(benchmark::State& state, bool ring) {
  SearchOptions o;
  o.mode = Mode::Count;
  o.ring = ring;
  const int n = static_cast<int>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(search(n, o).count);
}
void BM_CountRows(benchmark::State& state) { BM_Count(state, false); }
void BM_CountRings(benchmark::State& state) { BM_Count(state, true); }

void BM_SmallestRing(benchmark::State& state) {
  for (auto _ : state)
    for (int n = 3; n <= 32; ++n)
      if (find_sequence(n, true).found) break;
}
}  // namespace

BENCHMARK(BM_Row)->Arg(1000)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Ring)->Arg(1000)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CountRows)->Arg(23)->Arg(30)->Arg(40)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CountRings)->Arg(32)->Arg(40)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SmallestRing)->Unit(benchmark::kMillisecond);
