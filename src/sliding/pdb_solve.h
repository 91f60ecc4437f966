// Solving sliding-tile instances with pattern databases (IDA* over pdb_domain.h), and the
// `solve --batch FILE` mode: one instance a line, one report line each, then a summary.
// family.cpp calls these through a small hook; everything else about the family stays there.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sliding/board.h"
#include "sliding/draw.h"
#include "sliding/pdb.h"
#include "tansaku/puzzles/batch.h"
#include "tansaku/puzzles/puzzle.h"
#include "tansaku/search/limits.h"
#include "tansaku/search/stats.h"

namespace tansaku::sliding::pdb {

// Why the pattern-database search cannot run on this instance ("" when it can): it needs
// distinct tiles and one solution (no --all, --count).
std::string refuses(const Instance& inst);

// The length of the redundant move strings the search skips (move_fsm.h): --prune-depth, or
// kDefaultPruneDepth. Throws InputError outside 2..MoveFsm::kMaxDepth.
inline constexpr int kDefaultPruneDepth = 16;
int prune_depth(const Options& o);

// Solves (solvability already decided) under `lim`, never playing a redundant move string of
// up to `prune` moves, verifies through `sol` (keeping the moves there), and fills the report.
void solve(const Instance& inst, int prune, const search::Limits& lim, Solution<Rules>& sol, SolveReport& r);

// Beyond 10 moves the automaton takes seconds to enumerate the first time, beyond 14 about
// half a minute and 1.6 GB (then it is read from the cache directory), and a deeper one
// saves fewer nodes for each level it adds. So a search climbs to the depth asked in steps:
// it starts with kQuickPruneDepth, takes kMidPruneDepth once an iteration has expanded
// kDeepPruneAfter nodes, and the depth asked once one has expanded kDeeperPruneAfter (about
// a second's: the next is then several times that; the 24-puzzle's searches get there, the
// 15-puzzle's with their tables do not).
inline constexpr int kQuickPruneDepth = 10;
inline constexpr int kMidPruneDepth = 14;
inline constexpr std::uint64_t kDeepPruneAfter = std::uint64_t{1} << 20;
inline constexpr std::uint64_t kDeeperPruneAfter = std::uint64_t{1} << 23;

// An optimal solution in original cells with the given heuristic (tests, benchmarks); the
// search never plays a redundant move string of up to `prune` moves (2: only the inverse of
// the last move). `used`, when given, gets the depth of the last automaton used.
search::PathResult<std::uint8_t> find_path(const Instance& inst, const Frame& f, std::shared_ptr<const Heuristic> h,
                                           const search::Limits& lim, int prune = 2, int* used = nullptr,
                                           std::uint64_t deep_after = kDeepPruneAfter,
                                           std::uint64_t deeper_after = kDeeperPruneAfter);

// Parses a --batch file's text (`file` names it in messages): one instance a line, '#'
// starts a comment, each line `cells` tokens optionally after an instance number. Throws
// InputError on a malformed line or a file without instances.
std::vector<BatchItem> parse_batch(const std::string& text, int cells, const std::string& file);

// Solves every instance of the file o.batch through `p.solve`, prints one line per instance
// (JSON with o.json) and returns the summary report.
SolveReport solve_batch(const Puzzle& p, int cells, const Options& o);

}  // namespace tansaku::sliding::pdb
