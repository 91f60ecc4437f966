// The knight's graph of a board: neighbours, adjacency lists, square parsing, square numbering
// and text pictures, and knight distances by breadth-first search.
#include "knights/board.h"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/tokens.h"

namespace tansaku::knights {

Board::Board(int rows, int cols) : rows_(rows), cols_(cols), n_(static_cast<std::int64_t>(rows) * cols) {
  if (rows < 1 || cols < 1) throw InputError(fmt::format("a board needs at least 1 row and 1 column, not {}x{}", rows, cols));
}

bool Board::adjacent(std::int64_t a, std::int64_t b) const {
  if (a < 0 || b < 0 || a >= n_ || b >= n_) return false;
  const int dr = std::abs(row(a) - row(b)), dc = std::abs(col(a) - col(b));
  return (dr == 1 && dc == 2) || (dr == 2 && dc == 1);
}

int Board::degree(std::int64_t sq) const {
  int d = 0;
  for_each_neighbor(sq, [&](std::int64_t) { ++d; });
  return d;
}

std::vector<std::vector<int>> Board::adjacency() const {
  std::vector<std::vector<int>> adj(static_cast<std::size_t>(n_));
  for (std::int64_t s = 0; s < n_; ++s) {
    for_each_neighbor(s, [&](std::int64_t t) { adj[s].push_back(static_cast<int>(t)); });
    std::sort(adj[s].begin(), adj[s].end());
  }
  return adj;
}

std::int64_t Board::parse_square(std::string_view text, std::string_view what) const {
  auto v = parse_uint(text, what);
  if (v >= static_cast<std::uint64_t>(n_))
    throw InputError(fmt::format("{}: square {} is outside the {}x{} board (squares 0..{})", what, text, rows_, cols_,
                                 n_ - 1));
  return static_cast<std::int64_t>(v);
}

std::string Board::numbering() const {
  const std::size_t w = std::to_string(n_ - 1).size();
  std::string s;
  for (int r = 0; r < rows_; ++r) {
    s += "  ";
    for (int c = 0; c < cols_; ++c)
      s += fmt::format("{:>{}}{}", static_cast<std::int64_t>(r) * cols_ + c, w, c + 1 < cols_ ? " " : "\n");
  }
  return s;
}

std::string Board::picture(const std::vector<std::string>& cells) const {
  std::size_t w = 1;
  for (const auto& c : cells) w = std::max(w, c.size());
  std::string s;
  for (int r = 0; r < rows_; ++r) {
    s += "  ";
    for (int c = 0; c < cols_; ++c)
      s += fmt::format("{:>{}}{}", cells[static_cast<std::size_t>(r) * cols_ + c], w, c + 1 < cols_ ? " " : "\n");
  }
  return s;
}

std::vector<int> knight_distances(const Board& b, std::int64_t from, Deadline* deadline) {
  std::vector<int> dist(static_cast<std::size_t>(b.squares()), -1);
  std::vector<std::int64_t> queue{from};
  dist[from] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const std::int64_t s = queue[head];
    if (deadline) deadline->poll();
    b.for_each_neighbor(s, [&](std::int64_t t) {
      if (dist[t] < 0) dist[t] = dist[s] + 1, queue.push_back(t);
    });
  }
  return dist;
}

}  // namespace tansaku::knights
