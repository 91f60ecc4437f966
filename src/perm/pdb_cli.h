// `tansaku pdb build perm:NAME` for permutation puzzles: the piece tables (piece_table.h)
// built once into the table cache directory, with progress, refused before starting when
// they cannot fit --memory. The family declares it as its tool; the CLI routes `pdb build
// PUZZLE` to the family of PUZZLE. Its files join `pdb list / verify / remove` by
// pdb_table_kind().
#pragma once
#include <vector>

#include "tansaku/puzzles/puzzle.h"

namespace tansaku::perm {

std::vector<ToolCommand> pdb_tools();
// The family's table files for `pdb list / verify / remove` (tansaku/pdb/cache.h).
tansaku::pdb::TableKind pdb_table_kind();

}  // namespace tansaku::perm
