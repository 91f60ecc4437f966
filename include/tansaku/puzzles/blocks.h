// Sliding-block puzzles with pieces of any shape, drawn as pictures (Hakoiri-musume/Klotski,
// Pennant, Ma's puzzle, Century, or any file, also in Knuth's SLIDING format): the family's
// entry point. Boards, rules, searches and the verifier live in src/blocks/.
#pragma once
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::blocks {

Family family();  // blocks:klotski (hakoiri-musume), blocks:pennant, blocks:ma, blocks:century, blocks:FILE

}  // namespace tansaku::blocks
