// `tansaku pdb build PUZZLE` and `tansaku pdb list`: building pattern databases explicitly
// (with progress, refusing what cannot fit --memory) and listing those in the cache dir.
// src/cli/main.cpp parses the options into PdbArgs and calls these.
#pragma once
#include <string>

namespace tansaku::sliding::pdb {

struct PdbArgs {
  std::string puzzle;  // 15-puzzle, sliding:4x4, ...
  std::string groups;  // "7-8" or "1,2,3/4,5,6" ("" = the board's default)
  std::string dir;     // "" = default_dir()
  std::string goal;    // "" = the puzzle's default goal
  std::string memory;  // "" = default budget
  unsigned threads = 0;
  bool quiet = false, json = false, force = false;
};

int run_pdb_build(const PdbArgs& a);
int run_pdb_list(const PdbArgs& a);

}  // namespace tansaku::sliding::pdb
