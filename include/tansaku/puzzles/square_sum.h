// Square sums (seed 002, problem 4): arrange 1..N in a row (or a ring) so that neighbouring
// numbers add up to squares; the least N that allows it, counts, and large N by a
// Warnsdorff + Posa-rotation heuristic. The search and the verifier live in src/square_sum/.
#pragma once
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::square_sum {

Family family();  // square-sum (--n N, --ring, --smallest, --count, --all)

}  // namespace tansaku::square_sum
