// The peg family's solve and explore reports (reports.cpp), from the instance the glue read.
#pragma once
#include <optional>
#include <string>

#include "peg/board.h"
#include "peg/domain.h"
#include "peg/solver.h"
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::peg {

// The holes set in b, comma-separated.
std::string holes_text(Bits b);
// One least solution start -> goal (or, with --count, how many), or the proof that none exists.
SolveReport solve_report(const Solver& solver, Bits start, const Goal& goal, const SolveParams& p, const Options& o);
// The layers of positions from `start`; `finish`: the hole to count finishes on.
ExploreReport explore_report(const Solver& solver, Bits start, std::optional<int> finish, const Options& o,
                             const search::Limits& lim);

}  // namespace tansaku::peg
