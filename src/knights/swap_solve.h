// Solving knight-swap instances (swap_solve.cpp): the shortest solution, all of them or how
// many, or a proof that the goal cannot be reached.
#pragma once
#include <string>
#include <vector>

#include "knights/board.h"
#include "knights/swap_instance.h"
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::knights {

// By o.algorithm (automatic when empty) and o.want(); inst has a start.
SolveReport solve_swap(const Board& board, const std::string& name, const Instance& inst, const Options& o);
// The solvers, in the order of the automatic choice.
std::vector<SolverSpec> swap_solvers();

}  // namespace tansaku::knights
