// The one list of puzzle families. Adding a family is one line in src/cli/registry.cpp.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "tansaku/puzzles/puzzle.h"

namespace tansaku {

const std::vector<Family>& families();
// Resolves aliases and "family:variant"; throws InputError("unknown puzzle 'X' (did you mean ...)").
std::unique_ptr<Puzzle> make_puzzle(const std::string& name, const Options& o);
// The family a name belongs to (after aliases), or nullptr.
const Family* find_family(const std::string& name);
// The same, throwing InputError with a suggestion when there is none.
const Family& family_of(const std::string& name);
// Every name a user can type: family prefixes, builtins, aliases.
std::vector<std::string> puzzle_names();

}  // namespace tansaku
