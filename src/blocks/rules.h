// The rules of one sliding-block puzzle as bitboard tables, shared by the search domains of
// every code width: which cells a piece of each kind covers at each anchor, where it fits,
// where one move can take it under the metric, how pieces are grouped (alike pieces share a
// group unless --distinct) and what the goal requires of each group.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "blocks/board.h"

namespace tansaku::blocks {

class Rules {
 public:
  struct Group {
    int kind = 0;
    int first = 0, count = 0;      // its slots in the state code
    std::uint64_t required = 0;    // anchors the goal requires of this group
  };

  // Throws InputError when the state code would need more than 256 bits.
  Rules(const Board& b, Metric m, bool distinct);

  const Board& board() const { return b_; }
  Metric metric() const { return metric_; }
  bool distinct() const { return distinct_; }
  int slots() const { return static_cast<int>(slot_group_.size()); }
  int bits() const { return bits_; }           // bits per anchor field
  int per_word() const { return per_word_; }   // fields per 64-bit word
  int words() const { return words_; }         // 64-bit words of a state code
  // Where slot i's field sits in the state code: word and bit shift (precomputed: the hot
  // paths would otherwise divide by per_word() for every field).
  int slot_word(int slot) const { return slot_word_[static_cast<std::size_t>(slot)]; }
  int slot_shift(int slot) const { return slot_shift_[static_cast<std::size_t>(slot)]; }
  const std::vector<Group>& groups() const { return groups_; }
  int slot_group(int slot) const { return slot_group_[static_cast<std::size_t>(slot)]; }
  int slot_kind(int slot) const { return groups_[static_cast<std::size_t>(slot_group(slot))].kind; }
  char slot_label(int slot) const { return slot_label_[static_cast<std::size_t>(slot)]; }
  // Group of a labelled piece of a position (by label with --distinct, by kind otherwise).
  int group_of(const Piece& p) const;

  std::uint64_t cover(int kind, int anchor) const { return cover_[static_cast<std::size_t>(kind)][static_cast<std::size_t>(anchor)]; }
  const std::array<std::uint64_t, 64>& cover_row(int kind) const { return cover_[static_cast<std::size_t>(kind)]; }
  // The open cells next to a piece of `kind` at `anchor` (not its own): it can move only if
  // one of them is free, under every metric.
  const std::array<std::uint64_t, 64>& halo_row(int kind) const { return halo_[static_cast<std::size_t>(kind)]; }
  std::uint64_t open() const { return open_; }  // board cells that are not walls
  // Anchors reachable in one move under the metric by a piece at `anchor`, when `fit` are the
  // anchors where it fits on the free cells (its own cells counted free).
  std::uint64_t reach(int anchor, std::uint64_t fit) const;
  // Anchors where a piece of `kind` fits on the empty board, and its cells' offsets
  // (row * cols + column, >= 0: the anchor is the first cell) from the anchor.
  std::uint64_t valid(int kind) const { return valid_[static_cast<std::size_t>(kind)]; }
  const std::vector<int>& offsets(int kind) const { return offsets_[static_cast<std::size_t>(kind)]; }
  // Lower bound on the moves taking a piece of `kind` from anchor a to anchor t.
  int distance(int a, int t) const;
  bool single_goal() const { return single_goal_; }
  bool has_goal() const { return has_goal_; }
  // Number of placements of the pieces ignoring overlaps: an upper bound on the states.
  long double placement_bound() const;

 private:
  Board b_;
  Metric metric_;
  bool distinct_;
  int bits_ = 1, per_word_ = 64, words_ = 1;
  std::vector<Group> groups_;
  std::vector<int> slot_group_;
  std::vector<int> slot_word_, slot_shift_;
  std::vector<char> slot_label_;
  std::vector<int> kind_group_;  // alike: the group of each kind
  std::vector<int> label_group_; // distinct: the group of each label (by char)
  std::vector<std::array<std::uint64_t, 64>> cover_;  // [kind][anchor]
  std::vector<std::array<std::uint64_t, 64>> halo_;   // [kind][anchor]
  std::vector<std::uint64_t> valid_;  // anchors where a kind fits on the empty board
  std::vector<std::vector<int>> offsets_;  // cell offsets (row * cols + column) from the anchor, >= 0
  std::uint64_t open_ = 0, not_first_col_ = 0, not_last_col_ = 0;
  bool single_goal_ = false, has_goal_ = false;
};

inline std::uint64_t Rules::reach(int anchor, std::uint64_t f) const {
  const std::uint64_t self = std::uint64_t{1} << anchor;
  const int cols = b_.cols;
  auto spread = [&](std::uint64_t x) {
    return ((x & not_first_col_) >> 1) | ((x & not_last_col_) << 1) | (x >> cols) | (x << cols);
  };
  switch (metric_) {
    case Metric::Step: return spread(self) & f;
    case Metric::Path: {
      std::uint64_t reach = self, frontier = self;
      while (frontier) {
        frontier = spread(frontier) & f & ~reach;
        reach |= frontier;
      }
      return reach & ~self;
    }
    case Metric::Line: {
      std::uint64_t out = 0;
      for (std::uint64_t x = self; (x = ((x & not_first_col_) >> 1) & f);) out |= x;
      for (std::uint64_t x = self; (x = ((x & not_last_col_) << 1) & f);) out |= x;
      for (std::uint64_t x = self; (x = (x >> cols) & f);) out |= x;
      for (std::uint64_t x = self; (x = (x << cols) & f);) out |= x;
      return out;
    }
  }
  return 0;
}

}  // namespace tansaku::blocks
