// Pictures of flip boards (Puzzle::draw*): lamps lit or dark, presses marked. Small boards
// draw a cell per lamp (data-cell for the web app's editor); large ones draw each row's runs
// of lit lamps as one <path>, so a 1000x1000 board is a few thousand path segments, not 10^6
// elements.
#pragma once
#include <string>

#include "flip/bitvec.h"
#include "flip/board.h"
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::flip {

// Boards of at most this many cells get an element per cell.
inline constexpr std::int64_t kCellPictureLimit = 1024;

// `lit` the lamps on; `marked` (empty, or the board's size) the cells to ring (presses).
std::string board_svg(const Board& b, const Bits& lit, const Bits& marked);

// A solve's answer in the family's own types: the board, start, goal and the press set
// (verified by the bit-parallel replay before it is kept; a press set is one move of each
// cell in it, in any order, so it is kept whole rather than as a list of moves).
struct PressSolution final : TypedSolution {
  Board board;
  Bits start, goal, presses;
  bool solved = false;  // false: unsolvable (the start alone is drawn)
  PressSolution(Board b, Bits s, Bits g) : board(std::move(b)), start(std::move(s)), goal(std::move(g)) {}
};

// start, then one frame per press (its cell ringed) while cells x presses is small;
// otherwise start and goal with every press marked on the goal, as one grouped step.
// No frames for a report without a PressSolution.
Drawing solution_drawing(const SolveReport& r);

}  // namespace tansaku::flip
