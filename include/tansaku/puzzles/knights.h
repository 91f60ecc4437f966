// Knight puzzles of seed 002: the knight's tour on any R x C board (find, count, prove
// none) and the exchange of two knight armies (shortest solution, state space). The rules,
// notation and algorithms live in src/knights/.
#pragma once
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::knights {

Family tour_family();  // knight-tour:RxC
Family swap_family();  // knight-swap:RxC, knight-swap:guarini

}  // namespace tansaku::knights
