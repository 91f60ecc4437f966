// Pattern databases that scale, for permutation puzzles: the puzzle projected onto k
// distinct pieces of one set (the other pieces of the set made identical and their
// orientations ignored; other sets dropped), indexed by the k pieces' positions (a
// k-permutation rank) and orientations. The table holds each projected position's distance
// from the goal's projection mod 3 in 2 bits (the engine's layered BFS, search/explore.h,
// keeps it): a move changes a distance by at most 1, so during a search a child's exact
// value follows from its parent's and its own value mod 3, and a root's exact value is
// found by walking down the table to the goal (each step to the neighbour one closer).
// Built once (`tansaku pdb build`), stored compressed in the cache directory
// (piece_file.cpp), chosen by `solve` when present (piece_cache.h).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "perm/generators.h"
#include "tansaku/core/kperm.h"
#include "tansaku/core/two_bit_table.h"
#include "tansaku/pdb/checkpoint.h"
#include "tansaku/search/limits.h"

namespace tansaku::perm {

// Which pieces a table keeps: packed labels of one set, each once in the goal. The table's
// cells are the positions of the set that some move changes (a piece no move reaches is
// left out: the 2x2x2's <U,F,R> table spans the 7 corners that move).
struct PieceSpec {
  int set = 0;
  std::vector<int> labels;
  bool operator==(const PieceSpec&) const = default;
};

// The projected puzzle as a ranked domain (explore's view while building; lookups after).
class PieceDomain {
 public:
  struct State {
    std::uint8_t pos[KPermRanker::kMaxPieces];  // local cell of each kept piece
    std::uint8_t ori[KPermRanker::kMaxPieces];
    bool operator==(const State& o) const;
  };
  using Move = int;
  // InputError when the spec does not fit (a label repeated in the goal, too many pieces,
  // a set of more than 64 positions, a ranking beyond 64 bits).
  PieceDomain(const Definition& d, const MoveSet& ms, const Position& goal, PieceSpec spec);

  const PieceSpec& spec() const { return spec_; }
  std::uint64_t size() const { return size_; }
  int k() const { return k_; }
  bool whole() const { return k_ == n_; }  // every piece of its cells kept
  bool orientations() const { return omod_ > 1; }
  std::uint64_t goal_rank() const { return goal_rank_; }
  const State& goal_state() const { return goal_; }

  bool is_goal(const State& s) const { return s == goal_; }
  bool symmetric() const { return symmetric_; }
  State project(const Position& p) const;
  void step(const State& s, int m, State& t) const {
    const std::uint8_t* dest = dest_.data() + static_cast<std::size_t>(m) * n_;
    const std::uint8_t* tw = twist_.data() + static_cast<std::size_t>(m) * n_;
    for (int i = 0; i < k_; ++i) {
      const std::uint8_t q = dest[s.pos[i]];
      t.pos[i] = q;
      const int o = s.ori[i] + tw[q];
      t.ori[i] = static_cast<std::uint8_t>(o >= omod_ ? o - omod_ : o);
    }
  }
  template <class F>
  void for_each_move(const State& s, F&& f) const {
    State t;
    for (int m = 0; m < nm_; ++m) {
      step(s, m, t);
      f(m, t);
    }
  }
  std::uint64_t rank(const State& s) const {
    std::uint64_t r = ranker_.rank(s.pos);
    for (int i = 0; i < odigits_; ++i) r = r * static_cast<std::uint64_t>(omod_) + s.ori[i];
    return r;
  }
  State unrank(std::uint64_t r) const;
  template <class F>
  void for_each_neighbor_rank(std::uint64_t r, F&& f) const {
    const State s = unrank(r);
    State t;
    for (int m = 0; m < nm_; ++m) {
      step(s, m, t);
      f(rank(t));
    }
  }
  int moves() const { return nm_; }

 private:
  PieceSpec spec_;
  int n_ = 0, k_ = 0, omod_ = 1, odigits_ = 0, nm_ = 0;
  std::vector<int> cells_;  // flat positions of the orbit, in order (local cell = index here)
  int ori_target_ = 0;  // the kept orientations' sum when the last digit is implied
  bool symmetric_ = true;
  KPermRanker ranker_;
  std::uint64_t size_ = 0, goal_rank_ = 0;
  std::vector<std::uint8_t> dest_, twist_;  // per move, per local cell: where a piece goes, its turn there
  std::vector<std::uint8_t> piece_of_;      // packed label -> kept piece index (255: not kept)
  State goal_{};
};

// A built (or loaded) table: distances mod 3 over a PieceDomain (3: not reached).
class PieceTable {
 public:
  PieceTable(std::unique_ptr<PieceDomain> dom, std::unique_ptr<TwoBitTable> mod3, int max_distance)
      : dom_(std::move(dom)), mod3_(std::move(mod3)), max_(max_distance) {}
  const PieceDomain& domain() const { return *dom_; }
  const TwoBitTable& mod3() const { return *mod3_; }
  int max_distance() const { return max_; }
  std::uint64_t bytes() const { return mod3_->bytes(); }
  unsigned value(const Position& p) const { return mod3_->get(dom_->rank(dom_->project(p))); }
  // The exact distance of p's projection (walking down the table); -1 when not reached.
  int exact(const Position& p) const;
  // A child's exact distance from its parent's and its own value mod 3.
  static int recover(int parent, unsigned child_mod3) {
    const int d = static_cast<int>(child_mod3) - parent % 3;
    return parent + (d == 2 ? -1 : d == -2 ? 1 : d);
  }
  std::string description() const;

 private:
  std::unique_ptr<PieceDomain> dom_;
  std::unique_ptr<TwoBitTable> mod3_;
  int max_;
};

// Builds a table by the layered BFS from the goal's projection (pdb/build.h; lim: threads,
// progress, deadline; the memory budget must hold a 2-bit table of the domain's size);
// resumable through `cp` (its identity: piece_identity(), piece_file.h).
std::unique_ptr<PieceTable> build_piece_table(std::unique_ptr<PieceDomain> dom, const search::Limits& lim,
                                              tansaku::pdb::Checkpoint* cp = nullptr);

// The orbits of a set's positions under the moves (flat positions, ascending; positions no
// move changes are left out).
std::vector<std::vector<int>> set_orbits(const Definition& d, const MoveSet& ms, int set);

// The tables `pdb build` makes by default: per set whose pieces at the positions some move
// changes are distinct, all of them when the table has at most max_entries entries, else
// groups of the most pieces that fit, covering them (the last group overlapping the one
// before); `pieces` > 0: groups of that many, whatever their size.
std::vector<PieceSpec> default_piece_specs(const Definition& d, const MoveSet& ms, const Position& goal,
                                           std::uint64_t max_entries, int pieces);

}  // namespace tansaku::perm
