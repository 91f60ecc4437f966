// Building and checking boards, positions and goals from character grids.
#include "blocks/build.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "tansaku/core/error.h"

namespace tansaku::blocks {

namespace {

int line_of(const Grid& g, int cell) { return g.lines[static_cast<std::size_t>(cell / g.cols())]; }

std::uint64_t walls_of(const Grid& g) {
  std::uint64_t w = 0;
  for (int r = 0; r < static_cast<int>(g.rows.size()); ++r)
    for (int c = 0; c < g.cols(); ++c)
      if (g.at(r, c) == '#') w |= std::uint64_t{1} << (r * g.cols() + c);
  return w;
}

void same_size(const Board& b, const Grid& g, const std::string& what, int line) {
  if (static_cast<int>(g.rows.size()) != b.rows || g.cols() != b.cols)
    throw InputError(where(what, line ? line : g.lines.front()) +
                     fmt::format("the picture is {}x{} (rows x columns), the puzzle {}x{}", g.rows.size(), g.cols(),
                                 b.rows, b.cols));
}

int kind_index(const Board& b, const Shape& s) {
  for (std::size_t k = 0; k < b.kinds.size(); ++k)
    if (b.kinds[k] == s) return static_cast<int>(k);
  return -1;
}

const Piece* start_piece(const Board& b, char label) {
  for (const Piece& p : b.pieces)
    if (p.label == label) return &p;
  return nullptr;
}

}  // namespace

Board build_board(BoardText bt) {
  Board b;
  b.source = bt.source;
  b.name = bt.name.empty() ? bt.source : bt.name;
  b.metric = bt.metric;
  b.distinct = bt.distinct;
  b.knuth = bt.knuth;
  const Grid& s = bt.start;
  if (s.rows.empty()) throw InputError(where(bt.source, bt.start_line) + "the 'start:' picture has no rows");
  b.rows = static_cast<int>(s.rows.size());
  b.cols = s.cols();
  if (b.cols == 0) throw InputError(where(bt.source, bt.start_line) + "the 'start:' picture has empty rows");
  if (b.cells() > kMaxCells)
    throw InputError(where(bt.source, bt.start_line) +
                     fmt::format("the board is {}x{} = {} cells, walls included; at most {} are supported", b.rows,
                                 b.cols, b.cells(), kMaxCells));
  b.walls = walls_of(s);
  for (const auto& [label, cells] : find_pieces(s, bt.source)) {
    Piece p;
    p.label = label;
    Shape sh = shape_of(cells, b.cols, &p.anchor);
    p.kind = kind_index(b, sh);
    if (p.kind < 0) {
      p.kind = static_cast<int>(b.kinds.size());
      b.kinds.push_back(std::move(sh));
    }
    b.pieces.push_back(p);
  }
  if (b.pieces.empty()) throw InputError(where(bt.source, bt.start_line) + "the 'start:' picture has no pieces");
  std::sort(b.pieces.begin(), b.pieces.end(), [](const Piece& x, const Piece& y) { return x.anchor < y.anchor; });
  // Kinds in order of first appearance in the picture (row-major), so numbering is stable.
  std::vector<int> order, renum(b.kinds.size(), -1);
  for (const Piece& p : b.pieces)
    if (renum[static_cast<std::size_t>(p.kind)] < 0) {
      renum[static_cast<std::size_t>(p.kind)] = static_cast<int>(order.size());
      order.push_back(p.kind);
    }
  std::vector<Shape> kinds;
  for (int k : order) kinds.push_back(b.kinds[static_cast<std::size_t>(k)]);
  b.kinds = std::move(kinds);
  for (Piece& p : b.pieces) p.kind = renum[static_cast<std::size_t>(p.kind)];
  if (bt.goal_line) {
    if (bt.goal.rows.empty()) throw InputError(where(bt.source, bt.goal_line) + "the 'goal:' picture has no rows");
    b.goal = goal_from_grid(b, bt.goal, bt.source, bt.distinct, bt.goal_line);
  }
  return b;
}

std::vector<Piece> goal_from_grid(const Board& b, const Grid& g, const std::string& what, bool, int line) {
  same_size(b, g, what, line);
  const std::uint64_t w = walls_of(g);
  if (w & ~b.walls) {
    const int cell = std::countr_zero(w & ~b.walls);
    throw InputError(where(what, line_of(g, cell)) + "a wall '#' in the goal where the start has none");
  }
  std::vector<Piece> goal;
  for (const auto& [label, cells] : find_pieces(g, what)) {
    const int at = line_of(g, cells.front());
    const Piece* sp = start_piece(b, label);
    if (!sp) throw InputError(where(what, at) + fmt::format("goal piece '{}' is not in the start picture", label));
    Piece p;
    p.label = label;
    const Shape sh = shape_of(cells, b.cols, &p.anchor);
    if (!(sh == b.kinds[static_cast<std::size_t>(sp->kind)]))
      throw InputError(where(what, at) + fmt::format("goal piece '{}' has another shape than in the start", label));
    p.kind = sp->kind;
    if (!b.cover(p.kind, p.anchor)) throw InputError(where(what, at) + fmt::format("goal piece '{}' covers a wall", label));
    goal.push_back(p);
  }
  std::sort(goal.begin(), goal.end(), [](const Piece& x, const Piece& y) { return x.anchor < y.anchor; });
  return goal;
}

std::vector<Piece> position_from_grid(const Board& b, const Grid& g, const std::string& what, bool distinct) {
  same_size(b, g, what, 0);
  if (walls_of(g) != b.walls)
    throw InputError(where(what, g.lines.front()) + "the walls '#' are not where the puzzle has them");
  std::vector<Piece> pos;
  std::vector<int> count(b.kinds.size(), 0), want(b.kinds.size(), 0);
  for (const Piece& p : b.pieces) ++want[static_cast<std::size_t>(p.kind)];
  for (const auto& [label, cells] : find_pieces(g, what)) {
    const int at = line_of(g, cells.front());
    Piece p;
    p.label = label;
    const Shape sh = shape_of(cells, b.cols, &p.anchor);
    p.kind = kind_index(b, sh);
    if (p.kind < 0) throw InputError(where(what, at) + fmt::format("piece '{}' has a shape the puzzle does not have", label));
    if (distinct) {
      const Piece* sp = start_piece(b, label);
      if (!sp) throw InputError(where(what, at) + fmt::format("piece '{}' is not in the puzzle (--distinct)", label));
      if (sp->kind != p.kind)
        throw InputError(where(what, at) + fmt::format("piece '{}' has another shape than in the puzzle", label));
    }
    ++count[static_cast<std::size_t>(p.kind)];
    pos.push_back(p);
  }
  for (std::size_t k = 0; k < count.size(); ++k)
    if (count[k] != want[k]) {
      char example = '?';
      for (const Piece& p : b.pieces)
        if (p.kind == static_cast<int>(k)) example = p.label;
      throw InputError(where(what, g.lines.front()) +
                       fmt::format("{} pieces shaped like '{}', the puzzle has {}", count[k], example, want[k]));
    }
  std::sort(pos.begin(), pos.end(), [](const Piece& x, const Piece& y) { return x.anchor < y.anchor; });
  return pos;
}

}  // namespace tansaku::blocks
