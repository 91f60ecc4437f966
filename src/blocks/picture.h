// The character grids every reader of sliding-block pictures shares: rows split out of text
// (file lines, or '/'-separated on the command line), with the source line of each row for
// messages, and the pieces found in a grid (all cells of one character, 4-connected).
#pragma once
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "blocks/board.h"

namespace tansaku::blocks {

struct Grid {
  std::vector<std::string> rows;  // one character per cell: letter/digit, '.', '#'
  std::vector<int> lines;         // source line of each row (1-based; 0 for command-line text)
  int cols() const { return rows.empty() ? 0 : static_cast<int>(rows[0].size()); }
  char at(int r, int c) const { return rows[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)]; }
};

// "FILE line N: " or "FILE: " when the line is unknown.
std::string where(const std::string& source, int line);

// One picture row: cells separated by spaces, or written together. Throws InputError for
// a character other than a letter, a digit, '.' or '#', or a multi-character cell.
std::string row_cells(std::string_view text, const std::string& source, int line);
// Appends a row, refusing ragged ones.
void add_row(Grid& g, std::string cells, const std::string& source, int line);

// The cells of each piece character in row-major order; throws InputError when a
// character's cells are not 4-connected.
std::map<char, std::vector<int>> find_pieces(const Grid& g, const std::string& source);
// Shape and anchor of a set of cells (row-major order) on a board `cols` wide.
Shape shape_of(const std::vector<int>& cells, int cols, int* anchor);

}  // namespace tansaku::blocks
