// A minimal ranking of the positions reachable from a reference position (a superset only
// where the invariants found here do not capture the group): the positions of each set
// split into orbits under the moves; each orbit contributes a permutation coordinate (its
// pieces: a permutation, one parity class of it, or a multiset arrangement when pieces are
// identical) and an orientation coordinate (all digits, or all but one when every move keeps
// the orbit's orientation sum). Parities of orbits that the moves tie together (over GF(2))
// are implied by the independent ones. Small coordinates the moves tie together otherwise
// (e.g. the skewb's orientation sums and the 3-cycles of its corner orbits, all mod 3) are
// found by a search over their combinations and merged into one coordinate that numbers
// only the combinations reachable together. A rank is the mixed-radix number of the
// coordinates; move tables per coordinate give a neighbour's rank in a few lookups
// (explore's hot loop, pattern databases, bidirectional search). The tables are built
// within a budget; a coordinate without one (a merged group included: from its members'
// small tables and a popcount in the bitset of reachable combinations) is stepped piece by
// piece, which a search of a few nodes prefers to building megabytes of tables.
#pragma once
#include <cstdint>
#include <algorithm>
#include <bit>
#include <functional>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "perm/definition.h"
#include "perm/generators.h"
#include "tansaku/core/deadline.h"
#include "tansaku/core/fast_div.h"
#include "tansaku/core/ranking.h"

namespace tansaku::perm {

// A set of combination numbers below `size` (at most 2^32): a bit each, and each member's
// index in increasing order (the number of members before it) from a popcount.
struct Combinations {
  std::vector<std::uint64_t> bits;
  std::vector<std::uint32_t> before;  // members in the words before each word
  std::uint64_t count = 0;
  explicit Combinations(std::uint64_t size = 0) : bits((size + 63) / 64, 0) {}
  bool has(std::uint64_t x) const { return bits[x >> 6] >> (x & 63) & 1; }
  bool insert(std::uint64_t x) {  // true when x is new
    std::uint64_t& w = bits[x >> 6];
    const std::uint64_t b = std::uint64_t{1} << (x & 63);
    if (w & b) return false;
    w |= b;
    ++count;
    return true;
  }
  void index() {  // after the last insert
    before.resize(bits.size());
    std::uint32_t n = 0;
    for (std::size_t i = 0; i < bits.size(); ++i) before[i] = n, n += static_cast<std::uint32_t>(std::popcount(bits[i]));
  }
  // x's place among the members in increasing order (index() done); ~0u when absent.
  std::uint32_t index_of(std::uint64_t x) const {
    const std::uint64_t w = bits[x >> 6], b = std::uint64_t{1} << (x & 63);
    if (!(w & b)) return ~0u;
    return before[x >> 6] + static_cast<std::uint32_t>(std::popcount(w & (b - 1)));
  }
  // The member of index i (index() done; i < count).
  std::uint64_t select(std::uint64_t i) const {
    const auto w = static_cast<std::size_t>(std::upper_bound(before.begin(), before.end(), i) - before.begin() - 1);
    std::uint64_t word = bits[w];
    for (std::uint64_t skip = i - before[w]; skip; --skip) word &= word - 1;
    return w * 64 + static_cast<std::uint64_t>(std::countr_zero(word));
  }
  template <class F>
  void for_each(F&& f) const {  // in increasing order
    for (std::size_t i = 0; i < bits.size(); ++i)
      for (std::uint64_t w = bits[i]; w; w &= w - 1) f(i * 64 + static_cast<std::uint64_t>(std::countr_zero(w)));
  }
  std::uint64_t bytes() const { return bits.size() * 8 + before.size() * 4; }
};

class Space {
 public:
  static constexpr int kMaxCoords = 64;
  static constexpr int kMaxMoves = 1024;  // for the batch path (more: one rank at a time)
  // Throws InputError when the ranked space exceeds 64 bits. Move tables are built for the
  // coordinates that fit `table_bytes` (the others are stepped by unrank / apply / rank).
  // `deadline` (may be null) stops the construction (LimitError): the orbit of the group
  // coordinates and the move tables take seconds on large puzzles.
  Space(const Definition& d, const MoveSet& ms, const Position& ref, std::uint64_t table_bytes, unsigned threads = 1,
        const Deadline* deadline = nullptr);

  std::uint64_t size() const { return size_; }
  int moves() const { return nm_; }
  const Position& ref() const { return ref_; }
  std::uint64_t table_bytes() const { return table_bytes_; }
  std::uint64_t largest_coordinate() const {
    std::uint64_t m = 1;
    for (const auto& c : coords_) m = std::max(m, c.size);
    return m;
  }
  // Same multisets per orbit, fixed positions, parity and orientation-sum classes as ref.
  bool contains(const Position& p) const;
  std::uint64_t rank(const Position& p) const;  // p must satisfy contains(p)
  Position unrank(std::uint64_t r) const;
  // One line per coordinate: what the ranking is made of.
  std::vector<std::string> describe() const;

  // f(move index, neighbour rank) for each move of the MoveSet, in order.
  template <class F>
  void for_each_move_rank(std::uint64_t r, F&& f) const {
    std::uint64_t c[kMaxCoords];
    std::uint8_t pin[kMaxCoords];
    digits(r, c, pin);
    if (all_tabled_) {
      const std::uint32_t* row[kMaxCoords];
      const std::size_t k = coords_.size();
      for (std::size_t j = 0; j < k; ++j) {
        const Coord& co = coords_[j];
        const std::uint64_t idx = co.two_rows ? c[j] * 2 + pin[j] : c[j];
        row[j] = co.table.data() + idx * static_cast<std::uint64_t>(nm_);
      }
      if (k == 2) {  // the common case (permutation x orientation) without the inner loop
        const std::uint64_t w0 = coords_[0].weight;
        for (int m = 0; m < nm_; ++m) f(m, std::uint64_t{row[0][m]} * w0 + row[1][m]);
        return;
      }
      for (int m = 0; m < nm_; ++m) {
        std::uint64_t s = 0;
        for (std::size_t j = 0; j < k; ++j) s += std::uint64_t{row[j][m]} * coords_[j].weight;
        f(m, s);
      }
    } else {
      slow_neighbors(c, pin, [&](int m, std::uint64_t s) { f(m, s); });
    }
  }
  template <class F>
  void for_each_neighbor_rank(std::uint64_t r, F&& f) const {
    for_each_move_rank(r, [&](int, std::uint64_t s) { f(s); });
  }
  // Batch paths over n <= 64 ranks r[0..n) (ascending; search/explore.h's
  // BatchRankedDomain). Ranks that differ only in the last coordinate (a block of its
  // size) share the other coordinates' part of each neighbour, computed once per block;
  // neighbours are given move by move, each move's falling in one range of ranks of the
  // last coordinate's size (touch(lo, hi) announces it when it is at most 8192 ranks).
  // f, touch are taken by value (their state stays in registers in the loops).
  // f(neighbour rank) -> bool for every move of every rank: {calls, how many were true}.
  template <class F, class P>
  std::pair<std::uint64_t, std::uint64_t> for_each_neighbor_rank_batch(const std::uint64_t* r, std::size_t n, F f,
                                                                       P touch) const {
    std::uint64_t calls = 0, trues = 0;
    if (!blocks_) {
      for (std::size_t i = 0; i < n; ++i) for_each_neighbor_rank(r[i], [&](std::uint64_t t) { ++calls, trues += f(t); });
      return {calls, trues};
    }
    std::uint64_t base[kMaxMoves];
    for (std::size_t i = 0; i < n;) {
      const Block b = block(r[i], base, touch);
      std::size_t e = i;
      while (e < n && r[e] < b.end) ++e;
      for (int m = 0; m < nm_; ++m) {
        const std::uint64_t bm = base[m];
        const std::uint32_t* tm = b.table + static_cast<std::uint64_t>(m) * b.move_stride;
        for (std::size_t q = i; q < e; ++q) trues += f(bm + tm[(r[q] - b.start) * b.rows]);
      }
      calls += (e - i) * static_cast<std::uint64_t>(nm_);
      i = e;
    }
    return {calls, trues};
  }
  // pred(t) for the neighbours t of each r[i] in move order up to the first true:
  // {calls, bit i set iff r[i] has such a neighbour}.
  template <class F, class P>
  std::pair<std::uint64_t, std::uint64_t> any_neighbor_rank_batch(const std::uint64_t* r, std::size_t n, F pred,
                                                                  P touch) const {
    std::uint64_t found = 0, calls = 0;
    if (!blocks_) {
      for (std::size_t i = 0; i < n; ++i) {
        bool hit = false;
        for_each_neighbor_rank(r[i], [&](std::uint64_t t) {
          if (!hit) ++calls, hit = pred(t);
        });
        if (hit) found |= std::uint64_t{1} << i;
      }
      return {calls, found};
    }
    std::uint64_t base[kMaxMoves];
    for (std::size_t i = 0; i < n;) {
      const Block b = block(r[i], base, touch);
      std::size_t e = i;
      while (e < n && r[e] < b.end) ++e;
      const std::uint64_t run = (e - i == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << (e - i)) - 1)) << i;
      for (int m = 0; m < nm_ && (found & run) != run; ++m) {
        const std::uint64_t bm = base[m];
        const std::uint32_t* tm = b.table + static_cast<std::uint64_t>(m) * b.move_stride;
        const std::uint64_t left = run & ~found;
        calls += static_cast<std::uint64_t>(std::popcount(left));
        for (std::uint64_t l = left; l; l &= l - 1) {
          const auto q = static_cast<std::size_t>(std::countr_zero(l));
          found |= std::uint64_t{pred(bm + tm[(r[q] - b.start) * b.rows])} << q;  // no branch on the table
        }
      }
      i = e;
    }
    return {calls, found};
  }

 private:
  struct Coord {
    enum class Kind { Perm, Multiset, Ori, Group } kind = Kind::Perm;
    int orbit = 0;
    std::vector<int> cells;        // flat positions; local index = index here
    int k = 0;
    std::uint64_t size = 1, weight = 1;
    std::vector<std::uint8_t> labels;        // Perm/Multiset: local label -> piece label
    std::vector<std::uint8_t> local_label;   // piece label -> local label (255: not in orbit)
    std::vector<int> counts;                 // Multiset: cells per local label
    bool half = false;                       // Perm: one parity class (rank / 2)
    int parity_const = 0;                    // half: parity = const ^ parities of deps
    std::vector<int> deps;                   // half: pivot coordinates the parity depends on
    bool pivot = false;                      // Perm, full: its parity decides others'
    bool two_rows = false;                   // table indexed by (value, parity before the move)
    int n = 1, ndigits = 0, target = 0;      // Ori: modulus, stored digits, orientation sum
    std::optional<PermutationRanker> pr;
    std::optional<MultisetRanker> mr;
    std::vector<std::vector<std::uint8_t>> lperm, ltwist;  // per move, local
    std::vector<std::uint32_t> table;        // moves tables (empty: not tabled)
    std::vector<std::uint8_t> parity_bits;   // pivot: parity of each value (when tabled)
    bool parity_needed = false;              // pivot: some half coordinate depends on it
    FastDiv32 div;                           // by size (ranks below 2^32)
    // Group: the merged coordinates, the reachable combinations of their values (member
    // values of group value g at members.size() * g), and which combinations (mixed radix
    // over the members, the last fastest) are reachable: a bit each, with the number of
    // reachable ones before each word, so a combination's group value is a popcount away
    // (a few hundred KB where a value per combination took megabytes to fill).
    // The member values of each group value are kept (`tuples`) with the move table, when
    // that fits the budget; otherwise they are found from `reach` (select) when needed.
    std::vector<Coord> members;
    std::vector<std::uint32_t> tuples;
    Combinations reach;
  };

  struct Block {
    std::uint64_t start, end;        // the ranks sharing r's other coordinates
    const std::uint32_t* table;      // the last coordinate's moves, move-major, + r's parity row
    std::uint64_t move_stride, rows;
  };
  // r's block, and in base[m] the other coordinates' part of r's neighbour by move m.
  template <class P>
  Block block(std::uint64_t r, std::uint64_t* base, P& touch) const {
    const std::size_t k = coords_.size();
    const Coord& last = coords_[k - 1];
    const std::uint64_t nm = static_cast<std::uint64_t>(nm_);
    std::uint64_t c[kMaxCoords];
    std::uint8_t pin[kMaxCoords];
    digits(r, c, pin);
    for (int m = 0; m < nm_; ++m) base[m] = 0;
    for (std::size_t j = 0; j + 1 < k; ++j) {
      const Coord& co = coords_[j];
      const std::uint32_t* row = co.table.data() + (co.two_rows ? c[j] * 2 + pin[j] : c[j]) * nm;
      for (int m = 0; m < nm_; ++m) base[m] += std::uint64_t{row[m]} * co.weight;
    }
    const std::uint64_t rows = last.two_rows ? 2 : 1;
    if (last.size <= 8192)
      for (int m = 0; m < nm_; ++m) touch(base[m], base[m] + last.size);
    return Block{r - c[k - 1], r - c[k - 1] + last.size, last_t_.data() + (last.two_rows ? pin[k - 1] : 0),
                 last.size * rows, rows};
  }
  // Coordinate values of rank r; pin: the parity each half coordinate is unranked with
  // (computed for the two_rows ones only unless all_pins).
  void digits(std::uint64_t r, std::uint64_t* c, std::uint8_t* pin, bool all_pins = false) const {
    const std::size_t k = coords_.size();
    if (small_) {
      auto q = static_cast<std::uint32_t>(r);
      for (std::size_t j = k; j-- > 0;) {
        const std::uint32_t d = coords_[j].div.div(q);
        c[j] = q - d * static_cast<std::uint32_t>(coords_[j].size);
        q = d;
      }
    } else {
      for (std::size_t j = k; j-- > 0;) c[j] = r % coords_[j].size, r /= coords_[j].size;
    }
    if (all_pins || pins_) parity_pins(c, pin);
  }
  void parity_pins(const std::uint64_t* c, std::uint8_t* pin) const;
  // Merges small coordinates the moves tie together (see the top of the file).
  void group_coordinates(unsigned threads);
  // Reachable combinations of the members' values (their tables built), as mixed-radix
  // combination numbers.
  Combinations reachable_combinations(const std::vector<const Coord*>& members) const;
  std::uint64_t group_value(const Coord& co, const Position& p) const;
  // The members' values of group value v (mixed radix over them, the last fastest).
  void group_members(const Coord& co, std::uint64_t v, std::uint64_t* out) const;
  void build_group_table(Coord& co);
  // Each member's move table (columns `moves` only) times the member's weight in a
  // combination number (below 2^32): a neighbour's number is a sum of k loads.
  std::vector<std::vector<std::uint32_t>> weighted_tables(const std::vector<const Coord*>& members,
                                                          const std::vector<int>& moves) const;
  void write_group(const Coord& co, std::uint64_t v, Position& p) const;
  // Local arrays <-> values.
  void local_of(const Coord& co, std::uint64_t v, int parity, std::uint8_t* a) const;
  std::uint64_t value_of(const Coord& co, const std::uint8_t* a) const;
  void read_local(const Coord& co, const Position& p, std::uint8_t* a) const;
  void write_local(const Coord& co, const std::uint8_t* a, Position& p) const;
  void step_local(const Coord& co, int m, const std::uint8_t* a, std::uint8_t* b) const;
  int value_parity(const Coord& co, std::uint64_t v) const;
  void build_table(Coord& co, unsigned threads);
  void slow_neighbors(const std::uint64_t* c, const std::uint8_t* pin,
                      const std::function<void(int, std::uint64_t)>& f) const;

  const Definition* d_;
  const Deadline* deadline_ = nullptr;  // during construction only
  Position ref_;
  int nm_ = 0;
  std::vector<int> generators_;  // moves generating the group of all nm_ (reachable_combinations)
  std::vector<Coord> coords_;
  std::vector<int> fixed_cells_;  // cells kept as in ref (labels or orientations)
  std::uint64_t size_ = 1, table_bytes_ = 0;
  bool all_tabled_ = true;
  bool small_ = false;  // size_ <= 2^32: digits by FastDiv32
  bool pins_ = false;   // some coordinate has two_rows
  std::vector<std::uint32_t> last_t_;  // the last coordinate's move table, move-major (batch paths)
  bool blocks_ = false; // the batch path applies: all tabled, the last coordinate's parity read by none
};

}  // namespace tansaku::perm
