// Micro-benchmarks of the pattern-database machinery on tables built in memory (no disk):
// building 5-5-5 (15-puzzle) and 5-6 (11-puzzle) tables, and PDB IDA* on a few of Korf's
// 100 and on the 11-puzzle seed instance. Counters: nodes per run and nodes per second.
// The full Korf's 100 with the 7-8 tables is bench/korf100.sh.
#include <benchmark/benchmark.h>

#include "sliding/pdb.h"
#include "sliding/pdb_solve.h"

using namespace tansaku;
using namespace tansaku::sliding;

namespace {

Instance instance(int rows, int cols, const std::string& goal, const std::string& start) {
  Instance inst;
  inst.geo = Geometry(rows, cols);
  std::vector<std::string> tokens;
  for (int i = 0; i < rows * cols; ++i) tokens.push_back(std::to_string(i));
  inst.labels = make_labels(tokens, "goal");
  inst.goal = parse_cells(inst.geo, inst.labels, goal, "goal");
  inst.start = parse_cells(inst.geo, inst.labels, start, "start");
  return inst;
}

const char* kKorfGoal = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
const char* kKorf[] = {"14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", "13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6",
                       "14 7 8 2 13 11 10 4 9 12 5 0 3 6 1 15"};

void BM_BuildTable(benchmark::State& state) {
  const int rows = static_cast<int>(state.range(0)), cols = static_cast<int>(state.range(1));
  const int n = rows * cols;
  std::vector<std::uint8_t> cells;
  for (int c = 1; c <= static_cast<int>(state.range(2)); ++c) cells.push_back(static_cast<std::uint8_t>(c));
  sliding::pdb::TableInfo info{rows, cols, 0, cells};
  for (auto _ : state) benchmark::DoNotOptimize(sliding::pdb::build_table(info));
  state.counters["entries"] = static_cast<double>(info.entries());
  state.counters["entries/s"] =
      benchmark::Counter(static_cast<double>(info.entries()), benchmark::Counter::kIsIterationInvariantRate);
  (void)n;
}
BENCHMARK(BM_BuildTable)->Args({4, 4, 5})->Args({3, 4, 6})->Unit(benchmark::kMillisecond);

void BM_Korf555(benchmark::State& state) {
  Instance inst = instance(4, 4, kKorfGoal, kKorf[state.range(0)]);
  sliding::pdb::Frame f = sliding::pdb::make_frame(inst.geo, inst.goal);
  auto h = sliding::pdb::memory_heuristic(f, sliding::pdb::groups_of_sizes(f, {5, 5, 5}), 1);
  search::Limits lim;
  lim.threads = static_cast<unsigned>(state.range(1));
  std::uint64_t nodes = 0;
  for (auto _ : state) nodes = sliding::pdb::find_path(inst, f, h, lim).stats.expanded;
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Korf555)->Args({0, 1})->Args({0, 2})->Args({1, 1})->Args({2, 1})->Unit(benchmark::kMillisecond);

void BM_ElevenSeed(benchmark::State& state) {
  Instance inst = instance(3, 4, "1 2 3 4 5 6 7 8 9 10 11 0", "0 3 2 1 8 7 6 5 4 11 10 9");
  sliding::pdb::Frame f = sliding::pdb::make_frame(inst.geo, inst.goal);
  auto h = sliding::pdb::memory_heuristic(f, sliding::pdb::groups_of_sizes(f, sliding::pdb::quick_sizes(12)), 1);
  std::uint64_t nodes = 0;
  for (auto _ : state) nodes = sliding::pdb::find_path(inst, f, h, {}).stats.expanded;
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_ElevenSeed)->Unit(benchmark::kMillisecond);

}  // namespace
