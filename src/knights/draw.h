// Pictures of the knights' families (Puzzle::draw*). knight-tour: the board (checkered by
// two striped paths, so a 1000 x 1000 board costs a few kilobytes), the tour as one <path>
// of relative knight steps, visit numbers on small boards, and a solution grouped into at
// most kMaxTourFrames frames within a byte budget. knight-swap: the board with each army's
// knights in its colour, each move a frame with the move drawn.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "knights/board.h"
#include "knights/swap_domain.h"
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::knights {

inline constexpr std::size_t kMaxTourFrames = 201;         // the start and at most 200 groups of moves
inline constexpr std::size_t kTourFrameBudget = 1500000;  // bytes of SVG for all frames of a long tour
inline constexpr std::int64_t kClickableSquares = 1024;   // boards up to this size get a data-cell per square
inline constexpr std::int64_t kNumberedSquares = 144;     // boards up to this size get numbers in the squares
inline constexpr std::int64_t kPathSquares = 40000;       // tours up to this size are drawn as their path
inline constexpr int kHeatBlocks = 100;                   // larger ones as at most 100 x 100 blocks

// The board with a knight on `knight` (none: the bare board). Squares carry data-cell on
// boards of at most kClickableSquares squares; small boards show the square numbers.
std::string draw_tour_board(const Board& b, std::optional<std::int64_t> knight);
// A tour (squares in visiting order; `closed`: the last square is a move from the first):
// frame 0 the knight on the first square, then frames of consecutive moves, the last one
// holding the whole tour. Labels: the square reached ("17"), or "moves A-B (to S)".
// Tours over kPathSquares (a path of millions of points is a solid blot that takes a browser
// half a minute) are drawn as blocks of squares coloured by when the knight was there (the
// mean move number of the squares visited so far, dark blue early to yellow late).
Drawing draw_tour(const Board& b, const std::vector<std::int64_t>& tour, bool closed);
// A knight-tour solve's answer in the family's own types (SolveReport::solution): the tour
// found (empty: none, or a count), open or closed, and the first square (none: every one).
struct TourAnswer final : TypedSolution {
  std::vector<std::int64_t> tour;
  bool closed = false;
  std::optional<std::int64_t> first;
  TourAnswer(std::vector<std::int64_t> t, bool c, std::optional<std::int64_t> f)
      : tour(std::move(t)), closed(c), first(f) {}
};
// draw_tour of a report's tour; without one (a count, no tour): the board with the knight on
// the first square, if any.
Drawing draw_tour_report(const Board& b, const SolveReport& r);

// knight-swap: one position (cells: army index per square, 0 empty; names: army labels);
// every square is a <g data-cell="S">.
std::string draw_swap_position(const Board& b, const Armies& a, const Cells& cells);

// knight-swap's rules over its own types (puzzles/solution.h): a move takes a knight to an
// empty square a knight's move away, written [from, to]; a step's picture draws the move in
// <g class="step">.
struct SwapRules {
  using Position = Cells;
  using Move = SwapMove;
  Board board;
  Armies armies;
  std::string state(const Cells& c) const;
  json move(const Cells&, const SwapMove& m) const { return json::array({m.from, m.to}); }
  std::optional<Cells> apply(const Cells& c, const SwapMove& m) const;
  std::string frame(const Cells& c) const { return draw_swap_position(board, armies, c); }
  std::string frame(const Cells& before, const SwapMove& m, const Cells& after) const;
};

}  // namespace tansaku::knights
