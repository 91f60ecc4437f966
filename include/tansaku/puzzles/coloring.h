// Graph colouring (seed 002, problem 3): the seed's 12-region map and DIMACS .col files;
// the chromatic number with a proof, K-colourings or proofs of none, and colouring counts.
// The graph, the algorithms and the verifier live in src/coloring/.
#pragma once
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::coloring {

Family family();  // coloring:map12, coloring:FILE.col, coloring:NAME (a shipped instance), --file FILE

}  // namespace tansaku::coloring
