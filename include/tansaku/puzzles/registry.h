// The one list of puzzle families. Adding a family is one line in src/cli/registry.cpp.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "tansaku/puzzles/puzzle.h"

namespace tansaku {

const std::vector<Family>& families();
// Resolves aliases and "family:variant"; throws InputError("unknown puzzle 'X'").
std::unique_ptr<Puzzle> make_puzzle(const std::string& name, const Options& o);
// The family a name belongs to (after aliases), or nullptr.
const Family* find_family(const std::string& name);

}  // namespace tansaku
