// Solving and exploring flip boards (solve.cpp): the solver tables, the proofs, the reports.
#pragma once
#include <string>
#include <vector>

#include "flip/board.h"
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::flip {

// By o.algorithm (automatic when empty); the start and goal are read after the solver is
// chosen (the algebraic solvers first check that the board fits the budget).
SolveReport solve_flip(const Board& board, const std::string& name, const Options& o);
ExploreReport explore_flip(const Board& board, const std::string& name, const Options& o);
// The solvers of solve and explore, for the family's declaration.
std::vector<SolverSpec> flip_solvers();

}  // namespace tansaku::flip
