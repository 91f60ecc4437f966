// Naming the pieces of a solution and recovering their unit steps.
#include "blocks/notation.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>

namespace tansaku::blocks {

namespace {

// Unit steps from anchor a to anchor t for a piece of `kind` through `free` cells: breadth-
// first over anchors where the piece fits, trying u d l r in that order.
std::string route(const Rules& r, int kind, int a, int t, std::uint64_t free) {
  const Board& b = r.board();
  const int n = b.cells();
  auto fits = [&](int p) {
    const std::uint64_t c = r.cover(kind, p);
    return c && (c & ~free) == 0;
  };
  std::vector<int> parent(static_cast<std::size_t>(n), -1);
  std::vector<char> how(static_cast<std::size_t>(n), 0);
  std::vector<int> queue{a};
  parent[static_cast<std::size_t>(a)] = a;
  for (std::size_t q = 0; q < queue.size() && parent[static_cast<std::size_t>(t)] < 0; ++q) {
    const int p = queue[q], row = p / b.cols, col = p % b.cols;
    const struct { char c; int dr, dc; } dirs[4] = {{'u', -1, 0}, {'d', 1, 0}, {'l', 0, -1}, {'r', 0, 1}};
    for (const auto& d : dirs) {
      const int nr = row + d.dr, nc = col + d.dc;
      if (nr < 0 || nr >= b.rows || nc < 0 || nc >= b.cols) continue;
      const int np = nr * b.cols + nc;
      if (parent[static_cast<std::size_t>(np)] >= 0 || !fits(np)) continue;
      parent[static_cast<std::size_t>(np)] = p;
      how[static_cast<std::size_t>(np)] = d.c;
      queue.push_back(np);
    }
  }
  if (parent[static_cast<std::size_t>(t)] < 0) throw std::logic_error("blocks: a move of the solution has no route");
  std::string steps;
  for (int p = t; p != a; p = parent[static_cast<std::size_t>(p)]) steps += how[static_cast<std::size_t>(p)];
  return std::string(steps.rbegin(), steps.rend());
}

}  // namespace

PrintedSolution print_solution(const Rules& r, const std::vector<Piece>& start, const std::vector<Move>& moves) {
  PrintedSolution out;
  std::vector<Piece> pos = start;
  const Board& b = r.board();
  for (const Move& m : moves) {
    Piece* moved = nullptr;
    std::uint64_t occ = 0;
    for (Piece& p : pos) {
      occ |= r.cover(p.kind, p.anchor);
      if (p.anchor == m.from) moved = &p;
    }
    if (!moved) throw std::logic_error(fmt::format("blocks: no piece at cell {} to move", m.from));
    const std::uint64_t free = r.open() & ~(occ ^ r.cover(moved->kind, m.from));
    std::string steps;
    if (r.metric() == Metric::Path) {
      steps = route(r, moved->kind, m.from, m.to, free);
    } else {
      const int dr = m.to / b.cols - m.from / b.cols, dc = m.to % b.cols - m.from % b.cols;
      const char c = dr < 0 ? 'u' : dr > 0 ? 'd' : dc < 0 ? 'l' : 'r';
      steps.assign(static_cast<std::size_t>(std::abs(dr) + std::abs(dc)), c);
    }
    out.moves.push_back(moved->label + steps);
    moved->anchor = m.to;
    std::sort(pos.begin(), pos.end(), [](const Piece& x, const Piece& y) { return x.anchor < y.anchor; });
    out.positions.push_back(pos);
  }
  return out;
}

}  // namespace tansaku::blocks
