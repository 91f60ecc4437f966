// Pictures of peg-solitaire positions (Puzzle::draw*): the holes on their lattice (square
// rows, or the triangular lattice's staggered rows), pegs filled, hole numbers, and on a
// solution's frames the move just made (the peg's path, the pegs it removed).
#pragma once
#include <string>
#include <vector>

#include "peg/board.h"
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::peg {

// One position. Each hole is a <g data-cell="H"> (H = hole number, its index in the state).
std::string draw_position(const Board& bd, Bits pegs);
// A solution: the start, then the position after each move [from, to, to, ...] with that
// move drawn in a <g class="step"> (a frame without that group is draw_position of it).
Drawing draw_moves(const Board& bd, Bits start, const std::vector<std::vector<int>>& moves);
// draw_moves from a report (its start and moves); no moves: the start alone.
Drawing draw_report(const Board& bd, const SolveReport& r);

}  // namespace tansaku::peg
