// The families' own subcommands (ToolCommand: `pdb build`) on the command line: registered
// from their declarations, then dispatched. Several families may declare the same path: one
// subcommand with the union of their options, each tool remembered with its family
// (puzzle.h, ToolCommand, says how they share it).
#pragma once
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/request.h"

namespace tansaku {

class ToolCommands {
 public:
  // Registers every family's tools on `app`; their values land in `raw`.
  ToolCommands(CLI::App& app, Raw& raw);
  // Runs the tool subcommand that was parsed and returns its exit code; false when none was.
  bool run_parsed(Raw& raw, int& code) const;

 private:
  struct Slot {
    CLI::App* cmd = nullptr;
    std::vector<std::pair<const Family*, const ToolCommand*>> tools;
    std::set<std::string> options;
  };
  int run(const Slot& slot, Raw& raw) const;
  std::vector<Slot> slots_;
};

// Registers one declared option on a subcommand (its value goes to raw.text or raw.flags).
void add_spec(CLI::App* cmd, const OptionSpec& s, Raw& raw);
// Registers --threads --memory --timeout --quiet --json, and --algorithm / --svg --html.
void add_universal(CLI::App* cmd, Raw& raw, bool with_algorithm, bool with_pictures = false);
// Long names of the options present on the command line.
std::set<std::string> given_of(const CLI::App* cmd);

}  // namespace tansaku
