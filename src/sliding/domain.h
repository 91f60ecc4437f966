// The sliding-tile search domain, generic over the cell storage (4-bit nibbles in one word
// for boards of <= 16 cells and labels, bytes otherwise). A move is the cell the tile came
// from (the blank's new cell). The heuristic is Manhattan distance (to the nearest goal cell
// of the same label when pieces are identical) plus linear conflicts for distinct tiles,
// updated incrementally. Ranked for explore: blank cell x one parity class of the tile
// permutation (distinct tiles) or a multiset ranking (identical pieces).
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <vector>

#include "sliding/board.h"
#include "tansaku/core/bits.h"
#include "tansaku/core/error.h"
#include "tansaku/core/fast_div.h"
#include "tansaku/core/ranking.h"

namespace tansaku::sliding {

struct Nibbles {
  static constexpr int kMaxCells = 16, kMaxLabels = 16;
  std::uint64_t v = 0;
  int get(int i) const { return static_cast<int>((v >> (4 * i)) & 15u); }
  void set(int i, int x) { v = (v & ~(std::uint64_t{15} << (4 * i))) | (std::uint64_t(x) << (4 * i)); }
  bool operator==(const Nibbles&) const = default;
  std::size_t hash() const {
    std::uint64_t x = v * 0x9E3779B97F4A7C15ull;
    return static_cast<std::size_t>(x ^ (x >> 29));
  }
};

struct Bytes {
  static constexpr int kMaxCells = 64, kMaxLabels = 64;
  std::array<std::uint8_t, 64> c{};
  int get(int i) const { return c[i]; }
  void set(int i, int x) { c[i] = static_cast<std::uint8_t>(x); }
  bool operator==(const Bytes&) const = default;
  std::size_t hash() const {
    std::uint64_t h = 1469598103934665603ull, w;
    for (int i = 0; i < 64; i += 8) {
      std::memcpy(&w, &c[i], 8);
      h = (h ^ w) * 0x100000001B3ull;
      h ^= h >> 31;
    }
    return static_cast<std::size_t>(h);
  }
};

template <class C>
struct State {
  C cells;
  std::uint8_t blank = 0;
  std::int16_t h = 0;
  bool operator==(const State& o) const { return cells == o.cells; }
};

template <class C>
class Domain {
 public:
  using State = sliding::State<C>;
  using Move = std::uint8_t;  // cell the tile came from

  // `heuristic`: add linear conflicts (distinct tiles only). `source` fixes the parity
  // class used for ranking (default: the goal).
  Domain(const Instance& inst, bool linear_conflict) : geo_(inst.geo), labels_(inst.labels) {
    if (geo_.n > C::kMaxCells || static_cast<int>(labels_.names.size()) > C::kMaxLabels)
      throw InputError("board too large for this cell storage");
    adj_.assign(geo_.n, {});
    row_of_.assign(geo_.n, 0);
    col_of_.assign(geo_.n, 0);
    for (int c = 0; c < geo_.n; ++c) {
      row_of_[c] = static_cast<std::uint8_t>(geo_.row(c));
      col_of_[c] = static_cast<std::uint8_t>(geo_.col(c));
      for (int nb : geo_.adj[c]) adj_[c][adj_[c][4]++] = static_cast<std::uint8_t>(nb);
    }
    dist_.assign(labels_.names.size() * geo_.n, 0);
    for (std::size_t L = 1; L < labels_.names.size(); ++L)
      for (int c = 0; c < geo_.n; ++c) {
        int best = 1 << 20;
        for (int g = 0; g < geo_.n; ++g)
          if (inst.goal[g] == L)
            best = std::min(best, std::abs(geo_.row(g) - geo_.row(c)) + std::abs(geo_.col(g) - geo_.col(c)));
        dist_[L * geo_.n + c] = static_cast<std::int16_t>(best);
      }
    lc_ = linear_conflict && labels_.distinct();
    if (lc_) {
      goal_cell_.assign(labels_.names.size(), 0);
      for (int g = 0; g < geo_.n; ++g) goal_cell_[inst.goal[g]] = g;
      build_line_tables();
    }
    goal_ = make(inst.goal);
    start_parity_ = parity_invariant(geo_, inst.goal);
    setup_ranking();
  }

  const Geometry& geometry() const { return geo_; }
  const Labels& labels() const { return labels_; }
  bool uses_linear_conflict() const { return lc_; }

  State make(const Cells& cells) const {
    State s;
    for (int i = 0; i < geo_.n; ++i) {
      s.cells.set(i, cells[i]);
      if (cells[i] == 0) s.blank = static_cast<std::uint8_t>(i);
    }
    s.h = static_cast<std::int16_t>(full_h(s.cells));
    return s;
  }
  Cells cells_of(const State& s) const {
    Cells c(geo_.n);
    for (int i = 0; i < geo_.n; ++i) c[i] = static_cast<std::uint8_t>(s.cells.get(i));
    return c;
  }

  bool is_goal(const State& s) const { return s.cells == goal_.cells; }
  State goal() const { return goal_; }
  int h(const State& s) const { return s.h; }
  std::size_t hash(const State& s) const { return s.cells.hash(); }

  template <class F>
  void for_each_move(const State& s, F&& f) const {
    const auto& a = adj_[s.blank];
    for (int k = 0; k < a[4]; ++k) f(static_cast<Move>(a[k]), step(s, a[k]));
  }
  // The move from a predecessor p to s takes the tile from s.blank into p's blank.
  template <class F>
  void for_each_predecessor(const State& s, F&& f) const {
    for (int nb : geo_.adj[s.blank]) f(static_cast<Move>(s.blank), step(s, nb));
  }

  State step(const State& s, int from) const {
    State t = s;
    const int tile = s.cells.get(from), to = s.blank;
    t.cells.set(to, tile);
    t.cells.set(from, 0);
    t.blank = static_cast<std::uint8_t>(from);
    int dh = dist_[tile * geo_.n + to] - dist_[tile * geo_.n + from];
    if (lc_) {
      const int rf = row_of_[from], rt = row_of_[to];
      if (rf != rt) {  // vertical: rows from/to change
        dh += row_lc(t.cells, rf) + row_lc(t.cells, rt) - row_lc(s.cells, rf) - row_lc(s.cells, rt);
      } else {
        const int cf = col_of_[from], ct = col_of_[to];
        dh += col_lc(t.cells, cf) + col_lc(t.cells, ct) - col_lc(s.cells, cf) - col_lc(s.cells, ct);
      }
    }
    t.h = static_cast<std::int16_t>(s.h + dh);
    return t;
  }

  int full_h(const C& cells) const {
    int h = 0;
    for (int i = 0; i < geo_.n; ++i) {
      int L = cells.get(i);
      if (L) h += dist_[L * geo_.n + i];
    }
    if (lc_) {
      for (int r = 0; r < geo_.rows; ++r) h += row_lc(cells, r);
      for (int c = 0; c < geo_.cols; ++c) h += col_lc(cells, c);
    }
    return h;
  }

  // ---- ranking (explore) ----
  std::uint64_t size() const { return size_; }
  // Fix the permutation parity class to that of `cells` (distinct labels).
  void set_source(const Cells& cells) {
    if (labels_.distinct()) {
      start_parity_ = parity_invariant(geo_, cells);
      setup_ranking();
    }
  }
  std::uint64_t rank(const State& s) const {
    if (perm_) {
      std::uint8_t seq[64];
      int k = 0;
      for (int i = 0; i < geo_.n; ++i)
        if (i != s.blank) seq[k++] = static_cast<std::uint8_t>(s.cells.get(i) - 1);
      return s.blank * half_ + perm_->rank_half(seq);
    }
    // Identical pieces: blank cell x multiset rank of the tile sequence (cells in reading
    // order without the blank), so horizontal moves keep the sequence rank.
    std::uint64_t masks[C::kMaxLabels] = {};
    for (int i = 0; i < geo_.n; ++i)
      if (i != s.blank) masks[s.cells.get(i) - 1] |= std::uint64_t{1} << (i < s.blank ? i : i - 1);
    return s.blank * half_ + multi_->rank_masks(masks);
  }
  State unrank(std::uint64_t r) const {
    State s;
    if (perm_) {
      const int blank = static_cast<int>(r / half_);
      std::uint8_t seq[64];
      perm_->unrank_half(r % half_, parity_at_[blank], seq);
      int k = 0;
      for (int i = 0; i < geo_.n; ++i) s.cells.set(i, i == blank ? 0 : seq[k++] + 1);
      s.blank = static_cast<std::uint8_t>(blank);
    } else {
      const int blank = static_cast<int>(r / half_);
      std::uint64_t masks[C::kMaxLabels];
      multi_->unrank_masks(r % half_, masks);
      const std::uint64_t tiles = all_cells_ & ~(std::uint64_t{1} << blank);
      for (int k = 0; k < multi_->labels(); ++k)
        for (std::uint64_t m = bits::deposit(masks[k], tiles); m; m &= m - 1) s.cells.set(std::countr_zero(m), k + 1);
      s.blank = static_cast<std::uint8_t>(blank);
    }
    return s;
  }
  // Fast paths for explore: no heuristic, and horizontal moves keep the tile sequence rank.
  // any_neighbor_rank stops at the first neighbour pred accepts (explore's backward layers).
  template <class F>
  void for_each_neighbor_rank(std::uint64_t r, F&& f) const {
    visit_neighbor_ranks(r, [&f](std::uint64_t t) {
      f(t);
      return false;
    });
  }
  template <class P>
  bool any_neighbor_rank(std::uint64_t r, P&& pred) const {
    return visit_neighbor_ranks(r, pred);
  }

 private:
  // Calls stop(t) for each neighbour's rank t until one returns true; whether one did.
  template <class F>
  bool visit_neighbor_ranks(std::uint64_t r, F&& stop) const {
    if (perm_) {
      const auto [blank, q] = split_rank(r);
      std::uint8_t seq[64];
      perm_->unrank_half(q, parity_at_[blank], seq);
      const auto& a = adj_[blank];
      for (int j = 0; j < a[4]; ++j) {
        const int nb = a[j];
        if (row_of_[nb] == row_of_[blank]) {
          if (stop(nb * half_ + q)) return true;
          continue;
        }
        // Vertical: the tile at nb moves to blank; in the sequence (cells without the blank)
        // it jumps over the cells strictly between the two.
        std::uint8_t t[64];
        std::memcpy(t, seq, geo_.n - 1);
        const int a = std::min(nb, blank), b = std::max(nb, blank);
        if (nb > blank) {  // tile at sequence index b-1 moves to index a
          std::uint8_t tile = t[b - 1];
          std::memmove(t + a + 1, t + a, b - 1 - a);
          t[a] = tile;
        } else {  // tile at index a moves to index b-1
          std::uint8_t tile = t[a];
          std::memmove(t + a, t + a + 1, b - 1 - a);
          t[b - 1] = tile;
        }
        if (stop(nb * half_ + perm_->rank_half(t))) return true;
      }
    } else {
      const auto [blank, q] = split_rank(r);
      const int K = multi_->labels();
      std::uint64_t masks[C::kMaxLabels], moved[C::kMaxLabels];
      multi_->unrank_masks(q, masks);
      const auto& adj = adj_[blank];
      for (int j = 0; j < adj[4]; ++j) {
        const int nb = adj[j];
        if (row_of_[nb] == row_of_[blank]) {
          if (stop(nb * half_ + q)) return true;
          continue;
        }
        // Vertical: in the tile sequence, the moved tile jumps over the tiles between nb
        // and the blank: rotate the segment [a, b] of every label's sequence mask.
        const int a = std::min(nb, blank), b = std::max(nb, blank) - 1;
        const std::uint64_t seg = ((std::uint64_t{2} << b) - 1) & ~((std::uint64_t{1} << a) - 1);
        if (nb > blank) {  // element b moves to a, [a, b-1] shift up
          for (int k = 0; k < K; ++k) {
            const std::uint64_t m = masks[k];
            moved[k] = (m & ~seg) | (((m & seg) << 1) & seg) | (((m >> b) & 1) << a);
          }
        } else {  // element a moves to b, [a+1, b] shift down
          for (int k = 0; k < K; ++k) {
            const std::uint64_t m = masks[k];
            moved[k] = (m & ~seg) | (((m & seg) >> 1) & seg) | (((m >> a) & 1) << b);
          }
        }
        if (stop(nb * half_ + multi_->rank_masks(moved))) return true;
      }
    }
    return false;
  }

 private:
  // A rank as (blank cell, rank of the tiles among the other cells).
  std::pair<int, std::uint64_t> split_rank(std::uint64_t r) const {
    const std::uint64_t b = size_ < (std::uint64_t{1} << 32) ? half_div_.div(static_cast<std::uint32_t>(r)) : r / half_;
    return {static_cast<int>(b), r - b * half_};
  }
  void setup_ranking() {
    all_cells_ = (std::uint64_t{2} << (geo_.n - 1)) - 1;
    perm_.reset();
    multi_.reset();
    if (labels_.distinct()) {
      if (geo_.n - 1 > 20) {
        size_ = 0;  // not rankable
        return;
      }
      perm_.emplace(geo_.n - 1);
      half_ = geo_.n - 1 >= 2 ? perm_->half_size() : 1;
      parity_at_.assign(geo_.n, 0);
      for (int p = 0; p < geo_.n; ++p) parity_at_[p] = start_parity_ ^ ((geo_.cols % 2 == 0) ? (geo_.row(p) & 1) : 0);
      size_ = half_ * static_cast<std::uint64_t>(geo_.n);
    } else {
      std::vector<int> counts(labels_.counts.begin() + 1, labels_.counts.end());
      try {
        multi_.emplace(counts);
        half_ = multi_->size();
        size_ = half_ > ~std::uint64_t{0} / geo_.n ? 0 : half_ * static_cast<std::uint64_t>(geo_.n);
      } catch (const InputError&) {
        size_ = 0;
      }
    }
    if (size_ && size_ < (std::uint64_t{1} << 32)) half_div_ = FastDiv32(static_cast<std::uint32_t>(half_));
  }

  // Linear conflict of one line: 2 x (tiles whose goal lies in the line) - LIS of their goal order.
  int line_lc(const int* goals, int k) const {
    if (k < 2) return 0;
    int lis[64], best = 0;
    for (int i = 0; i < k; ++i) {
      lis[i] = 1;
      for (int j = 0; j < i; ++j)
        if (goals[j] < goals[i]) lis[i] = std::max(lis[i], lis[j] + 1);
      best = std::max(best, lis[i]);
    }
    return 2 * (k - best);
  }
  // With nibble cells and lines of <= 4 cells, a line's conflict is one table lookup keyed
  // by the line's nibbles (rows: a shift; columns: a bit gather).
  // A key holding a nibble beyond the puzzle's labels is no line of a real board: its entry
  // stays 0 and is never read.
  static constexpr bool kTables = std::is_same_v<C, Nibbles>;
  bool labels_in_range(std::uint64_t key, int cells) const {
    for (int i = 0; i < cells; ++i, key >>= 4)
      if ((key & 15) >= labels_.names.size()) return false;
    return true;
  }
  // The line-conflict tables depend only on the board and the goal; a solve builds its
  // Domain anew, so the last few sets are kept process-wide (at most kCachedTables, 512 KiB
  // each on a 4x4) and a repeated goal (every default solve) costs a lookup.
  struct LineTables {
    std::vector<std::vector<std::uint8_t>> row, col;
    std::vector<std::uint64_t> col_mask;
  };
  static constexpr std::size_t kCachedTables = 8;
  void build_line_tables() {
    if constexpr (kTables) {
      std::vector<int> key = {geo_.rows, geo_.cols};
      key.insert(key.end(), goal_cell_.begin(), goal_cell_.end());
      static std::mutex mutex;
      static std::vector<std::pair<std::vector<int>, std::shared_ptr<const LineTables>>> cache;
      {
        std::lock_guard lock(mutex);
        for (const auto& [k, t] : cache)
          if (k == key) {
            lines_ = t;
            return;
          }
      }
      auto t = std::make_shared<LineTables>();
      if (geo_.cols <= 4) {
        for (int r = 0; r < geo_.rows; ++r) {
          std::vector<std::uint8_t> row(std::size_t{1} << (4 * geo_.cols));
          for (std::size_t k = 0; k < row.size(); ++k) {
            if (!labels_in_range(k, geo_.cols)) continue;
            C cells;
            cells.v = std::uint64_t(k) << (4 * geo_.cols * r);
            row[k] = static_cast<std::uint8_t>(row_lc_direct(cells, r));
          }
          t->row.push_back(std::move(row));
        }
      }
      if (geo_.rows <= 4) {
        for (int c = 0; c < geo_.cols; ++c) {
          std::uint64_t mask = 0;
          for (int r = 0; r < geo_.rows; ++r) mask |= std::uint64_t{15} << (4 * (r * geo_.cols + c));
          t->col_mask.push_back(mask);
          std::vector<std::uint8_t> col(std::size_t{1} << (4 * geo_.rows));
          for (std::size_t k = 0; k < col.size(); ++k) {
            if (!labels_in_range(k, geo_.rows)) continue;
            C cells;
            cells.v = bits::deposit(k, mask);
            col[k] = static_cast<std::uint8_t>(col_lc_direct(cells, c));
          }
          t->col.push_back(std::move(col));
        }
      }
      lines_ = t;
      std::lock_guard lock(mutex);
      if (cache.size() == kCachedTables) cache.erase(cache.begin());
      cache.emplace_back(std::move(key), std::move(t));
    }
  }
  int row_lc(const C& cells, int r) const {
    if constexpr (kTables) {
      if (lines_ && !lines_->row.empty())
        return lines_->row[r][(cells.v >> (4 * geo_.cols * r)) & ((std::uint64_t{1} << (4 * geo_.cols)) - 1)];
    }
    return row_lc_direct(cells, r);
  }
  int col_lc(const C& cells, int c) const {
    if constexpr (kTables) {
      if (lines_ && !lines_->col.empty()) return lines_->col[c][bits::extract(cells.v, lines_->col_mask[c])];
    }
    return col_lc_direct(cells, c);
  }
  int row_lc_direct(const C& cells, int r) const {
    int goals[64], k = 0;
    for (int c = 0; c < geo_.cols; ++c) {
      int L = cells.get(r * geo_.cols + c);
      if (L && geo_.row(goal_cell_[L]) == r) goals[k++] = geo_.col(goal_cell_[L]);
    }
    return line_lc(goals, k);
  }
  int col_lc_direct(const C& cells, int c) const {
    int goals[64], k = 0;
    for (int r = 0; r < geo_.rows; ++r) {
      int L = cells.get(r * geo_.cols + c);
      if (L && geo_.col(goal_cell_[L]) == c) goals[k++] = geo_.row(goal_cell_[L]);
    }
    return line_lc(goals, k);
  }

  Geometry geo_;
  Labels labels_;
  State goal_;
  std::vector<std::int16_t> dist_;
  std::vector<std::array<std::uint8_t, 5>> adj_;  // up to 4 neighbours, count in [4]
  std::vector<std::uint8_t> row_of_, col_of_;
  bool lc_ = false;
  std::vector<int> goal_cell_;
  std::shared_ptr<const LineTables> lines_;  // build_line_tables (kTables only)
  int start_parity_ = 0;
  std::optional<PermutationRanker> perm_;
  std::optional<MultisetRanker> multi_;
  std::vector<int> parity_at_;
  std::uint64_t all_cells_ = 0;
  std::uint64_t half_ = 1, size_ = 0;  // half_: states per blank cell
  FastDiv32 half_div_;                  // r / half_ when size_ < 2^32 (every board up to 3x4)
};

}  // namespace tansaku::sliding
