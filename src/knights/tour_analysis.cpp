// The proofs that no knight's tour exists without searching, the vertex order that keeps the
// counting frontier narrow, and the board's symmetry classes of squares.
#include "knights/tour_analysis.h"

#include <algorithm>

#include <fmt/format.h>


namespace tansaku::knights {

std::optional<std::string> no_tour_reason(const Board& b, std::int64_t from, bool closed, Deadline* deadline) {
  const std::int64_t n = b.squares();
  if (n == 1) {
    if (closed) return std::string("on a 1x1 board the knight cannot move, so it cannot come back: no closed tour");
    return std::nullopt;
  }
  // Colours: every knight's move changes the colour of the square.
  if (closed && n % 2 == 1)
    return fmt::format("a closed tour alternates colours, so it needs an even number of squares; {}x{} has {}",
                       b.rows(), b.cols(), n);
  if (!closed && n % 2 == 1 && from >= 0 && Board::colour(b.row(from), b.col(from)) == 1)
    return fmt::format(
        "an open tour of {} squares alternates colours and visits {} squares of its first square's colour; square {} "
        "is on the colour with only {} squares",
        n, (n + 1) / 2, from, n / 2);
  // Dead ends: a square with no moves can never be reached; a closed tour enters and leaves
  // every square; an open tour has one free end besides its first square.
  std::vector<std::int64_t> ones;
  for (std::int64_t s = 0; s < n; ++s) {
    if (deadline) deadline->poll();
    const int d = b.degree(s);
    if (d == 0) return fmt::format("square {} has no knight's move at all", s);
    if (d == 1) {
      if (closed) return fmt::format("square {} has a single knight's move; a closed tour enters and leaves every square", s);
      if (s != from) ones.push_back(s);
    }
  }
  const std::size_t free_ends = from >= 0 ? 1 : 2;
  if (ones.size() > free_ends)
    return fmt::format("squares {} and {} have a single knight's move each, so each must end the tour{}", ones[0],
                       ones[1], from >= 0 ? fmt::format(", but the tour starts on {}", from) : std::string(""));
  // Connectivity.
  auto dist = knight_distances(b, 0, deadline);
  for (std::int64_t s = 0; s < n; ++s)
    if (dist[s] < 0) return fmt::format("no knight's path joins square 0 and square {}", s);
  return std::nullopt;
}

NarrowGraph narrow_graph(const Board& b) {
  const int n = static_cast<int>(b.squares());
  NarrowGraph g;
  g.square_at.resize(n);
  g.pos_of.resize(n);
  for (int p = 0; p < n; ++p) {
    const int sq = b.cols() <= b.rows() ? p : (p % b.rows()) * b.cols() + p / b.rows();
    g.square_at[p] = sq;
    g.pos_of[sq] = p;
  }
  std::vector<std::vector<int>> lists(n);
  for (int p = 0; p < n; ++p)
    b.for_each_neighbor(g.square_at[p], [&](std::int64_t t) { lists[p].push_back(g.pos_of[t]); });
  g.adj = graph::AdjacencyGraph(lists);
  return g;
}

std::vector<int> symmetry_classes(const Board& b) {
  const int R = b.rows(), C = b.cols(), n = static_cast<int>(b.squares());
  std::vector<int> rep(n);
  for (int s = 0; s < n; ++s) {
    const int r = s / C, c = s % C;
    int best = s;
    auto take = [&](int rr, int cc, int cols) { best = std::min(best, rr * cols + cc); };
    take(R - 1 - r, c, C);
    take(r, C - 1 - c, C);
    take(R - 1 - r, C - 1 - c, C);
    if (R == C) {
      take(c, r, C);
      take(C - 1 - c, r, C);
      take(c, R - 1 - r, C);
      take(C - 1 - c, R - 1 - r, C);
    }
    rep[s] = best;
  }
  return rep;
}

}  // namespace tansaku::knights
