// Pictures of permutation-puzzle positions (Puzzle::draw*): a facelet net (coloured faces
// of cells or polygons) when the definition has a companion NAME.net (net.h: the cube,
// skewb and pyraminx builtins); otherwise each set of the definition as a row of labelled
// slots (the piece number at each position, its orientation as "+t"), the pieces coloured
// by number and the slots already solved ringed in green. Stickers and slots carry
// data-cell = the flat position index (sets in definition order).
#pragma once
#include <string>

#include "perm/definition.h"
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::perm {

std::string position_svg(const Definition& d, const Position& p, const Position& solved);
// start, then the position after each move of r.moves (names as the solver writes them).
Drawing solution_drawing(const Definition& d, const SolveReport& r);

}  // namespace tansaku::perm
