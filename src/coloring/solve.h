// Colouring a graph (solve.cpp): the chromatic number with its proof, a colouring with
// --colors K colours or a proof that none exists, the counts and lists.
#pragma once
#include <optional>
#include <vector>

#include "coloring/graph.h"
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::coloring {

// By o.algorithm (automatic when empty) and o.want(); `colors`: --colors K; `self_loops`:
// the loop lines the file's reader ignored (reported).
SolveReport solve_coloring(const Graph& g, std::optional<int> colors, int self_loops, const Options& o);
// The solvers, in the order of the automatic choice.
std::vector<SolverSpec> coloring_solvers();

}  // namespace tansaku::coloring
