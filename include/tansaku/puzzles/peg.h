// Peg solitaire on any board (triangles, Try-Try, English, French, or a board file): the
// family's entry point. Boards, rules, bounds and searches live in src/peg/.
#pragma once
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::peg {

Family family();  // peg:triangleN, peg:trytry, peg:english, peg:french, peg:FILE

}  // namespace tansaku::peg
