// `tansaku pdb build PUZZLE`: building pattern databases explicitly (with progress, refusing
// what cannot fit --memory). The sliding family declares it as its tool (ToolCommand); the
// CLI parses the options. Its table files join `pdb list / verify / remove` by table_kind().
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tansaku/puzzles/puzzle.h"

namespace tansaku::sliding::pdb {

struct PdbArgs {
  std::string puzzle;  // 15-puzzle, sliding:4x4, ...
  std::string groups;  // "7-8" or "1,2,3/4,5,6" ("" = the board's default)
  std::string partition;  // names of known partitions, comma-separated, or "all" ("" = none)
  std::string dir;     // "" = default_dir()
  std::string goal;    // "" = the puzzle's default goal
  std::uint64_t memory = 0;  // bytes, 0 = default budget
  unsigned threads = 0;
  Deadline* deadline = nullptr;  // --timeout (a build stops with exit 3)
  bool groups_given = false, dir_given = false, partition_given = false;
  bool quiet = false, json = false, force = false;
  bool reduced = false;  // --reduced: groups a symmetry keeps stored one entry per class
};

int run_pdb_build(const PdbArgs& a);

// `pdb build` as the family declares it to the CLI.
std::vector<ToolCommand> tools();
// The family's table files for `pdb list / verify / remove` (tansaku/pdb/cache.h).
tansaku::pdb::TableKind table_kind();

}  // namespace tansaku::sliding::pdb
