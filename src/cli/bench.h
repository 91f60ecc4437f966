// `tansaku bench`: a fixed, deterministic workload over the builtin puzzles. The total node
// count is a signature that changes only when the search changes (as Stockfish's bench).
#pragma once

namespace tansaku {
int run_bench(bool as_json, bool quiet, unsigned threads);
}
