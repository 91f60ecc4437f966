// `tansaku bench`: a fixed, deterministic workload over the builtin puzzles, declared by the
// families (Family::bench) and run in the registry's order. The total node count is a
// signature that changes only when the search or the workload changes (as Stockfish's bench).
#pragma once

namespace tansaku {
int run_bench(bool as_json, bool quiet, unsigned threads);
}
