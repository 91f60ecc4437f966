// Piece-by-piece solving of permutation puzzles (--algorithm subgoal): the stages, chosen
// from the definition alone, put a few pieces in place at a time, keeping the earlier ones;
// search/subgoal.h searches them in turn. Quick on puzzles where the bounds over the whole
// position wander (a ring of discs), with tables of a few thousand entries; not proved least.
#pragma once
#include <cstdint>
#include <vector>

#include "perm/definition.h"
#include "perm/generators.h"
#include "perm/solver.h"
#include "tansaku/search/limits.h"

namespace tansaku::perm {

// The stages: groups of flat positions whose pieces (the goal's) are put in place together,
// in order, `per_stage` at a time. Orbits of positions one after another (the smallest
// first), and within an orbit the position most tied by the base moves to those already
// placed next (a base move taking one to the other), so a stage's pieces lie next to the
// placed ones. Each stage's table follows its own pieces (their places and orientations)
// and those placed just before, as many as keep it within `budget` entries. Positions no
// move changes are in no stage; pieces of a label found twice in their set in no table.
struct SubgoalPlan {
  std::vector<std::vector<int>> stages;
  std::vector<std::vector<int>> tables;  // per stage: the goal positions of the pieces its table follows
};
SubgoalPlan subgoal_plan(const Definition& d, const MoveSet& ms, const Position& goal, int per_stage,
                         std::uint64_t budget);

// Fills out (path, heuristics, table_bytes); the start must be reachable. The path is the
// stages' paths in turn, moves of one base move meeting at a stage's end merged into one.
void subgoal_solve(const Definition& d, const MoveSet& ms, const Position& start, const Position& goal,
                   const search::Limits& lim, SolveResult& out);

}  // namespace tansaku::perm
