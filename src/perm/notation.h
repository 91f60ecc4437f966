// How positions and moves are written: a position is, per set, the set name followed by
// its row of piece numbers (as in the Solved block) and, where the set has orientations,
// its orientation row: "CORNERS 2 1 3 4 5 6 7 8 0 1 2 0 0 0 0 0". Sets left out are as
// solved; a puzzle with one set may omit its name. "@FILE" reads the first ScrambleState
// of a twsearch scramble file. Moves are shown as cycles of positions.
#pragma once
#include <string>

#include "perm/definition.h"

namespace tansaku::perm {

Position parse_position(const Definition& d, const std::string& text, const std::string& what);
std::string format_position(const Definition& d, const Position& p);
// "CORNERS (1 4 3 2) (5+1 6+2)": per set, the cycles a piece follows (k+t: the piece
// leaving position k turns by t); "identity" if nothing moves.
std::string format_cycles(const Definition& d, const Perm& m);
// The companion scramble file of a builtin (data/perm/NAME.scr), "" if none.
std::string companion_scrambles(const Definition& d);

}  // namespace tansaku::perm
