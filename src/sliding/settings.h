// The sliding family's own options, typed: declared in family.cpp (and the pdb tools in
// pdb_cli.cpp), filled by the request layer, read by the solvers through Options::settings.
#pragma once
#include <optional>
#include <string>

namespace tansaku::sliding {

struct Settings {
  std::optional<std::string> batch;  // solve --batch FILE: every instance of FILE
  bool steps = false;                // solve --steps: the board after every move
  std::optional<int> prune_depth;    // solve --prune-depth N: redundant move strings up to N moves
};

// `pdb build` and `pdb list`.
struct PdbSettings {
  std::optional<std::string> groups, partition, dir, goal;
  bool force = false, reduced = false;
};

}  // namespace tansaku::sliding
