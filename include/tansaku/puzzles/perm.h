// Permutation puzzles given as data (ksolve/twsearch definition files): the family's entry
// point. Parsing, the ranked space, pattern databases and searches live in src/perm/.
#pragma once
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::perm {

Family family();  // perm:NAME (data/perm/NAME.tws) or perm:FILE.tws

}  // namespace tansaku::perm
