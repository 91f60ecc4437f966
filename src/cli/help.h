// `tansaku help PUZZLE` and `tansaku solve PUZZLE --help`: one family's options, solvers,
// state notation and examples, written from what the family declares.
#pragma once
#include <string>

namespace tansaku {

// The help page of the family `puzzle` belongs to, limited to the subcommands in the mask
// `commands` (puzzle.h's Command bits). Throws InputError for an unknown puzzle.
std::string family_help(const std::string& puzzle, unsigned commands);

}  // namespace tansaku
