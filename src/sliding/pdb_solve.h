// Solving sliding-tile instances with pattern databases (IDA* over pdb_domain.h), and the
// `solve --batch FILE` mode: one instance a line, one report line each, then a summary.
// family.cpp calls these through a small hook; everything else about the family stays there.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sliding/board.h"
#include "sliding/pdb.h"
#include "tansaku/puzzles/puzzle.h"
#include "tansaku/search/limits.h"
#include "tansaku/search/stats.h"

namespace tansaku::sliding::pdb {

// Why the pattern-database search cannot run on this instance ("" when it can): it needs
// distinct tiles and one solution (no --all, --count).
std::string refuses(const Instance& inst);

// Solves (solvability already decided) under `lim`, verifies, and fills the report.
void solve(const Instance& inst, const search::Limits& lim, SolveReport& r);

// An optimal solution in original cells with the given heuristic (tests, benchmarks).
search::PathResult<std::uint8_t> find_path(const Instance& inst, const Frame& f, std::shared_ptr<const Heuristic> h,
                                        const search::Limits& lim);

// One instance of a --batch file: its id (the optional leading number, else its position),
// its start (the tokens joined by spaces) and its line number.
struct BatchItem {
  std::string id, start;
  int line = 0;
};
// Parses a --batch file's text (`file` names it in messages): one instance a line, '#'
// starts a comment, each line `cells` tokens optionally after an instance number. Throws
// InputError on a malformed line or a file without instances.
std::vector<BatchItem> parse_batch(const std::string& text, int cells, const std::string& file);

// Solves every instance of the file o.batch through `p.solve`, prints one line per instance
// (JSON with o.json) and returns the summary report.
SolveReport solve_batch(const Puzzle& p, int cells, const Options& o);

}  // namespace tansaku::sliding::pdb
