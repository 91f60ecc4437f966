// The flip board: R x C cells numbered row-major from 0, a 3x3 toggle mask (which cells
// around a pressed cell change), optional torus wrap; parsing and printing of 0/1 grids.
// Pressing p toggles the set {p + d : d in mask} (cells off the board are dropped, or wrap
// on a torus; on a torus narrower than 3 two offsets can meet the same cell, which is then
// toggled once). A configuration and a press set are both n-bit vectors (Bits).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "flip/bitvec.h"

namespace tansaku::flip {

struct Rule {
  std::array<bool, 9> mask{};  // mask[(dr + 1) * 3 + (dc + 1)]: pressing (r, c) toggles (r + dr, c + dc)
  std::string name;            // "eight", "lights-out" or the mask "111/101/111"
  bool at(int dr, int dc) const { return mask[static_cast<std::size_t>((dr + 1) * 3 + (dc + 1))]; }
  std::string mask_text() const;  // "111/101/111"
  bool point_symmetric() const;   // mask(d) == mask(-d): the press matrix is symmetric
  Rule reflected() const;         // d -> -d: the transposed press matrix
};

// "eight" (default), "lights-out", or a 3x3 mask of 0/1 ("111/101/111", "010 111 010",
// "010111010"). Throws InputError otherwise.
Rule parse_rule(const std::optional<std::string>& text);

class Board {
 public:
  Board(int rows, int cols, bool torus, Rule rule);

  int rows() const { return rows_; }
  int cols() const { return cols_; }
  bool torus() const { return torus_; }
  const Rule& rule() const { return rule_; }
  std::int64_t cells() const { return static_cast<std::int64_t>(rows_) * cols_; }
  // The distinct offsets in effect: the mask's (dr, dc) on a plain board; on a torus the
  // distinct classes (dr mod R, dc mod C), normalised to [0, R) x [0, C).
  const std::vector<std::pair<int, int>>& offsets() const { return offs_; }
  Board reflected() const { return Board(rows_, cols_, torus_, rule_.reflected()); }

  // f(q) for every cell q toggled by pressing p.
  template <class F>
  void for_each_toggled(std::int64_t p, F&& f) const {
    const int r = static_cast<int>(p / cols_), c = static_cast<int>(p % cols_);
    for (auto [dr, dc] : offs_) {
      int rr = r + dr, cc = c + dc;
      if (torus_) {
        if (rr >= rows_) rr -= rows_;
        if (cc >= cols_) cc -= cols_;
      } else if (rr < 0 || rr >= rows_ || cc < 0 || cc >= cols_) {
        continue;
      }
      f(static_cast<std::int64_t>(rr) * cols_ + cc);
    }
  }
  // f(p) for every press p that toggles cell q.
  template <class F>
  void for_each_presser(std::int64_t q, F&& f) const {
    const int r = static_cast<int>(q / cols_), c = static_cast<int>(q % cols_);
    for (auto [dr, dc] : offs_) {
      int rr = r - dr, cc = c - dc;
      if (torus_) {
        if (rr < 0) rr += rows_;
        if (cc < 0) cc += cols_;
      } else if (rr < 0 || rr >= rows_ || cc < 0 || cc >= cols_) {
        continue;
      }
      f(static_cast<std::int64_t>(rr) * cols_ + cc);
    }
  }

  // A configuration or press set from text: R rows of C characters 0/1 separated by
  // whitespace, commas or '/', or R*C single characters so separated, or one string of
  // R*C characters. Throws InputError naming `what` otherwise.
  Bits parse_grid(std::string_view text, std::string_view what) const;
  // Rows of 0/1 joined by '/'.
  std::string format_grid(const Bits& x) const;
  // A picture: one line per row, `on` / `off` characters separated by spaces.
  std::string picture(const Bits& x, std::string_view on = "1", std::string_view off = "0") const;
  // The cell numbers, right-aligned.
  std::string numbering() const;

 private:
  int rows_, cols_;
  bool torus_;
  Rule rule_;
  std::vector<std::pair<int, int>> offs_;
};

}  // namespace tansaku::flip
