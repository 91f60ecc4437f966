// The knight's graph of an R x C board (squares numbered row-major from 0, as the seeds
// do): neighbours, square parsing, pictures, knight distances. Shared by knight-tour and
// knight-swap.
#pragma once
#include <cstdint>

#include "tansaku/core/deadline.h"
#include <string>
#include <string_view>
#include <vector>

namespace tansaku::knights {

// The eight knight steps (row, column), clockwise from "two up, one right".
inline constexpr int kStepRow[8] = {-2, -1, 1, 2, 2, 1, -1, -2};
inline constexpr int kStepCol[8] = {1, 2, 2, 1, -1, -2, -2, -1};

class Board {
 public:
  Board() = default;
  Board(int rows, int cols);  // rows, cols >= 1; no adjacency lists (see build_adjacency)
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  std::int64_t squares() const { return n_; }
  std::int64_t size() const { return n_; }  // (the board is a graph::Graph: its knight's graph)
  int row(std::int64_t sq) const { return static_cast<int>(sq / cols_); }
  int col(std::int64_t sq) const { return static_cast<int>(sq % cols_); }
  bool inside(std::int64_t r, std::int64_t c) const { return r >= 0 && r < rows_ && c >= 0 && c < cols_; }
  bool adjacent(std::int64_t a, std::int64_t b) const;
  // Squares of the same colour as square 0 ((row + col) even) and of the other colour.
  std::int64_t light_squares() const { return (n_ + 1) / 2; }
  static int colour(int r, int c) { return (r + c) & 1; }

  // Neighbours of sq without stored lists: f(neighbour) in the order of kStep*.
  template <class F>
  void for_each_neighbor(std::int64_t sq, F&& f) const {
    const int r = row(sq), c = col(sq);
    for (int k = 0; k < 8; ++k) {
      const int rr = r + kStepRow[k], cc = c + kStepCol[k];
      if (rr >= 0 && rr < rows_ && cc >= 0 && cc < cols_) f(static_cast<std::int64_t>(rr) * cols_ + cc);
    }
  }
  int degree(std::int64_t sq) const;

  // Adjacency lists of every square (small boards: search, counting, swaps).
  std::vector<std::vector<int>> adjacency() const;

  // Parses a square number "0".."n-1"; throws InputError naming `what` otherwise.
  std::int64_t parse_square(std::string_view text, std::string_view what) const;
  // Numbers of the squares laid out as the board.
  std::string numbering() const;
  // The board with cell labels (one string per square, "." for empty ones).
  std::string picture(const std::vector<std::string>& cells) const;

 private:
  int rows_ = 0, cols_ = 0;
  std::int64_t n_ = 0;
};

// Breadth-first knight distances from `from` (-1 for squares never reached).
// `deadline` (if given) is polled: a board of 10^7 squares takes seconds.
std::vector<int> knight_distances(const Board& b, std::int64_t from, Deadline* deadline = nullptr);

}  // namespace tansaku::knights
