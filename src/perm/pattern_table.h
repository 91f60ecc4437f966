// Pattern tables: the puzzle projected by a PatternSpec (pattern_spec.h: per set, pieces
// kept distinct, classes of pieces kept as one, orientations at every cell) is itself a
// permutation puzzle with identical pieces, and its positions are ranked by a Space
// (space.h: a multiset arrangement per orbit and an orientation coordinate, with move
// tables), so the layered BFS fills it at the speed of `explore` and a search steps a
// lookup by three table reads. The table keeps each projected position's distance mod 3 in
// 2 bits, as piece tables do (piece_table.h): a move changes it by at most 1, so exact
// values follow from a parent's; or, where memory allows (`pdb build --cells 4`), each
// distance itself in 4 bits (twice the memory), which gives a bound at any position, not
// only along a path: a lookup at the position's inverse then pays. Why both kinds: a piece table keeps k distinct
// pieces (a k-permutation); a pattern keeps what piece tables cannot (the cube's corner twist x edge flip x UD-slice
// cells: 2.2 x 10^9 entries, distances to 12).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "perm/generators.h"
#include "perm/pattern_reduction.h"
#include "perm/pattern_spec.h"
#include "perm/space.h"
#include "tansaku/core/two_bit_table.h"
#include "tansaku/pdb/checkpoint.h"
#include "tansaku/search/limits.h"

namespace tansaku::perm {

class PatternDomain {
 public:
  // InputError when the projection cannot be ranked (beyond 64 bits), the spec does not
  // fit the definition, or a reduced spec cannot be reduced. Move tables up to 256 MiB.
  // A reduced spec: the class table `classes` and the sym-move table `sym_moves` when given
  // (a table file's), else built (lim: progress, deadline; threads from `threads`).
  // `searching`: the domain of a loaded table, for a search; a whole pattern's table is then
  // exact, the search steps a few nodes, and the Space's move tables are not built (their
  // building and page faults were most of a skewb solve): neighbours come from the members.
  // `cap`: a reduced spec whose tables a solve could not hold is refused before its class
  // table is built (pattern_reduction.h).
  PatternDomain(const Definition& d, const MoveSet& ms, const Position& goal, PatternSpec spec, unsigned threads = 1,
                const search::Limits* lim = nullptr, const ClassTable* classes = nullptr,
                const SymMoveTable* sym_moves = nullptr, bool searching = false, SolveCap cap = {},
                const ClassReps* reps = nullptr);

  ~PatternDomain();
  const PatternSpec& spec() const { return spec_; }
  // The table's cells (reduced: one per class of positions under the symmetries).
  std::uint64_t size() const { return red_ ? red_->cells() : space_->size(); }
  // A position's state is its rank in the projection's Space, or with a reduction its
  // (big part, rest) pair (pattern_reduction.h); cell() gives its table cell.
  std::uint64_t goal_rank() const { return goal_rank_; }
  std::uint64_t cell(std::uint64_t state) const { return red_ ? red_->cell(state) : state; }
  const PatternReduction* reduction() const { return red_.get(); }
  // A reduced pattern's class table let go (PatternReduction::drop_class_table): a search
  // over 2-bit cells ranks only its start with it.
  void drop_class_table() {
    if (red_) red_->drop_class_table();
  }
  // Not reduced only.
  const Space& space() const { return *space_; }
  const Definition& projected() const { return pd_; }
  const MoveSet& projected_moves() const { return pms_; }
  // Every piece that moves is kept distinct with its orientation: a conjugate's value is
  // the position's own.
  bool whole() const { return whole_; }
  Position project(const Position& p) const;
  // The state of p's projection; false when the projection is outside the ranked space.
  bool rank(const Position& p, std::uint64_t& r) const;
  // The same for a position known to be reachable from the goal (an inverse or a conjugate
  // of one met in a search), without the membership test (most of rank's time).
  std::uint64_t rank_reachable(const Position& p) const;
  // rank_reachable in two steps, for a batch of lookups that fetches memory ahead (the
  // search's lookups at inverses): rank_start ranks the projection's parts and fetches the
  // class table's entry (reduced), rank_finish gives the state.
  struct PendingRank {
    std::uint64_t a = 0, b = 0;
  };
  PendingRank rank_start(const Position& p) const;
  std::uint64_t rank_finish(const PendingRank& r) const { return red_ ? red_->state_of_parts(r.a, r.b) : r.a; }
  // f(move, neighbour rank) for every move, in order.
  template <class F>
  void for_each_move_rank(std::uint64_t r, F&& f) const {
    if (red_) red_->for_each_move_rank(r, f);
    else space_->for_each_move_rank(r, f);
  }

 private:
  PatternSpec spec_;
  Definition pd_;
  MoveSet pms_;
  std::vector<std::uint8_t> lab_map_;  // [position * 256 + label] -> projected label
  std::unique_ptr<Space> space_;
  std::unique_ptr<PatternReduction> red_;
  std::uint64_t goal_rank_ = 0;
  bool whole_ = false;
};

// Distances over a PatternDomain: mod 3 in 2-bit cells (3: not reached), or exact in 4-bit
// cells (bits 4: TwoBitTable::get4 over twice the 2-bit cells; 15: not reached; distances
// above 14 kept as 14, still a lower bound).
class PatternTable {
 public:
  PatternTable(std::unique_ptr<PatternDomain> dom, std::unique_ptr<TwoBitTable> cells, int max_distance, int bits = 2)
      : dom_(std::move(dom)), cells_(std::move(cells)), max_(max_distance), bits_(bits) {}
  const PatternDomain& domain() const { return *dom_; }
  // The 2-bit cells (mod 3), or the words of the 4-bit ones (cells()).
  const TwoBitTable& mod3() const { return *cells_; }
  const TwoBitTable& cells() const { return *cells_; }
  int bits() const { return bits_; }
  bool exact_cells() const { return bits_ == 4; }
  // Table cell c: its distance (4 bits; 15: not reached) or its distance mod 3 (2 bits).
  unsigned get(std::uint64_t c) const { return bits_ == 4 ? cells_->get4(c) : cells_->get(c); }
  void prefetch(std::uint64_t c) const {
    if (bits_ == 4) cells_->prefetch_read4(c);
    else cells_->prefetch_read(c);
  }
  // A child's exact distance from its parent's and its cell (2 bits: the residue decoded;
  // 4 bits: read).
  unsigned step(unsigned parent, std::uint64_t c) const {
    if (bits_ == 4) return cells_->get4(c);
    const int d = static_cast<int>(cells_->get(c)) - static_cast<int>(parent % 3);  // as PieceTable::recover
    return static_cast<unsigned>(static_cast<int>(parent) + (d == 2 ? -1 : d == -2 ? 1 : d));
  }
  int max_distance() const { return max_; }
  std::uint64_t bytes() const { return cells_->bytes(); }
  // The exact distance of rank r (read, or walking down the table); -1 when not reached.
  int exact(std::uint64_t r) const;
  std::string description(const Definition& d) const;

 private:
  std::unique_ptr<PatternDomain> dom_;
  std::unique_ptr<TwoBitTable> cells_;
  int max_;
  int bits_;
};

// The layered BFS from the goal's projection (lim: threads, progress, deadline; the memory
// budget must hold pdb::build_bytes: the 2-bit cells, or a 2-bit state table and 4-bit cells).
// bits: 2 (distances mod 3) or 4 (exact). The engine's builder (pdb/build.h), resumable
// through `cp` (its identity: pattern_identity(), piece_file.h).
std::unique_ptr<PatternTable> build_pattern_table(std::unique_ptr<PatternDomain> dom, const search::Limits& lim,
                                                  int bits = 2, tansaku::pdb::Checkpoint* cp = nullptr);

}  // namespace tansaku::perm
