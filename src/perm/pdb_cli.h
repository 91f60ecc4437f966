// `tansaku pdb build perm:NAME` and `tansaku pdb list` for permutation puzzles: the piece
// tables (piece_table.h) built once into the table cache directory, with progress, refused
// before starting when they cannot fit --memory, and listed. The family declares them as
// its tools; the CLI routes `pdb build PUZZLE` to the family of PUZZLE and merges the
// listings of every family that has one.
#pragma once
#include <vector>

#include "tansaku/puzzles/puzzle.h"

namespace tansaku::perm {

std::vector<ToolCommand> pdb_tools();

}  // namespace tansaku::perm
