// The perm family's solve and explore reports (reports.cpp), from the instance the glue read.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "perm/definition.h"
#include "perm/generators.h"
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::perm {

// Solves start -> goal with the moves `ms` (o.algorithm; --max-length names two-phase;
// --prune-depth); `facelets`: the start sticker by sticker where the net reads them.
SolveReport solve_report(const std::shared_ptr<const Definition>& def, const MoveSet& ms, const Position& start,
                         const Position& goal, std::optional<std::string> facelets, std::optional<int> max_length,
                         std::optional<int> prune_depth, const Options& o);
// The layers of positions reachable from `from` (a definition without Illegal rules).
ExploreReport explore_report(const Definition& d, const MoveSet& ms, const Position& from, const Options& o,
                             search::Limits lim);

}  // namespace tansaku::perm
