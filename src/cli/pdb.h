// `tansaku pdb list`, `pdb verify` and `pdb remove`: the table cache directory, one command
// each for every family's tables (the kinds of table file families register:
// Family::table_kinds, tansaku/pdb/cache.h). `pdb build` is each family's own tool (tools.h).
#pragma once
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/request.h"

namespace tansaku {

class PdbCommands {
 public:
  // Adds the subcommands under `pdb` (made when no family's tool made it); values land in `raw`.
  PdbCommands(CLI::App& app, Raw& raw);
  // Runs the subcommand that was parsed and returns its exit code; false when none was.
  bool run_parsed(Raw& raw, int& code);

 private:
  CLI::App *list_ = nullptr, *verify_ = nullptr, *remove_ = nullptr;
  std::vector<std::string> files_;
  bool all_ = false;
};

}  // namespace tansaku
