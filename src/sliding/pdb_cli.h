// `tansaku pdb build PUZZLE` and `tansaku pdb list`: building pattern databases explicitly
// (with progress, refusing what cannot fit --memory) and listing those in the cache dir.
// The sliding family declares them as its tools (ToolCommand); the CLI parses the options.
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
};

int run_pdb_build(const PdbArgs& a);
int run_pdb_list(const PdbArgs& a);
// What `pdb list` prints: {text, JSON object} (ToolCommand::report).
std::pair<std::string, nlohmann::ordered_json> pdb_list_report(const PdbArgs& a);

// `pdb build` and `pdb list` as the family declares them to the CLI.
std::vector<ToolCommand> tools();

}  // namespace tansaku::sliding::pdb
