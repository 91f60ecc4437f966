// The search domain of a sliding-block puzzle (search/domain.h): a state is the anchor cell of
// every piece packed into W 64-bit words, groups in order and the anchors inside a group of
// alike pieces sorted, so alike pieces are interchangeable and each position has one code.
// A move takes one piece from one anchor to another (its unit steps are recovered when the
// solution is printed); moves are reversible, so predecessors are successors.
#pragma once
#include <algorithm>
#include <array>
#include <compare>
#include <cstdint>
#include <memory>
#include <vector>

#include "blocks/rules.h"
#include "tansaku/core/bits.h"

namespace tansaku::blocks {

template <int W>
struct Code {
  std::array<std::uint64_t, W> w{};
  // Word by word (the defaulted forms compile to memcmp calls, a hot spot in the hash sets).
  friend bool operator==(const Code& a, const Code& b) {
    for (int i = 0; i < W; ++i)
      if (a.w[static_cast<std::size_t>(i)] != b.w[static_cast<std::size_t>(i)]) return false;
    return true;
  }
  friend std::strong_ordering operator<=>(const Code& a, const Code& b) {
    for (int i = 0; i < W; ++i)
      if (a.w[static_cast<std::size_t>(i)] != b.w[static_cast<std::size_t>(i)])
        return a.w[static_cast<std::size_t>(i)] <=> b.w[static_cast<std::size_t>(i)];
    return std::strong_ordering::equal;
  }
};

struct Move {
  std::uint8_t from = 0, to = 0;  // anchor cells
  bool operator==(const Move&) const = default;
};

template <int W>
class Domain {
 public:
  using State = Code<W>;
  using Move = blocks::Move;
  static constexpr int kMaxSlots = 64;

  explicit Domain(std::shared_ptr<const Rules> r) : r_(std::move(r)) {
    fmask_ = (std::uint64_t{1} << r_->bits()) - 1;
    const Board& b = r_->board();
    cols_ = b.cols;
    for (int p = 0; p < b.cells(); ++p)
      for (int q = 0; q < b.cells(); ++q) {
        if (p / cols_ == q / cols_) row_[static_cast<std::size_t>(p)] |= std::uint64_t{1} << q;
        if (p % cols_ == q % cols_) col_[static_cast<std::size_t>(p)] |= std::uint64_t{1} << q;
      }
    for (int i = 0; i < r_->slots(); ++i) {
      const auto& grp = r_->groups()[static_cast<std::size_t>(r_->slot_group(i))];
      slots_.push_back({static_cast<std::uint8_t>(r_->slot_word(i)), static_cast<std::uint8_t>(r_->slot_shift(i)),
                        static_cast<std::uint8_t>(grp.first), static_cast<std::uint8_t>(grp.count), grp.kind,
                        &r_->cover_row(grp.kind), &r_->halo_row(grp.kind), r_->valid(grp.kind),
                        r_->offsets(grp.kind).data(), static_cast<int>(r_->offsets(grp.kind).size())});
    }
    if (r_->single_goal()) goal_ = encode(r_->board().goal);
  }
  const Rules& rules() const { return *r_; }

  // Code of a labelled position (every piece of the puzzle, or a goal fixing all of them).
  State encode(const std::vector<Piece>& pos) const {
    std::array<std::uint8_t, kMaxSlots> a{};
    std::vector<int> fill(r_->groups().size(), 0);
    for (const Piece& p : pos) {
      const int g = r_->group_of(p);
      const auto& grp = r_->groups()[static_cast<std::size_t>(g)];
      a[static_cast<std::size_t>(grp.first + fill[static_cast<std::size_t>(g)]++)] = static_cast<std::uint8_t>(p.anchor);
    }
    for (const auto& grp : r_->groups())
      std::sort(a.begin() + grp.first, a.begin() + grp.first + grp.count);
    return pack(a);
  }

  // The labelled position of a code, alike pieces drawn with the start's labels in slot order.
  std::vector<Piece> decode(const State& s) const {
    std::vector<Piece> pos;
    for (int i = 0; i < r_->slots(); ++i)
      pos.push_back({r_->slot_label(i), r_->slot_kind(i), field(s, i)});
    std::sort(pos.begin(), pos.end(), [](const Piece& x, const Piece& y) { return x.anchor < y.anchor; });
    return pos;
  }

  bool is_goal(const State& s) const {
    for (const auto& grp : r_->groups()) {
      if (!grp.required) continue;
      std::uint64_t at = 0;
      for (int i = grp.first; i < grp.first + grp.count; ++i) at |= std::uint64_t{1} << field(s, i);
      if ((at & grp.required) != grp.required) return false;
    }
    return true;
  }
  // Every move can be undone (each metric's moves are reversible): the explore keeps only
  // the last layers (search/explore_states.h).
  bool symmetric() const { return true; }

  // Only when rules().single_goal().
  State goal() const { return goal_; }

  template <class F>
  void for_each_move(const State& s, F&& f) const {
    expand(s, -1, 0, [&](int from, int to, const State& t) { f(Move{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to)}, t); });
  }
  template <class F>
  void for_each_predecessor(const State& s, F&& f) const {
    expand(s, -1, 0, [&](int from, int to, const State& t) { f(Move{static_cast<std::uint8_t>(to), static_cast<std::uint8_t>(from)}, t); });
  }
  // The moves after `last` (search/explore_states.h) without those that cannot lead farther:
  // the piece just moved moving again anywhere (path metric: one move from the parent goes
  // there too), along the same line (line metric: one straight move, or none, does), or
  // straight back (step metric).
  template <class F>
  void for_each_move_after(const State& s, const Move* last, F&& f) const {
    int at = -1;
    std::uint64_t skip = 0;
    if (last) {
      at = last->to;
      switch (r_->metric()) {
        case Metric::Path: skip = ~std::uint64_t{0}; break;
        case Metric::Line: skip = last->from / cols_ == last->to / cols_ ? row_[last->to] : col_[last->to]; break;
        case Metric::Step: skip = std::uint64_t{1} << last->from; break;
      }
    }
    expand(s, at, skip, [&](int from, int to, const State& t) { f(Move{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to)}, t); });
  }

  // Admissible: each required placement needs at least the distance from the nearest piece
  // of its group, and distinct placements are reached by distinct pieces.
  int h(const State& s) const {
    int total = 0;
    for (const auto& grp : r_->groups())
      for (std::uint64_t req = grp.required; req; req &= req - 1) {
        const int t = std::countr_zero(req);
        int best = 1 << 20;
        for (int i = grp.first; i < grp.first + grp.count; ++i) best = std::min(best, r_->distance(field(s, i), t));
        total += best;
      }
    return total;
  }

  // The transposition-table key of IDA* (ida_star_tt.h): the code itself on a one-word board,
  // else a 64-bit fingerprint of the words.
  std::uint64_t key(const State& s) const {
    if constexpr (W == 1) return s.w[0];
    std::uint64_t h = bits::mix64(s.w[0]);
    for (int i = 1; i < W; ++i) h = bits::mix64(h ^ s.w[static_cast<std::size_t>(i)]);
    return h;
  }

  // Not finalised: the hash sets that use it mix it themselves (explore_states.h) or take it
  // modulo a prime (the standard containers).
  std::size_t hash(const State& s) const {
    std::uint64_t h = s.w[0];
    for (int i = 1; i < W; ++i) h = bits::mix64(h) ^ s.w[static_cast<std::size_t>(i)];
    return static_cast<std::size_t>(h);
  }

  int field(const State& s, int i) const {
    const Slot& sl = slots_[static_cast<std::size_t>(i)];
    return static_cast<int>((s.w[sl.word] >> sl.shift) & fmask_);
  }

 private:
  State pack(const std::array<std::uint8_t, kMaxSlots>& a) const {
    State s;
    for (int i = 0; i < r_->slots(); ++i) {
      const Slot& sl = slots_[static_cast<std::size_t>(i)];
      s.w[sl.word] |= std::uint64_t{a[static_cast<std::size_t>(i)]} << sl.shift;
    }
    return s;
  }

  // One slot of the state code: where its field sits, its group's slots, its kind and what
  // expand needs of the kind's tables (pointers into Rules, which r_ keeps alive), so that
  // expand reads one small array.
  struct Slot {
    std::uint8_t word, shift, first, count;
    int kind;
    const std::array<std::uint64_t, 64>* cover;
    const std::array<std::uint64_t, 64>* halo;
    std::uint64_t valid;  // the kind's anchors on the empty board
    const int* offsets;   // the kind's cells from its anchor
    int cells;
  };

  // f(from_anchor, to_anchor, next_state) for every move, but the piece at anchor skip_at
  // leaves out destinations in skip_mask.
  template <class F>
  void expand(const State& s, int skip_at, std::uint64_t skip_mask, F&& f) const {
    const Rules& r = *r_;
    const int n = static_cast<int>(slots_.size());
    std::array<std::uint8_t, kMaxSlots> a;
    std::uint64_t occ = 0;
    for (int i = 0; i < n; ++i) {
      const Slot& sl = slots_[static_cast<std::size_t>(i)];
      a[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>((s.w[sl.word] >> sl.shift) & fmask_);
      occ |= (*sl.cover)[a[static_cast<std::size_t>(i)]];
    }
    const std::uint64_t open = r.open(), empty = open & ~occ;
    // The pieces with a free cell beside them (the others are boxed in), found without
    // branches: usually only a few can move.
    std::uint64_t movable = 0;
    for (int i = 0; i < n; ++i)
      movable |= std::uint64_t{((*slots_[static_cast<std::size_t>(i)].halo)[a[static_cast<std::size_t>(i)]] & empty) != 0} << i;
    for (; movable; movable &= movable - 1) {
      const int i = std::countr_zero(movable);
      const Slot& sl = slots_[static_cast<std::size_t>(i)];
      const int from = a[static_cast<std::size_t>(i)];
      const std::uint64_t keep = from == skip_at ? ~skip_mask : ~std::uint64_t{0};
      if (!keep) continue;
      const std::uint64_t free = open & ~(occ ^ (*sl.cover)[static_cast<std::size_t>(from)]);
      std::uint64_t fit = sl.valid;  // anchors where the piece fits on the free cells
      for (int c = 0; c < sl.cells; ++c) fit &= free >> sl.offsets[c];
      for (std::uint64_t d = r.reach(from, fit) & keep; d; d &= d - 1) {
        const int to = std::countr_zero(d);
        State t = s;
        if (sl.count == 1) {
          t.w[sl.word] ^= static_cast<std::uint64_t>(from ^ to) << sl.shift;
        } else {
          // Re-sort the group with `to` in place of `from`, then rewrite its fields.
          std::array<std::uint8_t, kMaxSlots> g;
          int m = 0;
          for (int j = sl.first; j < sl.first + sl.count; ++j)
            if (j != i) g[static_cast<std::size_t>(m++)] = a[static_cast<std::size_t>(j)];
          int pos = m;
          while (pos > 0 && g[static_cast<std::size_t>(pos - 1)] > to) {
            g[static_cast<std::size_t>(pos)] = g[static_cast<std::size_t>(pos - 1)];
            --pos;
          }
          g[static_cast<std::size_t>(pos)] = static_cast<std::uint8_t>(to);
          for (int j = 0; j < sl.count; ++j) {
            const Slot& o = slots_[static_cast<std::size_t>(sl.first + j)];
            auto& word = t.w[o.word];
            word = (word & ~(fmask_ << o.shift)) | (std::uint64_t{g[static_cast<std::size_t>(j)]} << o.shift);
          }
        }
        f(from, to, t);
      }
    }
  }

  std::shared_ptr<const Rules> r_;
  std::vector<Slot> slots_;
  std::uint64_t fmask_ = 0;
  int cols_ = 1;
  std::array<std::uint64_t, 64> row_{}, col_{};  // the cells in the row / column of a cell
  State goal_{};
};

}  // namespace tansaku::blocks
