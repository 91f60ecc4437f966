// Micro-benchmarks of the colouring family: exact chromatic numbers (DSATUR proofs),
// bounds, counting. Run: build/release/bench/bench_coloring
#include <benchmark/benchmark.h>

#include "coloring/chromatic.h"
#include "coloring/clique.h"
#include "coloring/colouring_count.h"
#include "coloring/dimacs.h"
#include "coloring/dsatur.h"
#include "coloring/graph.h"

using namespace tansaku::coloring;

namespace {
Graph load(const char* name) {
  return read_dimacs_file(std::string(TANSAKU_DATA_DIR) + "/coloring/" + name + ".col");
}

void BM_Chromatic(benchmark::State& state, const char* name, Strategy strategy) {
  Graph g = load(name);
  SolverOptions o;
  o.strategy = strategy;
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    ChromaticResult r = chromatic_number(g, o);
    if (!r.exact) state.SkipWithError("not exact");
    nodes = r.nodes;
    benchmark::DoNotOptimize(r.upper);
  }
  state.counters["nodes"] = static_cast<double>(nodes);
}

void BM_Map12Count(benchmark::State& state) {
  Graph g = map12();
  for (auto _ : state) benchmark::DoNotOptimize(count_colourings(g, 4).total.get_str());
}

void BM_Myciel4Count5(benchmark::State& state) {
  Graph g = load("myciel4");
  for (auto _ : state) benchmark::DoNotOptimize(count_colourings(g, 5).total.get_str());
}

void BM_CliqueQueen8(benchmark::State& state) {
  Graph g = load("queen8_8");
  for (auto _ : state) benchmark::DoNotOptimize(max_clique(g, UINT64_MAX).clique.size());
}
}  // namespace

BENCHMARK_CAPTURE(BM_Chromatic, myciel3, "myciel3", Strategy::Auto)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Chromatic, myciel4, "myciel4", Strategy::Auto)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Chromatic, myciel5_auto, "myciel5", Strategy::Auto)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Chromatic, myciel5_dsatur, "myciel5", Strategy::Dsatur)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Chromatic, queen6_6_auto, "queen6_6", Strategy::Auto)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Chromatic, queen6_6_dsatur, "queen6_6", Strategy::Dsatur)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Chromatic, queen8_8_auto, "queen8_8", Strategy::Auto)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Map12Count)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Myciel4Count5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CliqueQueen8)->Unit(benchmark::kMillisecond);
