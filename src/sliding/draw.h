// Pictures of sliding and rotating-slide boards (Puzzle::draw*): tiles on a grid, cells
// carrying data-cell (their index in the state notation) for the web app's editor.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sliding/board.h"
#include "tansaku/puzzles/puzzle.h"
#include "tansaku/puzzles/solution.h"

namespace tansaku::sliding {

// A grid of tiles: text[i] "" = an empty cell (the blank); colour[i] "" = the plain tile
// colour; cells in `marked` get a highlight ring (the pieces the last step moved).
std::string tiles_svg(int rows, int cols, const std::vector<std::string>& text, const std::vector<std::string>& colour,
                      const std::vector<int>& marked = {});

// A sliding board: distinct tiles plain and numbered, identical pieces coloured by label.
std::string board_svg(const Geometry& geo, const Labels& labels, const Cells& cells, const std::vector<int>& marked = {});

// The sliding rules over the family's own types (puzzles/solution.h): a position is the
// board, a move the cell whose tile slides into the blank, written as the tile's label.
struct Rules {
  using Position = Cells;
  using Move = std::uint8_t;
  Geometry geo;
  Labels labels;
  std::string state(const Cells& b) const { return format_cells(labels, b); }
  json move(const Cells& b, Move m) const { return labels.names[b[m]]; }
  std::optional<Cells> apply(const Cells& b, Move m) const;
  std::string frame(const Cells& b) const { return board_svg(geo, labels, b); }
  // The step's board, the cell the tile slid into ringed.
  std::string frame(const Cells& before, Move m, const Cells& after) const;
};

// A solved report's text and its `cells` (the cell each slide moves into the blank): the
// start drawn, and with `steps` the board after every move.
void solved_text(const Solution<Rules>& s, bool steps, SolveReport& r);

}  // namespace tansaku::sliding
