// Solving permutation puzzles (see solver.h).
#include "perm/solver.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "perm/group_order.h"
#include "perm/move_pruning.h"
#include "perm/piece_file.h"
#include "perm/ranked_domain.h"
#include "perm/subgoal.h"
#include "perm/symmetry.h"
#include "perm/two_phase.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/puzzles/solver_table.h"
#include "tansaku/search/beam_search.h"
#include "tansaku/search/best_first.h"
#include "tansaku/search/bidirectional_bfs.h"
#include "tansaku/search/ida_star_inplace.h"
#include "tansaku/search/weighted_ida.h"

namespace tansaku::perm {

namespace {

constexpr std::size_t kMaxPieceTables = 16;

struct Context {
  const Definition* d;
  const MoveSet* ms;
  const std::vector<std::unique_ptr<PatternDb>>* pdbs;
  // The lookups into the cached piece tables (exact values from mod 3, or read from a
  // pattern's 4-bit cells): each table at the position itself, then at its conjugates by the
  // puzzle's symmetries (symmetry.h).
  struct Lookup {
    const PieceTable* table;       // a piece table, or (null)
    const PatternTable* pattern;   // a pattern table
    const std::vector<int>* conj;  // the move a move becomes in the conjugate (null: the position itself)
    int move(int m) const { return conj ? (*conj)[static_cast<std::size_t>(m)] : m; }
    const TwoBitTable& mod3() const { return table ? table->mod3() : pattern->mod3(); }
    // A pattern of 4-bit cells: its values are exact at any position.
    bool exact_cells() const { return pattern && pattern->exact_cells(); }
    // Worth a lookup at the inverse: exact cells of a pattern that drops some piece (a whole
    // one holds the distance itself, equal at the inverse).
    bool inverse_worth() const { return exact_cells() && !pattern->domain().whole(); }
    // The exact value at cell c of a child whose parent's is `parent`.
    unsigned step(unsigned parent, std::uint64_t c) const {
      return table ? static_cast<unsigned>(PieceTable::recover(static_cast<int>(parent), table->mod3().get(c)))
                   : pattern->step(parent, c);
    }
    void prefetch(std::uint64_t c) const {
      if (table) table->mod3().prefetch_read(c);
      else pattern->prefetch(c);
    }
    std::uint64_t bytes() const { return table ? table->bytes() : pattern->bytes(); }
    // The exact value at p, a child whose parent's is `parent`.
    unsigned step_at(unsigned parent, const Position& p) const {
      if (table) return static_cast<unsigned>(PieceTable::recover(static_cast<int>(parent), table->value(p)));
      std::uint64_t r = 0;
      if (!pattern->domain().rank(p, r))
        return static_cast<unsigned>(PieceTable::recover(static_cast<int>(parent), 3u));
      return pattern->step(parent, pattern->domain().cell(r));
    }
  };
  const std::vector<Lookup>* lookups;
  Position goal;
  std::vector<std::uint8_t> active;  // positions some move changes
  std::vector<int> base;             // base move of each move
  // The move strings never played (move_pruning.h): a node keeps its state, a move whose
  // transition is dead is dropped.
  const search::MoveAutomaton* fsm = nullptr;
  // One more than the lookups' maximum n >= 1 when every set of `last_move` holds a lookup
  // whose value is n (Michiel de Bondt's observation for Kociemba's optimal cube solver,
  // generically): last_move[k] are the lookups that are 0 one move from the goal, for some
  // moves (the minimal such sets; every move has one, and moves come with their inverses).
  // A solution of length n ends with such a move, so its next-to-last position is one where
  // some lookup of that set is 0, and that lookup is at most n - 1 at the start, as each
  // lookup is a distance in a projection (consistent). Empty: not used.
  std::vector<std::uint32_t> last_move;
  // Inverse lookups (symmetry.h, Inverter; null: off): each table at the position's inverse
  // too (a solution of the inverse is the solution's inverse, as long). A pattern of 4-bit
  // cells gives its exact value there, at the inverse's conjugates too, and when every
  // lookup at the inverse is read so, "one more" (last_move) holds for them as for the
  // position's. Tables of 2-bit cells only under TANSAKU_PERM_INVERSE=1: the path's inverse
  // does not walk the table's moves (it changes by moves on the other side), so no parent
  // value decodes the cell mod 3: the bound taken from it alone is its residue r, or for
  // r = 0 either 0 (the goal's cell) or 3. Those are at most 3, so they are looked up only
  // where the bound left to a child is below 3.
  const Inverter* inverter = nullptr;
  bool inverse_exact = false;            // TANSAKU_PERM_INVERSE=exact: the exact values (walking down the table)
  bool inverse_residues = false;         // TANSAKU_PERM_INVERSE=1 or exact: 2-bit tables looked up at the inverse too
  bool inverse_cells = false;            // some lookup has exact cells (looked up at the inverse at any bound)
  bool inverse_conjugates = false;       // ... and at the inverse's conjugates (TANSAKU_PERM_INVERSE=conjugates)
  std::vector<std::uint64_t> goal_cell;  // per lookup: the cell of the goal's projection
  std::vector<const Perm*> conj_by;      // per lookup: the symmetry it is looked up at (null: the position)
  std::vector<Conjugator> conjugators;   // per lookup looked up at a conjugate: conjugate() made fast
  std::vector<int> conjugator_of;        // per lookup: its index in conjugators (-1: none)
  // The exact cells' lookups at the inverse (inverse_cells, no residues) made for all the
  // children of a node at once (InPlace::batch), their memory fetched ahead; off
  // (TANSAKU_PERM_INVERSE_BATCH=0): one child at a time (inverse_floor), for comparisons.
  bool inverse_batch = false;
  // The lookups at a node's children are read in rounds: the children's cells of the first
  // round's lookups are fetched together, read, and only the children still within the
  // limit have the next round's cells fetched. Rounds 1..rounds-1 take one lookup each (the
  // one of largest value at the parent first: the likeliest to cut), the last the rest.
  // Fewer lines fetched against one more wait on memory a round (TANSAKU_PERM_ROUNDS).
  std::size_t rounds = 2;
  bool order_by_value = true;  // TANSAKU_PERM_ORDER=0: the lookups in their own order
  // Symmetries of a symmetric start (symmetry.h: goal Solved, pieces distinct): elements S of
  // the companion file's group, S^-1 p S = p, with sym_move[k][m] the index of S^-1 m S. A
  // path and its conjugate by such an S are solutions alike, so where S fixes every move of
  // the path so far, of the moves S maps onto one another only the first is played
  // (InPlace::moves): the shortlex-least optimal solution, which the move pruning keeps, is
  // never dropped (a move S takes below itself would give a conjugate solution earlier in
  // shortlex order). Only with the moves in the definition's order (the pairwise rules'
  // order); at most 64; empty: off.
  std::vector<Perm> fixing;
  std::vector<std::vector<int>> sym_move;
  // A search thread's scratch for the lookups at an inverse's conjugates.
  struct Scratch {
    Perm g;
    Position tmp, conj;
  };
  // The inverse lookups' bound at y (an inverse), stopping once above `limit`.
  int inverse_floor(const Position& y, int limit, Scratch& sc) const {
    int best = 0;
    std::uint8_t e[kMaxPieceTables] = {};
    bool all = true;                      // every lookup read exactly at y (and its conjugates)
    for (int pass = 0; pass < 2; ++pass)  // the lookups at y itself first, then at its conjugates
      for (std::size_t i = 0; i < lookups->size(); ++i) {
        const Lookup& lk = (*lookups)[i];
        if ((lk.conj != nullptr) != (pass == 1)) continue;
        if (lk.conj && !inverse_conjugates) {
          all = false;
          continue;
        }
        if (lk.exact_cells()) {
          if (!inverse_cells) {  // whole patterns only: the value at y is the position's
            all = false;
            continue;
          }
          // y is reachable (the inverse of a position on a path from the start, which is),
          // and so are its conjugates: ranked without the membership test.
          const PatternDomain& dom = lk.pattern->domain();
          if (lk.conj) conjugators[static_cast<std::size_t>(conjugator_of[i])].conjugate(y, sc.g, sc.tmp, sc.conj);
          const std::uint64_t r = dom.rank_reachable(lk.conj ? sc.conj : y);
          const unsigned v = lk.pattern->cells().get4(dom.cell(r));
          if (v == 15) {
            all = false;
            continue;
          }
          e[i] = static_cast<std::uint8_t>(v);
          best = std::max<int>(best, static_cast<int>(v));
          if (best > limit) return best;
          continue;
        }
        all = false;
        if (lk.conj || !inverse_residues) continue;
        best = std::max(best, residue_floor(i, lk, y, limit));
        if (best > limit) return best;
      }
    return all ? lookups_bound(e, lookups->size(), best) : best;
  }
  // A 2-bit table's bound at an inverse y: from its residue (exact: walking down the table).
  int residue_floor(std::size_t i, const Lookup& lk, const Position& y, int limit) const {
    std::uint64_t cell = 0;
    if (lk.table) {
      cell = lk.table->domain().rank(lk.table->domain().project(y));
    } else {
      std::uint64_t r = 0;
      if (!lk.pattern->domain().rank(y, r)) return 0;
      cell = lk.pattern->domain().cell(r);
    }
    const unsigned v = lk.mod3().get(cell);
    int lb = v == 3 ? 0 : v ? static_cast<int>(v) : cell == goal_cell[i] ? 0 : 3;
    if (inverse_exact && lb <= limit && v != 3) {  // walking down the table (experimental)
      std::uint64_t r = 0;
      lb = lk.table ? lk.table->exact(y) : (lk.pattern->domain().rank(y, r), lk.pattern->exact(r));
    }
    return lb;
  }
  // The lookups' bound from their exact values (n: their maximum).
  int lookups_bound(const std::uint8_t* e, std::size_t count, int n) const {
    if (n == 0 || last_move.empty()) return n;
    std::uint32_t at_max = 0;
    for (std::size_t i = 0; i < count && i < kMaxPieceTables; ++i) at_max |= static_cast<std::uint32_t>(e[i] == n) << i;
    for (const std::uint32_t m : last_move)
      if (!(m & at_max)) return n;
    return n + 1;
  }

  void apply(const Perm& m, const Position& s, Position& t) const {
    t = s;
    apply_active(m, s, t);
  }
  // t's positions that some move changes (the others t already holds as s does).
  void apply_active(const Perm& m, const Position& s, Position& t) const {
    for (auto i : active) {
      const auto from = m.perm[i];
      t.lab[i] = s.lab[from];
      const int o = s.ori[from] + m.twist[i];
      const int n = d->omod[i];
      t.ori[i] = static_cast<std::uint8_t>(o >= n ? o - n : o);
    }
  }
  int h(const Position& p) const {
    int best = 0;
    for (const auto& db : *pdbs) best = std::max(best, db->h(p));
    return best;
  }
  // The piece tables' exact values of a child from its parent's; the bound is their maximum
  // and the projection tables' (h).
  using Exact = std::array<std::uint8_t, kMaxPieceTables>;
  int step_h(const Position& child, const Exact& parent, Exact& out) const {
    int best = h(child);
    for (std::size_t i = 0; i < lookups->size(); ++i) {
      if ((*lookups)[i].conj) {  // this copying search follows the position itself only
        out[i] = 0;
        continue;
      }
      out[i] = static_cast<std::uint8_t>((*lookups)[i].step_at(parent[i], child));
      best = std::max<int>(best, out[i]);
    }
    return best;
  }
  bool allowed(std::int32_t q, int m) const { return fsm->next(q, m) != search::MoveAutomaton::kDead; }
};

// In-place IDA* domain (one solution). With piece tables, each level of the path keeps
// every table's projected state (a child's comes from its parent's in k steps, no
// projection of the whole position), and `moves` computes the children's table cells and
// fetches them ahead: the search waits on memory, and the children's cache misses then
// overlap instead of following one another.
class InPlace {
  struct Level;

 public:
  using Move = int;
  static constexpr int kMaxMoves = 1024;
  struct Undo {
    std::int32_t q;
    int h;
    Context::Exact exact;
    std::uint64_t syms;
  };
  // roots[i]: the position lookup i starts from (start, or its conjugate).
  InPlace(const Context& c, const Position& start, const std::vector<Position>& roots, const Context::Exact& exact)
      : c_(&c), start_(start), exact_(exact), h_(c.h(start)), nt_(c.lookups->size()), nm_(c.ms->gens.size()) {
    int most = 0;
    for (std::size_t i = 0; i < nt_; ++i) most = std::max<int>(most, exact_[i]);
    h_ = std::max(h_, c.lookups_bound(exact_.data(), nt_, most));
    if (c.inverter) {
      Position y;
      c.inverter->invert(start, y);
      h_ = std::max(h_, c.inverse_floor(y, 1 << 20, iscratch_));
    }
    for (std::size_t k = 0; k < c.fixing.size(); ++k)
      if (conjugate(*c.d, c.fixing[k], start) == start) syms_ |= std::uint64_t{1} << k;
    levels_.resize(1);
    levels_[0].pos = start;
    for (std::size_t t = 0; t < nt_; ++t) {
      const Context::Lookup& lk = (*c.lookups)[t];
      reduction_[t] = lk.pattern ? lk.pattern->domain().reduction() : nullptr;
      if (lk.table) levels_[0].state[t] = lk.table->domain().project(roots[t]);
      else if (!lk.pattern->domain().rank(roots[t], levels_[0].rank[t]))
        throw std::logic_error("perm: a root outside a pattern");
    }
  }
  int h() const { return h_; }
  bool is_goal() const { return levels_[depth_].pos == c_->goal; }
  int moves(Move* buf) const {
    int n = 0;
    for (int m = 0; m < static_cast<int>(nm_); ++m)
      if (c_->allowed(q_, m) && first_of_its_kind(m)) buf[n++] = m;
    if (nt_) {
      Level& l = levels_[depth_];
      l.child.resize(nm_ * nt_);
      l.cell.resize(nm_ * nt_);
      order_lookups(l);
      PieceDomain::State ch;
      // Reduced patterns: the children's states from the sym-move row of this node's state
      // (fetched ahead when the node was entered), their cells fetched ahead.
      for (std::size_t t = 0; t < nt_; ++t) {
        const PatternReduction* red = reduction_[t];
        if (!red) continue;
        const Context::Lookup& lk = (*c_->lookups)[t];
        std::uint64_t* nb = l.neighbours.data();
        red->for_each_move_rank(l.rank[t], [nb](int m, std::uint64_t r) { nb[m] = r; });
        for (int i = 0; i < n; ++i) {
          const std::size_t at = static_cast<std::size_t>(buf[i]) * nt_ + t;
          l.child[at] = nb[lk.move(buf[i])];
          l.cell[at] = red->cell(l.child[at]);
          if (l.round_of[t] == 0) lk.pattern->prefetch(l.cell[at]);
        }
      }
      for (std::size_t t = 0; t < nt_; ++t) {
        const Context::Lookup& lk = (*c_->lookups)[t];
        if (!lk.table) {  // a pattern: every move's neighbour from the move tables at once
          const PatternDomain& pdom = lk.pattern->domain();
          if (reduction_[t]) continue;  // above
          std::uint64_t* nb = l.neighbours.data();
          pdom.for_each_move_rank(l.rank[t], [nb](int m, std::uint64_t r) { nb[m] = r; });
          for (int i = 0; i < n; ++i) {
            const std::uint64_t r = nb[lk.move(buf[i])];
            l.child[static_cast<std::size_t>(buf[i]) * nt_ + t] = r;
            l.cell[static_cast<std::size_t>(buf[i]) * nt_ + t] = r;
            if (l.round_of[t] == 0) lk.pattern->prefetch(r);
          }
          continue;
        }
        const PieceTable& tab = *lk.table;
        const PieceDomain& dom = tab.domain();
        for (int i = 0; i < n; ++i) {
          dom.step(l.state[t], lk.move(buf[i]), ch);
          const std::uint64_t r = dom.rank(ch);
          l.child[static_cast<std::size_t>(buf[i]) * nt_ + t] = r;
          l.cell[static_cast<std::size_t>(buf[i]) * nt_ + t] = r;
          if (l.round_of[t] == 0) tab.mod3().prefetch_read(r);
        }
      }
      l.valid = true;
      l.list.assign(buf, buf + n);
      l.batched = false;
    }
    return n;
  }
  // The child's bound from the cells moves() computed (0 without piece tables or patterns:
  // then apply decides), every child's at once (batch).
  int child_h(Move m, int limit) const {
    if (!nt_) return 0;
    Level& l = levels_[depth_];
    if (!l.batched) batch(l, limit);
    int best = l.bound[static_cast<std::size_t>(m)];
    if (c_->inverter && !c_->inverse_batch && best <= limit && (limit < 3 || c_->inverse_exact || c_->inverse_cells)) {
      // The child and its inverse (the positions no move changes are the start's).
      const Position& from = l.pos;
      if (scratch_.size() < 2) scratch_.assign(2, start_);
      c_->apply_active(c_->ms->gens[static_cast<std::size_t>(m)].p, from, scratch_[0]);
      c_->inverter->invert(scratch_[0], scratch_[1]);
      best = std::max(best, c_->inverse_floor(scratch_[1], limit, iscratch_));
    }
    return best;
  }
  // The order of this node's lookups for its children (Context::rounds): by their value
  // here, largest first, and the round each is read in.
  void order_lookups(Level& l) const {
    for (std::size_t t = 0; t < nt_; ++t) l.order[t] = static_cast<std::uint8_t>(t);
    if (c_->order_by_value)  // an insertion sort, stable (a handful of lookups)
      for (std::size_t k = 1; k < nt_; ++k)
        for (std::size_t j = k; j > 0 && exact_[l.order[j]] > exact_[l.order[j - 1]]; --j)
          std::swap(l.order[j], l.order[j - 1]);
    for (std::size_t k = 0; k < nt_; ++k)
      l.round_of[l.order[k]] = static_cast<std::uint8_t>(std::min(k, c_->rounds - 1));
  }
  // Every child's bound from the lookups at the position, in rounds (Context::rounds; the
  // first round's cells fetched by moves()), a child's lookups stopping once its bound is
  // above `limit`; the x+1 rule (lookups_bound) applies to those read to the end. The
  // children left within the limit will be entered: the sym-move rows their own children
  // need are fetched now, together, rather than each when it is entered.
  void forward_batch(Level& l, int limit) const {
    l.bound.assign(nm_, 0);
    l.value.resize(nm_ * nt_);
    alive_.assign(l.list.begin(), l.list.end());
    for (std::size_t k = 0; k < nt_;) {
      const std::size_t round = l.round_of[l.order[k]];
      std::size_t end = k;
      while (end < nt_ && l.round_of[l.order[end]] == round) ++end;
      next_.clear();
      for (const int m : alive_) {
        const std::size_t at = static_cast<std::size_t>(m) * nt_;
        int& best = l.bound[static_cast<std::size_t>(m)];
        for (std::size_t j = k; j < end && best <= limit; ++j) {
          const std::size_t t = l.order[j];
          l.value[at + t] = static_cast<std::uint8_t>((*c_->lookups)[t].step(exact_[t], l.cell[at + t]));
          best = std::max<int>(best, l.value[at + t]);
        }
        if (best > limit) continue;
        next_.push_back(m);
        for (std::size_t j = end; j < nt_ && l.round_of[l.order[j]] == round + 1; ++j)
          (*c_->lookups)[l.order[j]].prefetch(l.cell[at + l.order[j]]);
      }
      alive_.swap(next_);
      k = end;
    }
    for (const int m : alive_) {
      const std::size_t at = static_cast<std::size_t>(m) * nt_;
      int& best = l.bound[static_cast<std::size_t>(m)];
      best = c_->lookups_bound(&l.value[at], nt_, best);
      for (std::size_t t = 0; t < nt_; ++t)
        if (const PatternReduction* red = reduction_[t]) red->prefetch(l.child[at + t]);
    }
  }
  // Every child's bound at once: the lookups at the position (forward_batch); with
  // Context::inverse_batch, for the children they leave within `limit`, the child's
  // inverse, then for each lookup of exact cells read there its state in two steps (the
  // class table's entry fetched for every such child before one is read, then the cells
  // likewise), so that the cache misses of the children overlap; the inverse's conjugates
  // (inverse_conjugates) likewise for the children still within the limit.
  void batch(Level& l, int limit) const {
    l.batched = true;
    forward_batch(l, limit);
    if (!c_->inverse_batch) return;
    const std::size_t n = l.list.size();
    cand_.clear();
    for (std::size_t k = 0; k < n; ++k)
      if (l.bound[static_cast<std::size_t>(l.list[k])] <= limit) cand_.push_back(l.list[k]);
    if (cand_.empty()) return;
    const std::size_t nc = cand_.size();
    if (scratch_.size() < 2) scratch_.assign(2, start_);
    if (inv_.size() < nc) inv_.resize(nc);
    inv_best_.assign(nc, 0);
    inv_all_.assign(nc, 1);
    inv_e_.assign(nc * nt_, 0);
    for (std::size_t k = 0; k < nc; ++k) {
      c_->apply_active(c_->ms->gens[static_cast<std::size_t>(cand_[k])].p, l.pos, scratch_[0]);
      c_->inverter->invert(scratch_[0], inv_[k]);
    }
    Context::Scratch& sc = iscratch_;
    for (int pass = 0; pass < 2; ++pass) {  // the lookups at the inverse itself, then at its conjugates
      pend_.clear();
      for (std::size_t k = 0; k < nc; ++k) {
        if (inv_best_[k] > limit) continue;
        for (std::size_t i = 0; i < nt_; ++i) {
          const Context::Lookup& lk = (*c_->lookups)[i];
          if ((lk.conj != nullptr) != (pass == 1)) continue;
          if (!lk.exact_cells() || (lk.conj && !c_->inverse_conjugates)) {
            inv_all_[k] = 0;
            continue;
          }
          const PatternDomain& dom = lk.pattern->domain();
          const Position* y = &inv_[k];
          if (lk.conj) {
            c_->conjugators[static_cast<std::size_t>(c_->conjugator_of[i])].conjugate(inv_[k], sc.g, sc.tmp, sc.conj);
            y = &sc.conj;
          }
          pend_.push_back({k, i, dom.rank_start(*y), 0});
        }
      }
      for (Pending& p : pend_) {
        const Context::Lookup& lk = (*c_->lookups)[p.lookup];
        const PatternDomain& dom = lk.pattern->domain();
        p.cell = dom.cell(dom.rank_finish(p.rank));
        lk.pattern->prefetch(p.cell);
      }
      for (const Pending& p : pend_) {
        if (inv_best_[p.child] > limit) continue;  // as inverse_floor: no further lookup once above
        const unsigned v = (*c_->lookups)[p.lookup].pattern->cells().get4(p.cell);
        if (v == 15) {
          inv_all_[p.child] = 0;
          continue;
        }
        inv_e_[p.child * nt_ + p.lookup] = static_cast<std::uint8_t>(v);
        inv_best_[p.child] = std::max<int>(inv_best_[p.child], static_cast<int>(v));
      }
    }
    for (std::size_t k = 0; k < nc; ++k) {
      int b = inv_best_[k];
      if (b <= limit && inv_all_[k]) b = c_->lookups_bound(&inv_e_[k * nt_], nt_, b);
      int& f = l.bound[static_cast<std::size_t>(cand_[k])];
      f = std::max(f, b);
    }
  }
  Undo apply(Move m) {
    Undo u{q_, h_, exact_, syms_};
    for (std::uint64_t b = syms_; b; b &= b - 1) {  // the symmetries that fix the path go on fixing it
      const auto k = static_cast<std::size_t>(std::countr_zero(b));
      if (c_->sym_move[k][static_cast<std::size_t>(m)] != m) syms_ &= ~(std::uint64_t{1} << k);
    }
    if (levels_.size() < depth_ + 2) {
      levels_.resize(depth_ + 2);
      levels_[depth_ + 1].pos = start_;  // the positions no move changes, once
    }
    const Level& p = levels_[depth_];
    Level& ch = levels_[depth_ + 1];
    c_->apply_active(c_->ms->gens[static_cast<std::size_t>(m)].p, p.pos, ch.pos);
    q_ = c_->fsm->next(q_, m);
    int best = c_->h(ch.pos);
    if (nt_) {
      int most = 0;
      ch.valid = false;
      for (std::size_t t = 0; t < nt_; ++t) {
        const Context::Lookup& lk = (*c_->lookups)[t];
        std::uint64_t c;
        const std::size_t at = static_cast<std::size_t>(m) * nt_ + t;
        if (lk.table) {
          const PieceDomain& dom = lk.table->domain();
          dom.step(p.state[t], lk.move(m), ch.state[t]);
          c = p.valid ? p.cell[at] : dom.rank(ch.state[t]);
        } else {
          std::uint64_t r = p.valid ? p.child[at] : 0;
          if (!p.valid)
            lk.pattern->domain().for_each_move_rank(p.rank[t], [&](int mm, std::uint64_t x) {
              if (mm == lk.move(m)) r = x;
            });
          ch.rank[t] = r;
          if (const PatternReduction* red = reduction_[t]) red->prefetch(r);  // for its children
          c = p.valid ? p.cell[at] : lk.pattern->domain().cell(r);
        }
        exact_[t] = static_cast<std::uint8_t>(lk.step(u.exact[t], c));
        most = std::max<int>(most, exact_[t]);
      }
      best = std::max(best, c_->lookups_bound(exact_.data(), nt_, most));
    }
    ++depth_;
    h_ = best;
    return u;
  }
  void undo(Move, const Undo& u) {
    q_ = u.q;
    h_ = u.h;
    exact_ = u.exact;
    syms_ = u.syms;
    --depth_;
  }

 private:
  // No symmetry fixing the start and the path takes m to an earlier move (Context::fixing).
  bool first_of_its_kind(int m) const {
    for (std::uint64_t b = syms_; b; b &= b - 1)
      if (c_->sym_move[static_cast<std::size_t>(std::countr_zero(b))][static_cast<std::size_t>(m)] < m) return false;
    return true;
  }
  struct Level {
    Position pos;                                                // the position at this depth of the path
    std::array<PieceDomain::State, kMaxPieceTables> state{};     // each piece table's projection here
    std::array<std::uint64_t, kMaxPieceTables> rank{};           // each pattern's rank here
    std::array<std::uint64_t, InPlace::kMaxMoves> neighbours{};  // scratch: a pattern's neighbour ranks
    std::vector<std::uint64_t> child;  // [move * tables + table]: the child's state, when valid
    std::vector<std::uint64_t> cell;   // [move * tables + table]: the child's table cell, when valid
    bool valid = false;                // child holds this node's children (moves() ran here)
    std::vector<int> list;             // the moves moves() gave
    std::vector<int> bound;            // ... and per move the child's bound, once batched
    std::vector<std::uint8_t> value;   // [move * tables + table]: the child's value, once read
    std::array<std::uint8_t, kMaxPieceTables> order{};     // the lookups in the order they are read
    std::array<std::uint8_t, kMaxPieceTables> round_of{};  // the round each lookup is read in
    bool batched = false;
  };
  // A lookup at an inverse (or its conjugate) on its way: the candidate, the lookup, the
  // ranking's first step, the cell.
  struct Pending {
    std::size_t child, lookup;
    PatternDomain::PendingRank rank;
    std::uint64_t cell;
  };
  const Context* c_;
  Position start_;
  Context::Exact exact_{};
  std::int32_t q_ = search::MoveAutomaton::kStart;  // Context::fsm's state after the path
  std::uint64_t syms_ = 0;                          // the Context::fixing elements that fix the path
  int h_ = 0;
  std::size_t nt_ = 0, nm_ = 0, depth_ = 0;
  std::array<const PatternReduction*, kMaxPieceTables> reduction_{};  // per lookup: its pattern's reduction (or null)
  mutable std::vector<Level> levels_;
  mutable std::vector<Position> scratch_;  // child_h: a child and its inverse
  mutable Context::Scratch iscratch_;      // child_h: the inverse's conjugates
  // batch(): the children left after the lookups at the position, their inverses, each
  // one's lookups on their way, bound so far, whether all were read exactly, and values.
  mutable std::vector<int> cand_;
  mutable std::vector<int> alive_, next_;  // forward_batch: the children within the limit
  mutable std::vector<Position> inv_;
  mutable std::vector<Pending> pend_;
  mutable std::vector<int> inv_best_;
  mutable std::vector<std::uint8_t> inv_all_, inv_e_;
};

// Copying IDA* domain (every optimal solution / their number).
class Copying {
 public:
  struct State {
    Position pos;
    std::int32_t q = search::MoveAutomaton::kStart;  // Context::fsm's state
    Context::Exact exact{};
    int h = 0;
    bool operator==(const State&) const = default;
  };
  using Move = int;
  explicit Copying(const Context& c) : c_(&c) {}
  bool is_goal(const State& s) const { return s.pos == c_->goal; }
  int h(const State& s) const { return s.h; }
  template <class F>
  void for_each_move(const State& s, F&& f) const {
    State t;
    for (int m = 0; m < static_cast<int>(c_->ms->gens.size()); ++m) {
      if (!c_->allowed(s.q, m)) continue;
      c_->apply(c_->ms->gens[static_cast<std::size_t>(m)].p, s.pos, t.pos);
      if (!c_->d->legal(t.pos)) continue;  // Illegal rules: never passed through
      t.q = c_->fsm->next(s.q, m);
      t.h = c_->step_h(t.pos, s.exact, t.exact);
      f(m, t);
    }
  }

 private:
  const Context* c_;
};

// Copying for the non-optimal searches (best_first.h, beam_search.h), which detect
// duplicates: a state is its position (the automaton's state, kept for the move pruning, and the
// lookups' exact values follow from it).
class ByPosition {
 public:
  struct State {
    Copying::State s;
    bool operator==(const State& o) const { return s.pos == o.s.pos; }
  };
  using Move = int;
  explicit ByPosition(const Context& c) : c_(c) {}
  bool is_goal(const State& s) const { return c_.is_goal(s.s); }
  int h(const State& s) const { return s.s.h; }
  std::size_t hash(const State& s) const {
    std::size_t x = 1469598103934665603ull;
    for (std::size_t i = 0; i < s.s.pos.lab.size(); ++i)
      x = (x ^ (s.s.pos.lab[i] * 8u + s.s.pos.ori[i])) * 1099511628211ull;
    return x;
  }
  template <class F>
  void for_each_move(const State& s, F&& f) const {
    c_.for_each_move(s.s, [&](int m, const Copying::State& t) { f(m, State{t}); });
  }

 private:
  Copying c_;
};

}  // namespace

void verify(const Definition& d, const MoveSet& ms, const Position& start, const Position& goal,
            const std::vector<int>& moves) {
  Position p = start, q;
  for (int m : moves) {
    if (m < 0 || m >= static_cast<int>(ms.gens.size())) throw std::logic_error("perm verifier: a move out of range");
    d.apply(ms.gens[static_cast<std::size_t>(m)].p, p, q);
    p = q;
    if (!d.legal(p)) throw std::logic_error("perm verifier: the solution passes through an Illegal position");
  }
  for (int i = 0; i < d.positions; ++i)
    if (p.lab[static_cast<std::size_t>(i)] != goal.lab[static_cast<std::size_t>(i)] ||
        p.ori[static_cast<std::size_t>(i)] != goal.ori[static_cast<std::size_t>(i)])
      throw std::logic_error("perm verifier: the solution does not reach the goal");
}

namespace {

// One search as the solver table sees it: the request, the goal's ranked space (null beyond
// 64 bits) and the result it fills.
struct Job {
  const SolveRequest& req;
  std::unique_ptr<Space>& space;
  SolveResult& out;
};

void run_bibfs(const Job& j, const search::Limits& lim) {
  const SolveRequest& req = j.req;
  auto& space = j.space;
  SolveResult& out = j.out;
  space = std::make_unique<Space>(*req.d, *req.ms, req.goal, std::uint64_t{256} << 20, lim.threads, lim.deadline);
  RankPathDomain dom(*req.ms, *space, space->rank(req.goal));
  out.path = search::bidirectional_bfs(dom, space->rank(req.start), lim);
  if (!out.path.found && out.path.exhausted) {
    out.proved_unreachable = true;
    out.reason = "the goal is not reachable from the start (the search exhausted the start's positions)";
  }
}

void run_heuristic(const Job& j, const search::Limits& lim, const std::string& kind);
void run_idastar(const Job& j, const search::Limits& lim) { run_heuristic(j, lim, "idastar"); }

// IDA* over pattern databases, or (kind "wastar", "wida", "greedy", "beam") a non-optimal search over
// the same lower bound.
void run_heuristic(const Job& j, const search::Limits& lim, const std::string& kind) {
  const SolveRequest& req = j.req;
  const Definition& d = *req.d;
  const MoveSet& ms = *req.ms;
  SolveResult& out = j.out;
  // Cached piece tables of this instance (`pdb build`) when there are any that fit half the
  // memory budget; else projection tables built now.
  CachedTables cached;
  if (req.use_cache) cached = load_cached_tables(d, ms, req.goal, table_memory(lim.memory), lim);
  for (const auto& why : cached.left_out)
    out.notes.push_back(fmt::format("left out the cached table {} (another layout, or damaged: `tansaku pdb build "
                                    "perm:{} --force` rebuilds it)",
                                    why, d.name));
  if (!cached.empty()) out.tables_read = cached.read_bytes;
  auto& pieces = cached.pieces;
  auto& patterns = cached.patterns;
  if (patterns.size() > kMaxPieceTables) patterns.resize(kMaxPieceTables);
  if (pieces.size() + patterns.size() > kMaxPieceTables) pieces.resize(kMaxPieceTables - patterns.size());
  std::vector<std::unique_ptr<PatternDb>> pdbs;
  if (!cached.too_big.empty()) {
    // A table on disk this solve's memory cannot hold: said, with the budget that would.
    out.hint = fmt::format(
        "the cached table {} ({}) does not fit this solve's memory: a solve takes tables up to "
        "seven eighths of --memory, so `--memory {}` or more uses it",
        cached.too_big.filename().string(), format_size(cached.too_big_bytes), solve_memory_for(cached.too_big_bytes));
  }
  if (cached.empty()) {
    if (req.use_cache && out.hint.empty())
      out.hint = fmt::format(
          "no cached tables for this instance: `tansaku pdb build perm:{}` (with the same --moves, "
          "--metric, --goal) builds them once, and solves then load them",
          d.name);
    pdbs = make_pattern_dbs(d, ms, req.goal, req.pdb_budget, lim, req.use_cache);
  }
  if (!out.hint.empty() && lim.proved) lim.proved->hint = out.hint;  // said also when a limit stops the search
  for (const auto& p : pdbs)
    out.heuristics.push_back(fmt::format("{} ({} states, max {})", p->description(), p->size(), p->max_value()));
  // Lookups: every table at the position, then (goal Solved, distinct pieces, a companion
  // .sym file) at its conjugates, for the tables that do not hold every piece of their set
  // that moves (those give the same value at a conjugate).
  const std::vector<Symmetry> syms = cached.empty() ? std::vector<Symmetry>{} : load_symmetries(d, ms, req.goal);
  std::vector<Context::Lookup> lookups;
  std::vector<Position> roots;
  std::vector<const Perm*> conj_by;  // per lookup: the symmetry it is looked up at (null: the position)
  for (const auto& t : patterns) lookups.push_back({nullptr, t.get(), nullptr}), roots.push_back(req.start), conj_by.push_back(nullptr);
  for (const auto& t : pieces) lookups.push_back({t.get(), nullptr, nullptr}), roots.push_back(req.start), conj_by.push_back(nullptr);
  const std::size_t own = lookups.size();
  for (const auto& sym : syms) {
    const Position q = conjugate(d, sym.p, req.start);
    for (const auto& t : patterns) {
      if (lookups.size() >= kMaxPieceTables) break;
      // The same value at the conjugate: every moving piece kept, or the symmetry maps the
      // pattern onto itself.
      if (t->domain().whole()) continue;
      if (t->domain().reduction() && t->domain().reduction()->preserved_by(sym.p)) continue;
      lookups.push_back({nullptr, t.get(), &sym.conj});
      roots.push_back(q);
      conj_by.push_back(&sym.p);
    }
    for (const auto& t : pieces) {
      if (lookups.size() >= kMaxPieceTables) break;
      if (t->domain().whole()) continue;
      lookups.push_back({t.get(), nullptr, &sym.conj});
      roots.push_back(q);
      conj_by.push_back(&sym.p);
    }
  }
  // A lookup's exact value at position p (-1: outside its table's space).
  auto exact_at = [&](std::size_t i, const Position& p) {
    const Context::Lookup& lk = lookups[i];
    std::uint64_t r = 0;
    return lk.table ? lk.table->exact(p) : lk.pattern->domain().rank(p, r) ? lk.pattern->exact(r) : -1;
  };
  Context::Exact exact{};
  for (std::size_t i = 0; i < lookups.size(); ++i) {
    const Context::Lookup& lk = lookups[i];
    if (!lk.conj) {
      const std::string what = lk.table ? lk.table->description() : lk.pattern->description(d);
      const std::uint64_t states = lk.table ? lk.table->domain().size() : lk.pattern->domain().size();
      const int max = lk.table ? lk.table->max_distance() : lk.pattern->max_distance();
      const bool four = lk.exact_cells();
      out.heuristics.push_back(
          fmt::format("cached {} ({} states, {}, max {})", what, states, four ? "4 bits, exact" : "2 bits", max));
      out.table_bytes = std::max<std::uint64_t>(out.table_bytes, lk.bytes());
    }
    const int e = exact_at(i, roots[i]);
    if (e < 0) {
      out.proved_unreachable = true;
      out.reason = "the start's projection onto some pieces is not reachable from the goal's (a piece table)";
      return;
    }
    exact[i] = static_cast<std::uint8_t>(e);
  }
  if (lookups.size() > own) {
    std::string names;
    for (const auto& sym : syms) names += (names.empty() ? "" : " ") + sym.name;
    out.heuristics.push_back(fmt::format("{} conjugate lookups (symmetries {})", lookups.size() - own, names));
  }
  for (const auto& p : pdbs) out.table_bytes = std::max<std::uint64_t>(out.table_bytes, p->size());
  Context c{&d,      &ms,   &pdbs, &lookups, req.goal, {}, {}, nullptr, {},
            nullptr, false, false, false,    false,    {}, {}, {},      {}};
  for (int i = 0; i < d.positions; ++i) {
    bool moved = false;
    for (const auto& g : ms.gens) moved = moved || g.p.perm[static_cast<std::size_t>(i)] != i || g.p.twist[static_cast<std::size_t>(i)];
    if (moved) c.active.push_back(static_cast<std::uint8_t>(i));
  }
  for (const auto& g : ms.gens) c.base.push_back(g.base);
  // The move strings never played (move_pruning.h). One solution by IDA*: the redundant
  // strings, those that enumerate in an instant, deeper ones once an iteration grows. Else
  // the pairwise rules (--all and --count keep every optimal sequence: the same base move
  // twice only; so do Illegal rules, which an earlier string might break).
  const bool one = req.mode == search::SolutionMode::First && d.illegal.empty();
  const bool redundant = one && kind == "idastar";
  if (!redundant || req.prune_depth == 2) c.fsm = &pair_automaton(d, ms, one);
  else if (req.prune_depth > 2) c.fsm = &deep_pruning(d, ms, lim, req.use_cache, req.prune_depth);
  else c.fsm = &quick_pruning(d, ms);
  // A symmetric start: the symmetries fixing it (Context::fixing).
  if (redundant && std::is_sorted(ms.bases.begin(), ms.bases.end())) {
    std::vector<Perm> group;
    try {  // a companion file that does not make a usable group leaves the search as it was
      group = symmetry_group(d, ms, req.goal);
    } catch (const InputError&) {}
    for (std::size_t k = 1; k < group.size() && c.fixing.size() < 64; ++k) {
      if (!(conjugate(d, group[k], req.start) == req.start)) continue;
      std::vector<int> to = conjugated_moves(d, ms, group[k]);
      if (to.empty()) continue;
      c.fixing.push_back(group[k]);
      c.sym_move.push_back(std::move(to));
    }
    if (!c.fixing.empty())
      out.heuristics.push_back(fmt::format(
          "a symmetric start: {} symmetries fix it; moves they map onto one another are tried once", c.fixing.size()));
  }
  // The lookups that are 0 one move from the goal, per move (Context::last_move).
  bool inverses = !lookups.empty() && lookups.size() <= 32;
  for (const auto& g : ms.gens) inverses = inverses && g.inverse >= 0;
  for (std::size_t m = 0; inverses && m < ms.gens.size(); ++m) {
    const Position y = d.applied(ms.gens[m].p, req.goal);
    std::uint32_t zero = 0;
    for (std::size_t i = 0; i < lookups.size(); ++i)
      zero |= static_cast<std::uint32_t>(exact_at(i, conj_by[i] ? conjugate(d, *conj_by[i], y) : y) == 0) << i;
    if (!zero) {
      c.last_move.clear();
      break;
    }
    c.last_move.push_back(zero);
  }
  if (!inverses) c.last_move.clear();
  // Minimal sets only (a set that holds another is met whenever that one is).
  std::sort(c.last_move.begin(), c.last_move.end(), [](std::uint32_t a, std::uint32_t b) {
    return std::popcount(a) != std::popcount(b) ? std::popcount(a) < std::popcount(b) : a < b;
  });
  std::vector<std::uint32_t> minimal;
  for (const std::uint32_t m : c.last_move) {
    bool held = false;
    for (const std::uint32_t k : minimal) held = held || (k & m) == k;
    if (!held) minimal.push_back(m);
  }
  c.last_move = std::move(minimal);
  // Inverse lookups: one solution (the in-place search), every move's inverse a move, the
  // goal's pieces distinct; by default when some lookup has exact cells (a 4-bit pattern:
  // then at the inverse and its conjugates), and TANSAKU_PERM_INVERSE=0 turns them off.
  // TANSAKU_PERM_INVERSE=1 (or =exact: walking down the table for the exact value) adds the
  // 2-bit tables' residue bounds; those alone prune almost nothing (the cube's 17-move
  // scramble: 499 of 17.5 M nodes, for 15% more CPU; =exact: over 5 times slower), as most
  // nodes are left more than 3 moves.
  const Inverter inverter(d, req.goal);
  bool all_inverses = true;
  for (const auto& g : ms.gens) all_inverses = all_inverses && g.inverse >= 0;
  const char* inverse_env = std::getenv("TANSAKU_PERM_INVERSE");
  const std::string inverse_mode = inverse_env ? inverse_env : "";
  bool any_exact = false;
  for (const auto& lk : lookups) any_exact = any_exact || lk.inverse_worth();
  const bool residues = inverse_mode == "1" || inverse_mode == "exact";
  if (any_exact && inverter.valid()) {
    // The lookups at the inverse rank without a membership test: the start's inverse and
    // its conjugates must be in the tables' spaces (they are when the start is reachable,
    // which the solve checked; this is the same, cheaply, once).
    Position y;
    inverter.invert(req.start, y);
    for (std::size_t i = 0; i < lookups.size() && any_exact; ++i) {
      std::uint64_t r = 0;
      if (lookups[i].exact_cells() &&
          !lookups[i].pattern->domain().rank(conj_by[i] ? conjugate(d, *conj_by[i], y) : y, r))
        any_exact = false;
    }
  }
  if (const char* rounds_env = std::getenv("TANSAKU_PERM_ROUNDS")) c.rounds = std::max(1, std::atoi(rounds_env));
  if (const char* order_env = std::getenv("TANSAKU_PERM_ORDER")) c.order_by_value = std::string(order_env) != "0";
  if (kind == "idastar" && req.mode == search::SolutionMode::First && d.illegal.empty() && all_inverses &&
      inverter.valid() && lookups.size() > 0 && inverse_mode != "0" && (residues || any_exact)) {
    c.inverter = &inverter;
    c.inverse_exact = inverse_mode == "exact";
    c.inverse_residues = residues;
    c.inverse_cells = any_exact;
    // At the inverse alone by default: its conjugates halve the nodes again but cost more
    // than they save (the cube's 17-move scramble: 13.2 M nodes, 56.5 s user; with them
    // 7.5 M, 65.8 s).
    c.inverse_conjugates = inverse_mode == "conjugates";
    const char* batch_env = std::getenv("TANSAKU_PERM_INVERSE_BATCH");
    c.inverse_batch = any_exact && !residues && !(batch_env && std::string(batch_env) == "0");
    c.conj_by = conj_by;
    c.conjugator_of.assign(lookups.size(), -1);
    c.conjugators.reserve(lookups.size());
    for (std::size_t i = 0; i < lookups.size(); ++i)
      if (conj_by[i] && lookups[i].exact_cells()) {
        c.conjugator_of[i] = static_cast<int>(c.conjugators.size());
        c.conjugators.emplace_back(d, *conj_by[i]);
      }
    std::size_t at = 0;
    for (const auto& lk : lookups) {
      if (lk.table) c.goal_cell.push_back(lk.table->domain().goal_rank());
      else c.goal_cell.push_back(lk.pattern->domain().cell(lk.pattern->domain().goal_rank()));
      at += !lk.conj && (residues || lk.exact_cells());
      at += lk.conj && lk.exact_cells() && c.inverse_conjugates;
    }
    out.heuristics.push_back(
        fmt::format("{} inverse lookups (the tables at the position's inverse{})", at,
                    any_exact && lookups.size() > own && c.inverse_conjugates ? " and its conjugates" : ""));
  }
  if (!c.last_move.empty())
    out.heuristics.push_back(fmt::format("one more when the lookups meet at their maximum ({} kinds of last move)", c.last_move.size()));
  if (kind != "idastar") {
    Copying dom(c);
    Copying::State root{req.start, search::MoveAutomaton::kStart, exact, c.h(req.start)};
    for (std::size_t i = 0; i < lookups.size(); ++i)
      if (!lookups[i].conj) root.h = std::max<int>(root.h, exact[i]);
    const ByPosition by(c);
    const ByPosition::State r0{root};
    if (kind == "beam") out.path = search::beam_search(by, r0, req.knobs.beam_width, lim);
    else if (kind == "greedy") out.path = search::greedy_best_first(by, r0, lim);
    else if (kind == "wida")
      out.path = search::weighted_ida_star(by, r0, req.knobs.weight_num, req.knobs.weight_den, lim);
    else out.path = search::weighted_astar(by, r0, req.knobs.weight_num, req.knobs.weight_den, lim);
    out.path.optimal = false;
    if (kind == "wastar" || kind == "wida")
      out.path.bound = static_cast<double>(req.knobs.weight_num) / static_cast<double>(req.knobs.weight_den);
    return;
  }
  if (req.mode == search::SolutionMode::First && d.illegal.empty()) {
    InPlace root(c, req.start, roots, exact);
    search::InPlaceIdaOptions io;
    const bool deepen = !req.prune_depth && deeper_pruning_pays(d, ms);
    io.before_iteration = [&](int, std::uint64_t last) {
      if (!deepen || last < kDeepPruningAfter || c.fsm->depth() >= kDeepPruningDepth) return;
      const search::MoveAutomaton& deep = deep_pruning(d, ms, lim, req.use_cache);
      if (deep.depth() > c.fsm->depth()) c.fsm = &deep;
    };
    // The inverse position as a second root (search::ida_star_inplace_dual): as far from the
    // goal, its solutions the inverted solutions of the start, its iterations up to 1.6
    // times smaller or larger on the cube (TANSAKU_PERM_DUAL=0: the start alone, for
    // comparisons).
    const char* dual_env = std::getenv("TANSAKU_PERM_DUAL");
    if (all_inverses && inverter.valid() && !(dual_env && std::string(dual_env) == "0")) {
      Position y;
      inverter.invert(req.start, y);
      std::vector<Position> dual_roots;
      Context::Exact dual_exact{};
      bool inside = true;
      for (std::size_t i = 0; i < lookups.size(); ++i) {
        dual_roots.push_back(conj_by[i] ? conjugate(d, *conj_by[i], y) : y);
        const int e = exact_at(i, dual_roots.back());
        inside = inside && e >= 0;
        dual_exact[i] = static_cast<std::uint8_t>(std::max(e, 0));
      }
      if (inside) {
        InPlace dual(c, y, dual_roots, dual_exact);
        bool from_dual = false;
        out.path = search::ida_star_inplace_dual(root, dual, from_dual, io, lim);
        out.from_inverse = from_dual;
        if (from_dual) {  // a solution of the inverse, inverted: its moves' inverses, last first
          std::reverse(out.path.moves.begin(), out.path.moves.end());
          for (int& m : out.path.moves) m = ms.gens[static_cast<std::size_t>(m)].inverse;
        }
        out.prune_depth = c.fsm->depth();
        return;
      }
    }
    out.path = search::ida_star_inplace(root, io, lim);
    out.prune_depth = c.fsm->depth();
  } else {
    Copying dom(c);
    search::IdaOptions io;
    io.mode = req.mode;
    Copying::State root{req.start, search::MoveAutomaton::kStart, exact, c.h(req.start)};
    for (std::size_t i = 0; i < lookups.size(); ++i)
      if (!lookups[i].conj) root.h = std::max<int>(root.h, exact[i]);
    out.path = search::ida_star(dom, root, io, lim);
  }
}

void run_two_phase(const Job& j, const search::Limits& lim) {
  TwoPhaseOptions o;
  o.max_length = j.req.max_length;
  o.use_cache = j.req.use_cache;
  two_phase_solve(*j.req.d, *j.req.ms, j.req.start, j.req.goal, o, lim, j.out);
}

void run_subgoal(const Job& j, const search::Limits& lim) {
  subgoal_solve(*j.req.d, *j.req.ms, j.req.start, j.req.goal, lim, j.out);
}

// In the order of the automatic choice: bidirectional BFS over the ranked space for one
// solution when it has at most req.bibfs_limit positions, else IDA* over pattern databases.
const SolverTable<Job, void>& table() {
  // A non-optimal search: one solution, never the automatic choice.
  const auto heuristic = [](const char* name, std::vector<std::string> aliases, const char* summary) {
    return SolverEntry<Job, void>{
        {name, std::move(aliases), summary, kSolve, false, false,
         std::string(name) == "greedy" || std::string(name) == "beam"},
        nullptr,
        [](const Job&) { return false; },
        [name = std::string(name)](const Job& j, const search::Limits& lim) { run_heuristic(j, lim, name); }};
  };
  static const SolverTable<Job, void> t = {
      {{"bibfs",
        {"bidirectional", "bidirectional-bfs", "bi-bfs"},
        "bidirectional BFS over the ranked space: the default up to 2^22 positions"},
       [](const Job& j) -> std::string {
         if (!j.space) return "bidirectional search needs a space of at most 2^64 positions";
         if (!j.req.d->illegal.empty()) return "bidirectional search does not keep out of Illegal positions";
         return "";
       },
       [](const Job& j) { return j.space->size() <= j.req.bibfs_limit; },
       run_bibfs},
      {{"idastar",
        {"ida*", "ida-star", "ida"},
        "IDA* over pattern databases (projections onto groups of pieces); --all, --count",
        kSolve,
        true,
        true},
       nullptr,
       nullptr,
       run_idastar},
      {{"two-phase",
        {"twophase", "kociemba"},
        "through a subgroup the definition declares (the 3x3x3: <U,D,R2,L2,F2,B2>): into it, then within it; any "
        "cube in a fraction of a second, not proved least: the shortest found in 0.1 s, or --max-length N",
        kSolve,
        false,
        false,
        true},
       [](const Job& j) { return two_phase_refusal(*j.req.d, *j.req.ms, j.req.goal); },
       [](const Job&) { return false; },
       run_two_phase},
      {{"subgoal",
        {"piece-by-piece", "stages"},
        "piece by piece: a few pieces at a time put in place and kept, each stage an IDA* over small tables of its "
        "pieces' places; fast where the other bounds wander (perm:topspin), no bound on the length",
        kSolve,
        false,
        false,
        true},
       nullptr,
       [](const Job&) { return false; },
       run_subgoal},
      heuristic("wastar", {"weighted-astar", "wa*", "weighted-a*"},
                "weighted A* over the same pattern databases: length at most --weight W (default 2) times the optimum"),
      heuristic("wida", {"weighted-idastar", "wida*", "weighted-ida*"},
                "weighted IDA* over the same pattern databases: length at most --weight W (default 2) times the "
                "optimum, in little memory"),
      heuristic("greedy", {"greedy-best-first", "gbfs"},
                "greedy best-first over the same pattern databases: fast, no bound"),
      heuristic(
          "beam", {"beam-search"},
          "beam search over the same pattern databases: the --beam-width N (default 1000) best positions per depth"),
  };
  return t;
}

// A lower bound known before any phase a limit can stop: a move changes the contents of at
// most `support` positions (those it moves or twists), so a start differing from the goal
// at `wrong` positions needs at least ceil(wrong / support) moves.
std::int64_t support_bound(const Definition& d, const MoveSet& ms, const Position& start, const Position& goal) {
  int support = 0, wrong = 0;
  for (const auto& g : ms.gens) {
    int n = 0;
    for (int i = 0; i < d.positions; ++i)
      n += g.p.perm[static_cast<std::size_t>(i)] != i || g.p.twist[static_cast<std::size_t>(i)] != 0;
    support = std::max(support, n);
  }
  for (int i = 0; i < d.positions; ++i)
    wrong += start.lab[static_cast<std::size_t>(i)] != goal.lab[static_cast<std::size_t>(i)] ||
             start.ori[static_cast<std::size_t>(i)] != goal.ori[static_cast<std::size_t>(i)];
  return support == 0 ? 0 : (wrong + support - 1) / support;
}

}  // namespace

std::vector<SolverSpec> solvers() { return solver_specs(table()); }

SolveResult solve(const SolveRequest& req, const search::Limits& lim) {
  const Definition& d = *req.d;
  const MoveSet& ms = *req.ms;
  SolveResult out;
  // Proved before the membership test and the tables, so that a limit stopping either still
  // says what was proved.
  if (lim.proved) lim.proved->raise(support_bound(d, ms, req.start, req.goal));
  if (const int line = d.broken_rule(req.start))
    throw InputError(fmt::format("the start breaks the Illegal rule of {}:{}", d.file, line));
  if (const int line = d.broken_rule(req.goal))
    throw InputError(fmt::format("the goal breaks the Illegal rule of {}:{}", d.file, line));
  if (ms.gens.size() > static_cast<std::size_t>(InPlace::kMaxMoves))
    throw InputError(fmt::format("{} has {} moves; at most {} are supported", d.name, ms.gens.size(), InPlace::kMaxMoves));
  // Membership (distinct pieces per set: Schreier-Sims on the stickers decides it exactly).
  std::string order;
  const std::optional<bool> member = reachable(d, ms, req.goal, req.start, &order, lim.deadline);
  // The goal's ranked space decides the invariants (and small spaces are searched whole).
  // Not built when the start is reachable and the group is too large for the bidirectional
  // search to be chosen: then it would only be checked, at the cost of enumerating the
  // space's tied coordinates (most of a small puzzle's solve with cached tables: the skewb).
  std::unique_ptr<Space> space;
  const bool ida_anyway = member == true &&
                          (req.algorithm.empty() || req.algorithm == "idastar" || req.algorithm == "two-phase" ||
                           req.algorithm == "subgoal") &&
                          (order.size() > 19 || std::stoull(order) > req.bibfs_limit);
  try {
    if (!ida_anyway) space = std::make_unique<Space>(d, ms, req.goal, 0, 1, lim.deadline);
  } catch (const InputError&) {
    space.reset();  // beyond 64 bits: no invariant check, IDA* only
  }
  if (space && !space->contains(req.start)) {
    out.proved_unreachable = true;
    out.algorithm = "invariants";
    out.reason = "the start differs from the goal in an invariant of the moves (the pieces an orbit of positions holds, "
                 "a permutation parity or an orientation sum)";
    return out;
  }
  // Membership: a start no product of the moves reaches is refused before any search
  // (distinct pieces per set: Schreier-Sims on the stickers decides it exactly).
  if (member == false) {
    out.proved_unreachable = true;
    out.algorithm = "membership";
    out.reason = "the start is not reachable: no product of the moves takes the goal to it (Schreier-Sims membership test "
                 "on the stickers)";
    return out;
  }
  const Job job{req, space, out};
  const Want want = req.mode == search::SolutionMode::First ? Want::one
                    : req.mode == search::SolutionMode::All ? Want::all : Want::count;
  const auto& solver = choose(table(), req.algorithm, job, kSolve, want);
  out.algorithm = solver.spec.name;
  if (req.start == req.goal) {
    // Solved already: the empty sequence, the only one of length 0, with no table loaded
    // or built.
    out.path.found = true;
    out.path.cost = 0;
    out.path.all = {{}};
    out.path.count = 1;
    return out;
  }
  // Identical pieces (no membership test) in a space the bidirectional search takes whole:
  // another solver asked for is given only reachable starts (IDA* on one no move sequence
  // reaches would run to its limit and report a growing lower bound).
  if (!member && space && space->size() <= req.bibfs_limit && solver.spec.name != "bibfs" && d.illegal.empty()) {
    SolveResult probe;
    std::unique_ptr<Space> whole;
    run_bibfs(Job{req, whole, probe}, lim);
    if (probe.proved_unreachable) {
      out.proved_unreachable = true;
      out.algorithm = "bibfs";
      out.reason = fmt::format(
          "the start is not reachable: a breadth-first search from the goal does not meet it ({} "
          "was not run)",
          solver.spec.name);
      return out;
    }
  }
  solver.run(job, lim);
  return out;
}

}  // namespace tansaku::perm
