// Reading picture rows and finding the pieces drawn in them.
#include "blocks/picture.h"

#include <cctype>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/input.h"

namespace tansaku::blocks {

std::string where(const std::string& source, int line) {
  return line > 0 ? fmt::format("{} line {}: ", source, line) : fmt::format("{}: ", source);
}

namespace {
bool cell_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '#'; }
}  // namespace

std::string row_cells(std::string_view text, const std::string& source, int line) {
  std::string cells;
  const bool spaced = text.find_first_of(" \t") != std::string_view::npos;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
      continue;
    }
    if (!cell_char(c))
      throw InputError(where(source, line) +
                       fmt::format("unexpected character '{}' (cells are letters, digits, '.' empty or '#' wall)",
                                   printable(char_at(text, i))));
    if (spaced && i + 1 < text.size() && cell_char(text[i + 1]))
      throw InputError(where(source, line) + fmt::format("cell '{}' is more than one character (write a row either "
                                                         "with a space between all cells or with none)",
                                                         text.substr(i, text.find_first_of(" \t", i) - i)));
    cells += c;
    ++i;
  }
  return cells;
}

void add_row(Grid& g, std::string cells, const std::string& source, int line) {
  if (!g.rows.empty() && cells.size() != g.rows[0].size())
    throw InputError(where(source, line) +
                     fmt::format("ragged row: {} cells, the rows above have {}", cells.size(), g.rows[0].size()));
  g.rows.push_back(std::move(cells));
  g.lines.push_back(line);
}

std::map<char, std::vector<int>> find_pieces(const Grid& g, const std::string& source) {
  std::map<char, std::vector<int>> pieces;
  const int rows = static_cast<int>(g.rows.size()), cols = g.cols();
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      if (std::isalnum(static_cast<unsigned char>(g.at(r, c)))) pieces[g.at(r, c)].push_back(r * cols + c);
  for (const auto& [ch, cells] : pieces) {
    // Flood from the first cell through 4-neighbours of the same character.
    std::vector<char> seen(static_cast<std::size_t>(rows * cols), 0);
    std::vector<int> stack{cells[0]};
    seen[static_cast<std::size_t>(cells[0])] = 1;
    std::size_t reached = 0;
    while (!stack.empty()) {
      const int p = stack.back();
      stack.pop_back();
      ++reached;
      const int r = p / cols, c = p % cols;
      const int nb[4][2] = {{r - 1, c}, {r + 1, c}, {r, c - 1}, {r, c + 1}};
      for (const auto& [nr, nc] : nb) {
        if (nr < 0 || nr >= rows || nc < 0 || nc >= cols || g.at(nr, nc) != ch) continue;
        if (!seen[static_cast<std::size_t>(nr * cols + nc)]) {
          seen[static_cast<std::size_t>(nr * cols + nc)] = 1;
          stack.push_back(nr * cols + nc);
        }
      }
    }
    if (reached != cells.size()) {
      int stray = cells[0];
      for (int p : cells)
        if (!seen[static_cast<std::size_t>(p)]) {
          stray = p;
          break;
        }
      throw InputError(where(source, g.lines[static_cast<std::size_t>(stray / cols)]) +
                       fmt::format("piece '{}' is in two separate places (the cells of one character must be "
                                   "4-connected; use another character for another piece)",
                                   ch));
    }
  }
  return pieces;
}

Shape shape_of(const std::vector<int>& cells, int cols, int* anchor) {
  Shape s;
  const int a = cells.front();  // cells are in row-major order
  if (anchor) *anchor = a;
  const int ar = a / cols, ac = a % cols;
  for (int p : cells) s.cells.emplace_back(p / cols - ar, p % cols - ac);
  return s;
}

}  // namespace tansaku::blocks
