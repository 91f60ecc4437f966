// From pictures to a Board: the checks every reader shares (board size, pieces, goal pieces
// present in the start with the same shape, walls in place), for files, Knuth's input and
// the pictures given on the command line.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "blocks/board.h"
#include "blocks/picture.h"

namespace tansaku::blocks {

struct BoardText {
  std::string source, name;
  std::optional<Metric> metric;
  bool distinct = false, knuth = false;
  Grid start, goal;
  int start_line = 0, goal_line = 0;  // 0: absent
};

Board build_board(BoardText bt);
// A full position drawn in `g` (see parse_position).
std::vector<Piece> position_from_grid(const Board& b, const Grid& g, const std::string& what, bool distinct);
// Required placements drawn in `g` (see parse_goal); `line` is where the picture starts.
std::vector<Piece> goal_from_grid(const Board& b, const Grid& g, const std::string& what, bool distinct, int line = 0);

}  // namespace tansaku::blocks
