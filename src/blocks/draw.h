// Pictures of sliding-block positions (Puzzle::draw*): pieces as joined tiles coloured by
// shape (alike pieces alike; pieces the goal places in red), walls dark, each cell carrying
// data-cell = its index in the position notation (rows joined by '/', '/' not counted).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "blocks/board.h"
#include "blocks/verify.h"
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::blocks {

// `grid`: the position's characters row-major (notation without the '/').
// `marked`: cells to outline (the piece the step moved; data-mark, render/page.h).
std::string position_svg(const Board& b, const std::string& grid, const std::vector<int>& marked = {});
// The notation's characters: '/' dropped; InputError unless rows x cols of them.
std::string grid_of(const Board& b, const std::string& notation);

// The rules a solution replays (puzzles/solution.h): a position is its grid, a move the
// printed "Xudlr" (piece X, then its unit steps) under the metric; the goal is the board's
// goal placements (a partial picture). A step's frame outlines the piece it moved.
struct GridRules {
  using Position = std::string;
  using Move = std::string;
  Board board;
  Metric metric;
  bool distinct = false;
  std::string state(const std::string& g) const;
  json move(const std::string&, const std::string& m) const { return m; }
  std::optional<std::string> apply(const std::string& g, const std::string& m) const {
    return apply_printed(board, metric, g, m);
  }
  bool reached(const std::string& g, const std::string&) const { return !missing_goal(board, distinct, g, board.goal); }
  std::string frame(const std::string& g) const { return position_svg(board, g); }
  std::string frame(const std::string&, const std::string& m, const std::string& after) const;
};

}  // namespace tansaku::blocks
