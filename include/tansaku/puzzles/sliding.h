// Sliding-tile puzzles on any R x C board (8-, 11-, 15-, 24-puzzle and variants with
// identical pieces) and the rotating 3x3 slide of seed 000: the families' entry points.
// The rules, notation and rendering live in src/sliding/.
#pragma once
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::sliding {

Family family();           // sliding:RxC, aliases 8-puzzle, 11-puzzle, 15-puzzle, 24-puzzle
Family rotating_family();  // rotating-slide

}  // namespace tansaku::sliding
