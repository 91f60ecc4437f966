// Drawing sliding-block positions and solutions: the cell grid read from the notation, each
// piece's tiles joined and coloured by shape, and one frame per move with the moved piece marked.
#include "blocks/draw.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/render/svg.h"

namespace tansaku::blocks {

std::string grid_of(const Board& b, const std::string& notation) {
  std::string g;
  for (char c : notation)
    if (c != '/' && c != ' ' && c != '\n') g += c;
  if (static_cast<int>(g.size()) != b.cells())
    throw InputError(fmt::format("a position of {} has {} cells, not {}", b.name, b.cells(), g.size()));
  return g;
}

std::string position_svg(const Board& b, const std::string& g, const std::vector<int>& marked) {
  std::map<char, int> kind;
  for (const Piece& p : b.pieces) kind[p.label] = p.kind;
  std::vector<int> goal_kinds;
  for (const Piece& p : b.goal) goal_kinds.push_back(p.kind);
  auto colour = [&](char c) -> std::string {
    auto it = kind.find(c);
    if (it == kind.end()) return std::string(render::palette(static_cast<unsigned char>(c)));
    if (std::find(goal_kinds.begin(), goal_kinds.end(), it->second) != goal_kinds.end()) return "#d1342f";
    return std::string(render::palette(static_cast<std::size_t>(it->second) + 2));
  };
  const double px = std::clamp(420.0 / std::max(b.rows, b.cols), 24.0, 64.0), pad = 0.12, in = 0.05;
  render::Svg svg(b.cols + 2 * pad, b.rows + 2 * pad, px);
  svg.rect(0, 0, b.cols + 2 * pad, b.rows + 2 * pad, "#4a3b2c", "rx=\"0.12\"");
  auto at = [&](int r, int c) { return (r < 0 || r >= b.rows || c < 0 || c >= b.cols) ? '\0' : g[static_cast<std::size_t>(r * b.cols + c)]; };
  std::map<char, std::pair<double, double>> sum;
  std::map<char, int> count;
  std::map<char, std::vector<std::pair<double, double>>> centres;
  for (int r = 0; r < b.rows; ++r)
    for (int c = 0; c < b.cols; ++c) {
      const char ch = at(r, c);
      const double x = pad + c, y = pad + r;
      const int i = r * b.cols + c;
      if (ch == '#') {
        svg.rect(x, y, 1, 1, "#2b221a", fmt::format("data-cell=\"{}\"", i));
        continue;
      }
      svg.rect(x, y, 1, 1, "#efe6d2", fmt::format("data-cell=\"{}\" stroke=\"#d8ccb2\" stroke-width=\"0.02\"", i));
      if (ch == '.') continue;
      const std::string fill = colour(ch);
      const std::string cell = fmt::format("data-cell=\"{}\"", i);
      // The cell, widened to its neighbours of the same piece so a piece reads as one block.
      const bool right = at(r, c + 1) == ch, down = at(r + 1, c) == ch;
      svg.rect(x + in, y + in, 1 - 2 * in + (right ? 2 * in : 0), 1 - 2 * in + (down ? 2 * in : 0), fill, cell);
      if (right && down && at(r + 1, c + 1) != ch) svg.rect(x + 1 - in, y + 1 - in, 2 * in, 2 * in, "#efe6d2");
      centres[ch].emplace_back(x + 0.5, y + 0.5);
      sum[ch].first += x + 0.5;
      sum[ch].second += y + 0.5;
      ++count[ch];
    }
  // The label at the centre of the piece, or on its cell nearest the centre (an L's corner).
  for (const auto& [ch, s] : sum) {
    const double cx = s.first / count[ch], cy = s.second / count[ch];
    std::pair<double, double> at_cell = centres[ch].front();
    double best = 1e9;
    for (const auto& [x, y] : centres[ch]) {
      const double d = (x - cx) * (x - cx) + (y - cy) * (y - cy);
      if (d < best) best = d, at_cell = {x, y};
    }
    // Inside when every cell the point touches is the piece's (a 2x2's centre touches four).
    bool inside = true;
    for (int r = 0; r < b.rows; ++r)
      for (int c = 0; c < b.cols; ++c)
        if (std::abs(pad + c + 0.5 - cx) <= 0.5001 && std::abs(pad + r + 0.5 - cy) <= 0.5001) inside &= at(r, c) == ch;
    svg.text(inside ? cx : at_cell.first, inside ? cy : at_cell.second, std::string(1, ch), 0.42, "#fff", "font-weight=\"bold\"");
  }
  for (int i : marked)
    svg.rect(pad + i % b.cols + 0.08, pad + i / b.cols + 0.08, 0.84, 0.84, "none",
             "stroke=\"#ffd23f\" stroke-width=\"0.08\" data-mark=\"1\"");
  return svg.str();
}

std::string GridRules::state(const std::string& g) const {
  std::string out;
  for (int r = 0; r < board.rows; ++r) {
    if (r) out += '/';
    out += g.substr(static_cast<std::size_t>(r * board.cols), static_cast<std::size_t>(board.cols));
  }
  return out;
}

std::string GridRules::frame(const std::string&, const std::string& m, const std::string& after) const {
  std::vector<int> cells;
  for (int p = 0; p < board.cells(); ++p)
    if (after[static_cast<std::size_t>(p)] == m[0]) cells.push_back(p);
  return position_svg(board, after, cells);
}

}  // namespace tansaku::blocks
