// Flip puzzles (seed 000's 8-flip, Lights Out, any 3x3 toggle rule, optionally on a torus):
// the family's entry point. Solved exactly by GF(2) linear algebra; see src/flip/.
#pragma once
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::flip {

Family family();  // flip:RxC [--rule eight|lights-out|MASK] [--torus]

}  // namespace tansaku::flip
