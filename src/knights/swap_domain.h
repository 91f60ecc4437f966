// The knight-swap search domain: armies of knights (any labels, any counts) on a board of
// up to 64 squares; a move takes one knight to an empty square a knight's move away.
// Bidirectional search (moves are reversible), IDA* (each knight needs at least its knight
// distance to the nearest goal square of its army), and a multiset ranking (empty squares
// and each army are identical pieces) for the 2-bit explore table, with a bitboard fast path.
#pragma once
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "knights/board.h"
#include "tansaku/core/ranking.h"

namespace tansaku::knights {

// Labels of an instance: names[0] is the empty square "0"; counts[L] squares hold label L.
struct Armies {
  std::vector<std::string> names;
  std::vector<int> counts;
};

using Cells = std::vector<std::uint8_t>;  // label per square

struct SwapState {
  std::array<std::uint8_t, 64> c{};
  bool operator==(const SwapState&) const = default;
};

struct SwapMove {
  std::uint8_t from = 0, to = 0;
};

class SwapDomain {
 public:
  using State = SwapState;
  using Move = SwapMove;

  SwapDomain(const Board& b, const Armies& armies, const Cells& goal);

  State make(const Cells& cells) const;
  Cells cells_of(const State& s) const { return Cells(s.c.begin(), s.c.begin() + n_); }
  bool is_goal(const State& s) const { return s == goal_; }
  State goal() const { return goal_; }
  std::size_t hash(const State& s) const {
    std::uint64_t h = 1469598103934665603ull, w;
    for (int i = 0; i < n_; i += 8) {
      std::memcpy(&w, &s.c[i], 8);
      h = (h ^ w) * 0x100000001B3ull;
      h ^= h >> 29;
    }
    return static_cast<std::size_t>(h);
  }

  template <class F>
  void for_each_move(const State& s, F&& f) const {
    const std::uint64_t empty = empty_mask(s);
    for (int a = 0; a < n_; ++a) {
      if (!s.c[a]) continue;
      for (std::uint64_t m = nb_[a] & empty; m; m &= m - 1) {
        const int b = std::countr_zero(m);
        State t = s;
        t.c[b] = s.c[a];
        t.c[a] = 0;
        f(Move{static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(b)}, t);
      }
    }
  }
  // Moves are reversible: the knight now on b came from an empty square a.
  template <class F>
  void for_each_predecessor(const State& s, F&& f) const {
    const std::uint64_t empty = empty_mask(s);
    for (int b = 0; b < n_; ++b) {
      if (!s.c[b]) continue;
      for (std::uint64_t m = nb_[b] & empty; m; m &= m - 1) {
        const int a = std::countr_zero(m);
        State p = s;
        p.c[a] = s.c[b];
        p.c[b] = 0;
        f(Move{static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(b)}, p);
      }
    }
  }

  // Sum over knights of the knight distance (on the empty board) to the nearest goal
  // square of the same army: admissible, since a move moves one knight one step.
  int h(const State& s) const {
    int total = 0;
    for (int a = 0; a < n_; ++a)
      if (s.c[a]) total += dist_[s.c[a] * n_ + a];
    return total;
  }

  // ---- ranking (explore) ----
  // 0 when the arrangements do not fit a 64-bit rank.
  std::uint64_t size() const { return ranker_ ? ranker_->size() : 0; }
  std::uint64_t rank(const State& s) const { return ranker_->rank(s.c.data()); }
  State unrank(std::uint64_t r) const {
    State s;
    ranker_->unrank(r, s.c.data());
    return s;
  }
  template <class F>
  void for_each_neighbor_rank(std::uint64_t r, F&& f) const {
    std::uint64_t masks[64];
    ranker_->unrank_masks(r, masks);
    const std::uint64_t empty = masks[0];
    for (int L = 1; L < labels_; ++L)
      for (std::uint64_t pieces = masks[L]; pieces; pieces &= pieces - 1) {
        const int a = std::countr_zero(pieces);
        for (std::uint64_t m = nb_[a] & empty; m; m &= m - 1) {
          const std::uint64_t flip = (std::uint64_t{1} << a) | (m & -m);
          masks[0] ^= flip;
          masks[L] ^= flip;
          f(ranker_->rank_masks(masks));
          masks[0] ^= flip;
          masks[L] ^= flip;
        }
      }
  }

  // Parity of every solution's length: each move changes the colour of one occupied square.
  int colour_sum(const State& s) const;
  int squares() const { return n_; }

 private:
  std::uint64_t empty_mask(const State& s) const {
    std::uint64_t e = 0;
    for (int i = 0; i < n_; ++i) e |= std::uint64_t(s.c[i] == 0) << i;
    return e;
  }

  Board board_;
  int n_ = 0, labels_ = 0;
  std::array<std::uint64_t, 64> nb_{};
  std::vector<int> dist_;  // dist_[L * n + sq]
  State goal_;
  std::optional<MultisetRanker> ranker_;
};

}  // namespace tansaku::knights
