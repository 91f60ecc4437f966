// Solving knight's tours (tour_solve.cpp): one tour from a square, every tour, or how many,
// or a proof that there is none, into a solve report.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "knights/board.h"
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::knights {

// Boards with at most this many squares get adjacency lists and exhaustive searches.
inline constexpr std::int64_t kListLimit = 1 << 20;
// Boards up to this many squares get a picture of the tour.
inline constexpr std::int64_t kPictureLimit = 900;

// What a solve asks: the first square (given or the default), open or closed tours, and
// where the split count keeps its checkpoint ("" for none).
struct TourRequest {
  std::int64_t from = 0;
  bool from_given = false;
  bool closed = false;
  std::string checkpoint;
};

// Solves by o.algorithm (automatic when empty) and o.want(); throws LimitError when no
// solver answers.
SolveReport solve_tour(const Board& board, const TourRequest& q, const Options& o);
// The solvers, in the order of the automatic choice.
std::vector<SolverSpec> tour_solvers();

}  // namespace tansaku::knights
