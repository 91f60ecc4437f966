// Pictures of peg-solitaire positions (Puzzle::draw*): the holes on their lattice (square
// rows, or the triangular lattice's staggered rows), pegs filled, hole numbers, and on a
// solution's frames the move just made (the peg's path, the pegs it removed).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "peg/board.h"
#include "peg/domain.h"
#include "peg/verify.h"
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::peg {

// One position. Each hole is a <g data-cell="H"> (H = hole number, its index in the state).
std::string draw_position(const Board& bd, Bits pegs);
// A solution's step: the position after the move [from, to, to, ...] made from `before`,
// with that move drawn in a <g class="step" data-mark="1"> (render/page.h; a frame without
// that group is draw_position of it).
std::string draw_step(const Board& bd, Bits before, const std::vector<int>& move);

// The rules a solution replays (puzzles/solution.h): a move is a run of jumps by one peg,
// written [from, to, to, ...]; the goal is the solver's (one peg anywhere, in a hole, or an
// exact position).
struct Rules {
  using Position = Bits;
  using Move = std::vector<int>;
  Board board;
  Goal target;
  std::string state(Bits b) const { return format_position(board, b); }
  json move(Bits, const Move& m) const { return m; }
  std::optional<Bits> apply(Bits b, const Move& m) const { return apply_move(board, b, m); }
  bool reached(Bits b, Bits) const { return target.reached(b); }
  std::string frame(Bits b) const { return draw_position(board, b); }
  std::string frame(Bits before, const Move& m, Bits) const { return draw_step(board, before, m); }
};

}  // namespace tansaku::peg
