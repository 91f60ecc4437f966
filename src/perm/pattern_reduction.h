// Pattern tables reduced by symmetry. A symmetry S of the puzzle (symmetry.h) that maps a
// pattern onto itself (each class of pieces onto a class, each kept piece onto a kept one,
// orientations consistently) maps every projected position to one at the same distance, so
// one entry per class {S x S^-1} suffices: Kociemba's and Reid's optimal cube solvers
// store the twist x flip x UD-slice tables so, reduced by the 16 symmetries keeping the
// U-D axis. Here, generically: the pattern splits into its largest set (the big part: a
// class table maps each of its values to a class and to a symmetry taking it to the class's
// representative) and the other sets (the rest: its values are conjugated by that symmetry
// through a small table). A table cell is (class, conjugated rest). A search keeps a
// position as (class, symmetry, rest value) and steps it through a move table over classes
// (a sym-move table, as Kociemba's solvers do): the children of a position by every move
// are one row of it, a cache line or two, where stepping the big part's raw value would
// read the class table once per child (a cache miss each). The class table is built once
// per process (a pass over the big part's values) or read from the table file, the
// sym-move table likewise.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "perm/definition.h"
#include "perm/generators.h"
#include "perm/space.h"
#include "tansaku/core/packed_values.h"
#include "tansaku/core/zeroed_pages.h"
#include "tansaku/search/limits.h"

namespace tansaku::perm {

// A class table held elsewhere (a table file's mapping): its words and their owner.
struct ClassTable {
  const std::uint32_t* words = nullptr;
  std::uint64_t size = 0;
  std::shared_ptr<const void> owner;
};

// A sym-move table held elsewhere (a table file's mapping): `count` entries of `bits` each,
// packed (core/packed_values.h), in `bytes`; or, with bits 0, 32-bit words (files written
// before the packing, packed when adopted).
struct SymMoveTable {
  const void* data = nullptr;
  std::uint64_t count = 0;
  unsigned bits = 0;
  std::uint64_t bytes = 0;
  std::shared_ptr<const void> owner;
};

// What a file of 2-bit cells keeps in place of the class table: per class its
// representative (the least big value of its orbit, ascending) and whether symmetries fix
// it (1) or not (0).
struct ClassReps {
  std::span<const std::uint32_t> reps;
  std::span<const std::uint8_t> fixed;
};

// What a solve may hold of a reduced pattern's table (its cells at `bits` each, and the class
// and sym-move tables): a reduction whose tables would exceed `bytes` even at their least (as
// many classes as values over symmetries) is refused, MemoryRefused, before its class table
// is built. 0: no cap. `precheck`, when set, is called with those least figures (what a
// solve holds, and the cells) before the class table is built, to refuse what cannot fit
// elsewhere (`pdb build`: the disk) by throwing.
struct SolveCap {
  std::uint64_t bytes = 0;
  int bits = 2;
  std::function<void(std::uint64_t least_bytes, std::uint64_t least_cells)> precheck;
};

class PatternReduction {
 public:
  // pd, pms: the projected puzzle (pattern_table.h; positions as in d, labels projected by
  // lab_map[position * 256 + label]); `group`: the symmetries (identity first, as
  // symmetry_group gives). Keeps those that map the pattern onto itself; InputError when
  // none but the identity does, or when the parts cannot be tabled (big part above 2^32
  // values, rest part above 2^24).
  // `given`: the class table of an earlier build (checked; InputError when it does not
  // fit); or `reps`, its classes without it (a solve over 2-bit cells: no class table, as
  // after drop_class_table; `given_moves` then required); else it is built (lim: progress,
  // deadline; `cap`: refused first when a solve could not hold the table).
  PatternReduction(const Definition& d, const std::vector<std::uint8_t>& lab_map, const Definition& pd,
                   const MoveSet& pms, const std::vector<Perm>& group, const search::Limits& lim,
                   const ClassTable* given = nullptr, const SymMoveTable* given_moves = nullptr, SolveCap cap = {},
                   const ClassReps* reps = nullptr);
  PatternReduction(const PatternReduction&) = delete;
  PatternReduction& operator=(const PatternReduction&) = delete;

  std::uint64_t cells() const { return classes_ * nr_; }
  std::uint64_t classes() const { return classes_; }
  std::size_t symmetries() const { return syms_.size(); }
  // Whether symmetry s (of the full puzzle) maps the pattern onto itself.
  bool preserved_by(const Perm& s) const;
  // What a solve holds of this pattern's table: its cells at `bits` each, and the class and
  // sym-move tables beside them (side_bytes; a build holds those too).
  // A solve over 2-bit cells holds no class table (drop_class_table); over 4-bit cells it
  // does (its lookups at inverses rank positions at every node).
  std::uint64_t solve_bytes(int bits) const { return solve_bytes_for(classes_, bits); }
  std::uint64_t side_bytes() const { return side_bytes_for(classes_); }
  // The class table and the sym-move table (for the table file; the class table's words are
  // null once dropped).
  ClassTable class_table() const { return ClassTable{cls_, nb_, {}}; }
  std::uint64_t big_values() const { return nb_; }
  // The classes without the class table (a file of 2-bit cells keeps them in its place): per
  // class its representative, and 1 where symmetries fix it.
  const std::vector<std::uint32_t>& representatives() const { return rep_; }
  std::vector<std::uint8_t> fixed() const {
    std::vector<std::uint8_t> f(stab_id_.size());
    for (std::size_t k = 0; k < f.size(); ++k) f[k] = stab_id_[k] != 0;
    return f;
  }
  // Lets the class table go (its 4 bytes a big value are the largest table beside the cells
  // but a search over 2-bit cells reads it only to rank its start): a big value's class is
  // then found by conjugating it by every kept symmetry, its least image being its class's
  // representative (rep_, ascending: a binary search). Equal states, a few microseconds slower.
  void drop_class_table() {
    cls_ = nullptr;
    cls_owner_.reset();
    std::vector<std::uint32_t>().swap(cls_store_);
  }
  // The sym-move table as held: packed entries of sym_move_bits() each.
  SymMoveTable sym_move_table() const {
    const std::uint64_t n = classes_ * static_cast<std::uint64_t>(nm_);
    return SymMoveTable{sym_moves_, n, move_bits_, packed_bytes(n, move_bits_), {}};
  }
  // Entry i of the sym-move table ([class * moves + move]).
  std::uint32_t sym_move(std::uint64_t i) const {
    return static_cast<std::uint32_t>(packed_get(sym_moves_, i, move_bits_));
  }

  // A search state: the big part's class, whether symmetries fix the class's
  // representative, a symmetry taking the big part to the representative, and the rest's
  // value as it is: class << 32 | fixed << 31 | symmetry << 24 | rest. Equal positions may
  // have states that differ in the symmetry (when symmetries fix the representative); their
  // cells are equal.
  // Of a projected position (pattern_table.h), which contains() must accept.
  std::uint64_t state(const Position& projected) const {
    return from_entry(entry_of(big_->rank(part_of(projected, pdb_))), rest_->rank(part_of(projected, pdr_)));
  }
  // state() in two steps, for a batch of lookups that fetches memory ahead: the parts'
  // values, the class table's entry of the big one fetched; then the state from them.
  void parts(const Position& projected, std::uint64_t& big, std::uint64_t& rest) const {
    big = big_->rank(part_of(projected, pdb_));
    rest = rest_->rank(part_of(projected, pdr_));
    if (cls_) __builtin_prefetch(cls_ + big, 0, 1);
  }
  std::uint64_t state_of_parts(std::uint64_t big, std::uint64_t rest) const { return from_entry(entry_of(big), rest); }
  bool contains(const Position& projected) const {
    return big_->contains(part_of(projected, pdb_)) && rest_->contains(part_of(projected, pdr_));
  }
  // The table cell of a state: its class, and the rest conjugated to the representative
  // (the least such rest when symmetries fix the representative, so that every state of
  // an orbit has one cell and the table is the quotient graph's distances).
  std::uint64_t cell(std::uint64_t state) const {
    const std::uint64_t k = state >> 32;
    std::uint32_t r = conj_[((state >> kSymShift) & kSymField) * nr_ + (state & kRestMask)];
    if (state & kFixed) r = canonical(k, r);
    return k * nr_ + r;
  }
  // The sym-move row of a state, fetched ahead (its children need it).
  void prefetch(std::uint64_t state) const {
    const std::uint64_t row = (state >> 32) * static_cast<std::uint64_t>(nm_);
    __builtin_prefetch(sym_moves_ + packed_first_byte(row, move_bits_), 0, 1);
    __builtin_prefetch(sym_moves_ + packed_end_byte(row + static_cast<std::uint64_t>(nm_), move_bits_) - 1, 0, 1);
  }
  // f(move, neighbour state) for every move, in order: the big part's class and symmetry
  // from the row of its class (the move conjugated by the state's symmetry: the
  // representative's neighbour), the symmetries composed; the rest by its move table.
  template <class F>
  void for_each_move_rank(std::uint64_t state, F&& f) const {
    const std::uint64_t row = (state >> 32) * static_cast<std::uint64_t>(nm_);
    const auto s = static_cast<std::size_t>((state >> kSymShift) & kSymField);
    const std::uint16_t* mc = move_conj_.data() + s * static_cast<std::size_t>(nm_);
    const std::uint8_t* after = compose_.data() + s;  // [t * symmetries + s]: t after s
    const std::size_t ns = syms_.size();
    const std::uint32_t* rm = rest_moves_.data() + (state & kRestMask) * static_cast<std::uint64_t>(nm_);
    for (int m = 0; m < nm_; ++m) {
      const std::uint32_t e = sym_move(row + mc[m]);
      const std::uint64_t t = e & sym_mask_;
      f(m, std::uint64_t{e >> (sym_bits_ + 1)} << 32 | ((e & (sym_mask_ + 1)) ? kFixed : 0) |
               std::uint64_t{after[t * ns]} << kSymShift | rm[m]);
    }
  }
  // The state of a cell: its class's representative (the identity taking it there) with
  // the cell's rest.
  std::uint64_t state_of_cell(std::uint64_t c) const {
    const std::uint64_t k = c / nr_;
    return k << 32 | (stab_id_[k] ? kFixed : 0) | (c - k * nr_);
  }
  // The least rest value that the symmetries fixing class k's representative give r.
  std::uint32_t canonical(std::uint64_t k, std::uint32_t r) const {
    std::uint64_t mask = stab_masks_[stab_id_[k]];
    std::uint32_t best = r;
    for (; mask; mask &= mask - 1) best = std::min(best, conj_[static_cast<std::uint64_t>(std::countr_zero(mask)) * nr_ + r]);
    return best;
  }

  // Explore over cells (search/explore.h's RankedDomain with batch paths): the cells of a
  // class share the big part, so a block of them looks up the class table once per move,
  // and each move's neighbours fall in one class's run of cells.
  class Cells {
   public:
    using State = std::uint64_t;
    using Move = int;
    explicit Cells(const PatternReduction& r, std::uint64_t goal_cell) : r_(&r), goal_(goal_cell) {}
    bool is_goal(State s) const { return s == goal_; }
    std::uint64_t size() const { return r_->cells(); }
    std::uint64_t rank(State s) const { return s; }
    State unrank(std::uint64_t c) const { return c; }
    bool symmetric() const { return r_->symmetric_; }
    template <class F>
    void for_each_move(State s, F&& f) const {
      r_->for_each_move_rank(r_->state_of_cell(s), [&](int m, std::uint64_t t) { f(m, r_->cell(t)); });
    }
    template <class F>
    void for_each_neighbor_rank(std::uint64_t c, F&& f) const {
      r_->for_each_move_rank(r_->state_of_cell(c), [&](int, std::uint64_t t) { f(r_->cell(t)); });
    }
    // Inlined into the build's layer loop (when GCC left it out of line, a build took 1.07-1.1
    // times as long).
    template <class F, class P>
    [[gnu::always_inline]] std::pair<std::uint64_t, std::uint64_t> for_each_neighbor_rank_batch(const std::uint64_t* c,
                                                                                                std::size_t n, F f,
                                                                                                P touch) const {
      std::uint64_t calls = 0, trues = 0;
      const int nm = r_->nm_;
      for_each_block(c, n, touch, [&](const Block& b, std::size_t i, std::size_t e) {
        for (int m = 0; m < nm; ++m)
          for (std::size_t q = i; q < e; ++q) trues += f(b.base[m] + rest(b, c[q] - b.start, m));
        calls += (e - i) * static_cast<std::uint64_t>(nm);
      });
      return {calls, trues};
    }
    // A cell that is not its class's canonical one (a rest value that a symmetry fixing the
    // representative maps below itself) stands for no position of its own: no move leads to
    // it, and it has no neighbours here, so that a backward layer never marks it (a build
    // in place, search/explore.h `mod3`, needs every neighbour relation it tests to go both
    // ways).
    template <class F, class P>
    std::pair<std::uint64_t, std::uint64_t> any_neighbor_rank_batch(const std::uint64_t* c, std::size_t n, F pred,
                                                                    P touch) const {
      std::uint64_t found = 0, calls = 0, none = 0;  // none: the cells that have no neighbours
      const int nm = r_->nm_;
      for_each_block(c, n, touch, [&](const Block& b, std::size_t i, std::size_t e) {
        const std::uint64_t run = (e - i == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << (e - i)) - 1)) << i;
        if (b.own != kNoStab)
          for (std::size_t q = i; q < e; ++q) {
            const auto r = static_cast<std::uint32_t>(c[q] - b.start);
            if (r_->canonical(b.own, r) != r) none |= std::uint64_t{1} << q;
          }
        for (int m = 0; m < nm && ((found | none) & run) != run; ++m) {
          const std::uint64_t left = run & ~(found | none);
          calls += static_cast<std::uint64_t>(std::popcount(left));
          for (std::uint64_t l = left; l; l &= l - 1) {
            const auto q = static_cast<std::size_t>(std::countr_zero(l));
            found |= std::uint64_t{pred(b.base[m] + rest(b, c[q] - b.start, m))} << q;
          }
        }
      });
      return {calls, found};
    }

   private:
    static constexpr std::uint64_t kNoStab = ~std::uint64_t{0};
    struct Block {
      std::uint64_t start, end;
      std::uint64_t base[Space::kMaxMoves];       // per move: the first cell of the neighbour's class
      const std::uint32_t* conj[Space::kMaxMoves];  // per move: the rest conjugated by its symmetry
      std::uint64_t k[Space::kMaxMoves];          // per move: the class when symmetries fix its representative
      std::uint64_t own;                          // the block's class when symmetries fix its representative
    };
    // fn(block, i, e) for each run c[i..e) of cells of one class (c ascending).
    template <class P, class Fn>
    [[gnu::always_inline]] void for_each_block(const std::uint64_t* c, std::size_t n, P& touch, Fn&& fn) const {
      for (std::size_t i = 0; i < n;) {
        const Block b = block(c[i], touch);
        std::size_t e = i;
        while (e < n && c[e] < b.end) ++e;
        fn(b, i, e);
        i = e;
      }
    }
    // The cell within its class of the neighbour by move m of rest value r in block b.
    std::uint32_t rest(const Block& b, std::uint64_t r, int m) const {
      const PatternReduction& R = *r_;
      const std::uint32_t v = b.conj[m][R.rest_moves_[r * static_cast<std::uint64_t>(R.nm_) + static_cast<std::uint64_t>(m)]];
      return b.k[m] == kNoStab ? v : R.canonical(b.k[m], v);
    }
    template <class P>
    Block block(std::uint64_t c, P& touch) const {
      const PatternReduction& R = *r_;
      Block b;
      const std::uint64_t k = c / R.nr_;
      b.start = k * R.nr_;
      b.end = b.start + R.nr_;
      b.own = R.stab_id_[k] ? k : kNoStab;
      const std::uint64_t row = k * static_cast<std::uint64_t>(R.nm_);
      for (int m = 0; m < R.nm_; ++m) {  // the representative's neighbours: its row as it is
        const std::uint32_t e = R.sym_move(row + static_cast<std::uint64_t>(m));
        const std::uint64_t kk = e >> (R.sym_bits_ + 1);
        b.base[m] = kk * R.nr_;
        b.conj[m] = R.conj_.data() + std::uint64_t{e & R.sym_mask_} * R.nr_;
        b.k[m] = (e & (R.sym_mask_ + 1)) ? kk : kNoStab;
        if (R.nr_ <= 8192) touch(b.base[m], b.base[m] + R.nr_);
      }
      return b;
    }
    const PatternReduction* r_;
    std::uint64_t goal_;
  };

 private:
  static constexpr unsigned kSymShift = 24;
  static constexpr std::uint64_t kRestMask = (std::uint64_t{1} << kSymShift) - 1, kSymField = 0x7f,
                                 kFixed = std::uint64_t{1} << 31;
  // The class table and the packed sym-move table (a build holds a 32-bit one too while it
  // makes the sym-move table, before the cells are there).
  std::uint64_t side_bytes_for(std::uint64_t classes) const {
    return 4 * nb_ + packed_bytes(classes * static_cast<std::uint64_t>(nm_), entry_bits(classes));
  }
  // The width of a sym-move entry: a class below `classes`, the fixed bit and a symmetry.
  unsigned entry_bits(std::uint64_t classes) const {
    return packed_width((std::max<std::uint64_t>(classes, 1) - 1) << (sym_bits_ + 1) | ((2u << sym_bits_) - 1));
  }
  std::uint64_t solve_bytes_for(std::uint64_t classes, int bits) const;
  // The class table entry of big value v (found by its conjugates when the table is dropped).
  std::uint32_t entry_of(std::uint64_t v) const { return cls_ ? cls_[v] : entry_by_conjugates(v); }
  std::uint32_t entry_by_conjugates(std::uint64_t v) const;
  // The state of a class table entry e (of a big value or a sym-move cell) with rest value r.
  std::uint64_t from_entry(std::uint32_t e, std::uint64_t r) const {
    return std::uint64_t{e >> (sym_bits_ + 1)} << 32 | ((e & (sym_mask_ + 1)) ? kFixed : 0) |
           std::uint64_t{e & sym_mask_} << kSymShift | r;
  }
  Definition pdb_, pdr_;  // the projected puzzle restricted to the big part, to the rest
  MoveSet pmsb_, pmsr_;
  std::unique_ptr<Space> big_, rest_;
  std::string big_name_;
  std::uint64_t nb_ = 1, nr_ = 1, classes_ = 0;
  int nm_ = 0;
  bool symmetric_ = true;
  // Per kept symmetry: the projected label a label becomes and the orientation it adds, per
  // position (conjugating a projected position: pattern_reduction.cpp).
  struct Sym {
    Perm p, inv;
    std::vector<std::uint8_t> relabel;  // [position * 256 + projected label]
    std::vector<std::uint8_t> add;      // [position * 256 + projected label]
  };
  std::vector<Sym> syms_;
  std::vector<Perm> group_;  // every element of the file's group (preserved_by)
  std::vector<std::uint8_t> kept_;  // per group element: maps the pattern onto itself
  unsigned sym_bits_ = 0;
  std::uint32_t sym_mask_ = 0;
  std::vector<std::uint32_t> cls_store_;
  std::shared_ptr<const void> cls_owner_;
  // big value -> class << (sym_bits + 1) | (symmetries fix the representative) << sym_bits |
  // the symmetry taking the value to the representative
  const std::uint32_t* cls_ = nullptr;
  std::vector<std::uint8_t> stab_id_;       // class -> index in stab_masks_ (0: the identity alone)
  std::vector<std::uint64_t> stab_masks_;   // the kept symmetries fixing a representative, as bits
  std::vector<std::uint32_t> rep_;      // class -> representative big value
  std::vector<std::uint32_t> conj_;     // [symmetry * nr + rest value] -> conjugated rest value
  std::vector<std::uint32_t> rest_moves_;  // [rest value * moves + move] -> neighbour rest value
  // [class * moves + move] -> the class table entry of the representative's neighbour,
  // packed at move_bits_ each (entry_bits)
  std::vector<std::uint64_t, HugeAlloc<std::uint64_t>> sym_moves_store_;
  std::shared_ptr<const void> sym_moves_owner_;
  const std::uint8_t* sym_moves_ = nullptr;
  unsigned move_bits_ = 32;
  std::vector<std::uint16_t> move_conj_;  // [symmetry * moves + move] -> the move S m S^-1 (S after m = it after S)
  std::vector<std::uint8_t> compose_;    // [t * symmetries + s] -> the symmetry t after s

  // A projected position's cells outside `part` (pdb_ or pdr_) made as the part has them.
  static Position part_of(const Position& projected, const Definition& part);
  // p (a position of `part`) conjugated by s.
  Position conjugate(const Sym& s, const Position& p, const Definition& part) const;
  void build_classes(const search::Limits& lim);
  // The index in stab_masks_ of a set of fixing symmetries (added when new).
  std::uint8_t stab_id_of(std::uint64_t stab);
  void adopt_classes(const ClassTable& given);
  void adopt_representatives(const ClassReps& given);
  // The symmetries fixing big value v, as bits.
  std::uint64_t stabilizer(std::uint64_t v) const;
  // move_conj_ and compose_, found by their action on values of both parts.
  void build_symmetry_tables();
  // The sym-move table: given (checked), else built from the class table (lim: progress).
  void build_sym_moves(const SymMoveTable* given, const search::Limits& lim);
};

}  // namespace tansaku::perm
