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
  const std::vector<Group>& groups() const { return groups_; }
  int slot_group(int slot) const { return slot_group_[static_cast<std::size_t>(slot)]; }
  int slot_kind(int slot) const { return groups_[static_cast<std::size_t>(slot_group(slot))].kind; }
  char slot_label(int slot) const { return slot_label_[static_cast<std::size_t>(slot)]; }
  // Group of a labelled piece of a position (by label with --distinct, by kind otherwise).
  int group_of(const Piece& p) const;

  std::uint64_t cover(int kind, int anchor) const { return cover_[static_cast<std::size_t>(kind * 64 + anchor)]; }
  std::uint64_t open() const { return open_; }  // board cells that are not walls
  // Anchors reachable in one move by a piece of `kind` at `anchor` when `free` are the free
  // cells (its own cells included).
  std::uint64_t destinations(int kind, int anchor, std::uint64_t free) const;
  // Lower bound on the moves taking a piece of `kind` from anchor a to anchor t.
  int distance(int a, int t) const;
  bool single_goal() const { return single_goal_; }
  bool has_goal() const { return has_goal_; }
  // Number of placements of the pieces ignoring overlaps: an upper bound on the states.
  long double placement_bound() const;

 private:
  std::uint64_t fits(int kind, std::uint64_t free) const {
    std::uint64_t f = valid_[static_cast<std::size_t>(kind)];
    for (int o : offsets_[static_cast<std::size_t>(kind)]) f &= o >= 0 ? free >> o : free << -o;
    return f;
  }

  Board b_;
  Metric metric_;
  bool distinct_;
  int bits_ = 1, per_word_ = 64, words_ = 1;
  std::vector<Group> groups_;
  std::vector<int> slot_group_;
  std::vector<char> slot_label_;
  std::vector<int> kind_group_;  // alike: the group of each kind
  std::vector<int> label_group_; // distinct: the group of each label (by char)
  std::vector<std::uint64_t> cover_;  // [kind * 64 + anchor]
  std::vector<std::uint64_t> valid_;  // anchors where a kind fits on the empty board
  std::vector<std::vector<int>> offsets_;  // cell offsets (row * cols + column) from the anchor
  std::uint64_t open_ = 0, not_first_col_ = 0, not_last_col_ = 0;
  bool single_goal_ = false, has_goal_ = false;
};

inline std::uint64_t Rules::destinations(int kind, int anchor, std::uint64_t free) const {
  const std::uint64_t f = fits(kind, free);
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
