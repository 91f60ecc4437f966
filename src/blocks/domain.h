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
  // Only when rules().single_goal().
  State goal() const { return goal_; }

  template <class F>
  void for_each_move(const State& s, F&& f) const {
    expand(s, [&](int from, int to, const State& t) { f(Move{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to)}, t); });
  }
  template <class F>
  void for_each_predecessor(const State& s, F&& f) const {
    expand(s, [&](int from, int to, const State& t) { f(Move{static_cast<std::uint8_t>(to), static_cast<std::uint8_t>(from)}, t); });
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

  std::size_t hash(const State& s) const {
    std::uint64_t h = s.w[0];
    for (int i = 1; i < W; ++i) h = bits::mix64(h) ^ s.w[static_cast<std::size_t>(i)];
    return static_cast<std::size_t>(bits::mix64(h));
  }

  int field(const State& s, int i) const {
    const int bits = r_->bits(), per = r_->per_word();
    return static_cast<int>((s.w[static_cast<std::size_t>(i / per)] >> ((i % per) * bits)) & ((std::uint64_t{1} << bits) - 1));
  }

 private:
  State pack(const std::array<std::uint8_t, kMaxSlots>& a) const {
    State s;
    const int bits = r_->bits(), per = r_->per_word();
    for (int i = 0; i < r_->slots(); ++i)
      s.w[static_cast<std::size_t>(i / per)] |= std::uint64_t{a[static_cast<std::size_t>(i)]} << ((i % per) * bits);
    return s;
  }

  // f(from_anchor, to_anchor, next_state) for every move.
  template <class F>
  void expand(const State& s, F&& f) const {
    const Rules& r = *r_;
    const int n = r.slots(), bits = r.bits(), per = r.per_word();
    const std::uint64_t fmask = (std::uint64_t{1} << bits) - 1;
    std::array<std::uint8_t, kMaxSlots> a;
    std::uint64_t occ = 0;
    for (int i = 0; i < n; ++i) {
      a[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(field(s, i));
      occ |= r.cover(r.slot_kind(i), a[static_cast<std::size_t>(i)]);
    }
    const std::uint64_t open = r.open();
    for (int i = 0; i < n; ++i) {
      const auto& grp = r.groups()[static_cast<std::size_t>(r.slot_group(i))];
      const int from = a[static_cast<std::size_t>(i)];
      const std::uint64_t free = open & ~(occ ^ r.cover(grp.kind, from));
      for (std::uint64_t d = r.destinations(grp.kind, from, free); d; d &= d - 1) {
        const int to = std::countr_zero(d);
        State t = s;
        if (grp.count == 1) {
          const int sh = (i % per) * bits;
          t.w[static_cast<std::size_t>(i / per)] ^= (static_cast<std::uint64_t>(from ^ to) & fmask) << sh;
        } else {
          // Re-sort the group with `to` in place of `from`, then rewrite its fields.
          std::array<std::uint8_t, kMaxSlots> g;
          int m = 0;
          for (int j = grp.first; j < grp.first + grp.count; ++j)
            if (j != i) g[static_cast<std::size_t>(m++)] = a[static_cast<std::size_t>(j)];
          int pos = m;
          while (pos > 0 && g[static_cast<std::size_t>(pos - 1)] > to) {
            g[static_cast<std::size_t>(pos)] = g[static_cast<std::size_t>(pos - 1)];
            --pos;
          }
          g[static_cast<std::size_t>(pos)] = static_cast<std::uint8_t>(to);
          for (int j = 0; j < grp.count; ++j) {
            const int slot = grp.first + j;
            const int sh = (slot % per) * bits;
            auto& word = t.w[static_cast<std::size_t>(slot / per)];
            word = (word & ~(fmask << sh)) | (std::uint64_t{g[static_cast<std::size_t>(j)]} << sh);
          }
        }
        f(from, to, t);
      }
    }
  }

  std::shared_ptr<const Rules> r_;
  State goal_{};
};

}  // namespace tansaku::blocks
