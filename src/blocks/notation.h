// The printed form of a solution: the search returns moves as (from, to) anchors of canonical
// states; this replays them on the labelled start so each move names its piece by the
// character drawn in the start picture, followed by its unit steps (u d l r): the single
// step, the straight run (line metric) or a shortest route through free cells (path).
#pragma once
#include <string>
#include <vector>

#include "blocks/domain.h"
#include "blocks/rules.h"

namespace tansaku::blocks {

struct PrintedSolution {
  std::vector<std::string> moves;                // "Gdr"
  std::vector<std::vector<Piece>> positions;     // after each move (labelled)
};

// Throws std::logic_error if a move does not apply (an internal error).
PrintedSolution print_solution(const Rules& r, const std::vector<Piece>& start, const std::vector<Move>& moves);

}  // namespace tansaku::blocks
