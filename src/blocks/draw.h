// Pictures of sliding-block positions (Puzzle::draw*): pieces as joined tiles coloured by
// shape (alike pieces alike; pieces the goal places in red), walls dark, each cell carrying
// data-cell = its index in the position notation (rows joined by '/', '/' not counted).
#pragma once
#include <string>

#include "blocks/board.h"
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::blocks {

// `grid`: the position's characters row-major (notation without the '/').
// `marked`: cells to outline (the piece the step moved; data-mark, render/page.h).
std::string position_svg(const Board& b, const std::string& grid, const std::vector<int>& marked = {});
// The notation's characters: '/' dropped; InputError unless rows x cols of them.
std::string grid_of(const Board& b, const std::string& notation);
// start, then the position after each move ("Xudlr": piece X, then its unit steps).
Drawing solution_drawing(const Board& b, const SolveReport& r);

}  // namespace tansaku::blocks
