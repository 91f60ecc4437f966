// Pictures of sliding and rotating-slide boards (Puzzle::draw*): tiles on a grid, cells
// carrying data-cell (their index in the state notation) for the web app's editor.
#pragma once
#include <string>
#include <vector>

#include "sliding/board.h"
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::sliding {

// A grid of tiles: text[i] "" = an empty cell (the blank); colour[i] "" = the plain tile
// colour; cells in `marked` get a highlight ring (the pieces the last step moved).
std::string tiles_svg(int rows, int cols, const std::vector<std::string>& text, const std::vector<std::string>& colour,
                      const std::vector<int>& marked = {});

// A sliding board: distinct tiles plain and numbered, identical pieces coloured by label.
std::string board_svg(const Geometry& geo, const Labels& labels, const Cells& cells, const std::vector<int>& marked = {});

// Every position of a sliding solution: report.start, then one frame per slide (replayed
// from extra["cells"], the cell each slide moves into the blank, else from the tile labels).
Drawing solution_drawing(const Geometry& geo, const SolveReport& r);

}  // namespace tansaku::sliding
