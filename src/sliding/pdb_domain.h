// The sliding-tile position as ida_star_inplace sees it, in the canonical frame (pdb.h):
// tiles named by their goal cells, the goal is the identity. Moves are played in place; the
// heuristic h = manhattan + 2 * max over views (a partition of the heuristic seen through
// the board or one of its reflections that fix the blank's goal cell) of the sum of that
// partition's table entries is updated per move: only the moved tile's group is re-ranked
// and looked up, in each view. A move that ends a redundant move string (move_fsm.h: at
// least the inverse of the last move) is never generated. child_h
// bounds a child's h view by view without playing the move, so most pruned children cost
// one lookup however many views there are.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <vector>

#include "sliding/move_fsm.h"
#include "sliding/pdb.h"
#include "tansaku/core/bits.h"

namespace tansaku::sliding::pdb {

// Read-only data every copy of a position shares.
struct Context {
  static constexpr int kMaxViews = 8, kMaxGroups = 64, kMaxParts = 4;
  int rows = 0, cols = 0, n = 0, blank = 0, views = 1, groups = 0, parts = 1;
  std::uint8_t adj[64][4] = {}, adj_count[64] = {};
  std::uint8_t md[64][64] = {};   // [label][cell]
  std::int8_t group_of[kMaxParts][64] = {};  // [partition][tile]; -1: not in a group (manhattan only)
  std::uint8_t sym[kMaxViews][64] = {};
  std::uint8_t view_part[kMaxViews] = {};  // the partition a view looks up
  struct Group {
    int k = 0, part = 0;
    std::uint8_t tiles[KPermRanker::kMaxPieces] = {};
    const TwoBitTable* cells = nullptr;
    const Reduction* red = nullptr;  // a reduced table's (its entries are indexed by its cells)
  };
  std::vector<Group> group;
  std::shared_ptr<const Heuristic> keep;  // keeps the tables alive
  // Move strings never played (move_fsm.h); depth 2: only the inverse of the last move.
  const search::MoveAutomaton* fsm = &MoveFsm::of_depth(2);

  Context(const Frame& f, std::shared_ptr<const Heuristic> h) : keep(std::move(h)) {
    rows = f.rows, cols = f.cols, n = f.n, blank = f.blank;
    views = static_cast<int>(std::min<std::size_t>(f.views.size(), kMaxViews));
    for (int c = 0; c < n; ++c) {
      const int r = c / cols, x = c % cols;
      auto add = [&](int to) { adj[c][adj_count[c]++] = static_cast<std::uint8_t>(to); };
      if (r > 0) add(c - cols);
      if (x > 0) add(c - 1);
      if (x + 1 < cols) add(c + 1);
      if (r + 1 < rows) add(c + cols);
      for (int L = 0; L < n; ++L)
        md[L][c] = L == blank ? 0 : static_cast<std::uint8_t>(std::abs(r - L / cols) + std::abs(x - L % cols));
    }
    for (auto& row : group_of) std::fill(std::begin(row), std::end(row), std::int8_t{-1});
    if (keep->tables.size() > static_cast<std::size_t>(kMaxGroups)) throw std::logic_error("pdb: too many groups");
    for (std::size_t j = 0; j < keep->tables.size(); ++j) {
      const auto& t = keep->tables[j];
      if (t->info().rows != rows || t->info().cols != cols || t->info().blank != blank)
        throw std::logic_error("pdb: table of another board");
      Group g;
      g.k = t->info().k();
      g.part = j < keep->part.size() ? keep->part[j] : 0;
      if (g.part < 0 || g.part >= kMaxParts) throw std::logic_error("pdb: too many partitions");
      parts = std::max(parts, g.part + 1);
      for (int i = 0; i < g.k; ++i) {
        g.tiles[i] = t->info().cells[i];
        if (group_of[g.part][g.tiles[i]] != -1) throw std::logic_error("pdb: groups overlap");
        group_of[g.part][g.tiles[i]] = static_cast<std::int8_t>(group.size());
      }
      g.cells = &t->cells();
      g.red = t->reduction();
      group.push_back(g);
    }
    groups = static_cast<int>(group.size());
    // Views: each partition through each symmetry, except a symmetry that maps the
    // partition onto itself (the same sum: the tables of a group and of its image agree on
    // mirrored placements).
    views = 0;
    for (int p = 0; p < parts; ++p) {
      std::vector<std::vector<std::uint8_t>> cells;
      for (std::size_t j = 0; j < keep->tables.size(); ++j)
        if (group[j].part == p) cells.push_back(keep->tables[j]->info().cells);
      for (std::size_t v = 0; v < f.views.size(); ++v) {
        if (v > 0 && maps_onto_itself(cells, f.views[v])) continue;
        if (views == kMaxViews) throw std::logic_error("pdb: too many views");
        std::copy(f.views[v].begin(), f.views[v].end(), sym[views]);
        view_part[views++] = static_cast<std::uint8_t>(p);
      }
    }
  }

  // The entry index of group g's placement given tile positions `pos`: its rank
  // (KPermRanker order), or a reduced table's cell.
  std::uint64_t rank(int g, const std::uint8_t* pos) const {
    const Group& G = group[g];
    if (G.red) return G.red->cell(pos);
    std::uint64_t used = 0, r = 0;
    for (int i = 0; i < G.k; ++i) {
      const int p = pos[G.tiles[i]];
      const std::uint64_t bit = std::uint64_t{1} << p;
      r = r * static_cast<std::uint64_t>(n - i) + static_cast<std::uint64_t>(p - std::popcount(used & (bit - 1)));
      used |= bit;
    }
    return r;
  }
  int excess(int g, std::uint64_t r) const { return static_cast<int>(group[g].cells->get4(r)); }
  // The blank's direction (MoveFsm::Dir) when it goes from cell `from` to the adjacent `to`.
  int dir(int from, int to) const {
    return to == from - cols ? MoveFsm::kUp : to == from - 1 ? MoveFsm::kLeft : to == from + 1 ? MoveFsm::kRight : MoveFsm::kDown;
  }
};

class Position {
 public:
  using Move = std::uint8_t;  // canonical cell the tile comes from (the blank's next cell)
  static constexpr int kMaxMoves = 4;
  struct Undo {
    std::int32_t fsm;
    std::uint8_t prev_blank, best_view;
    std::int16_t md, h;
    std::int16_t esum[Context::kMaxViews];
    std::uint64_t rank[Context::kMaxViews];
    std::int8_t e[Context::kMaxViews];
  };

  // `cells`: canonical cell -> canonical label (Frame::canonical).
  Position(const Context* ctx, const std::vector<std::uint8_t>& cells) : ctx_(ctx) {
    const int n = ctx->n;
    for (int c = 0; c < n; ++c) {
      cell_[c] = cells[c];
      if (cells[c] == ctx->blank) blank_ = static_cast<std::uint8_t>(c);
      md_ = static_cast<std::int16_t>(md_ + ctx->md[cells[c]][c]);
    }
    for (int v = 0; v < ctx->views; ++v) {
      for (int c = 0; c < n; ++c) vpos_[v][ctx->sym[v][cells[c]]] = ctx->sym[v][c];
      esum_[v] = 0;
      for (int g = 0; g < ctx->groups; ++g) {
        if (ctx->group[g].part != ctx->view_part[v]) continue;
        rank_[v][g] = ctx->rank(g, vpos_[v]);
        e_[v][g] = static_cast<std::int8_t>(ctx->excess(g, rank_[v][g]));
        esum_[v] = static_cast<std::int16_t>(esum_[v] + e_[v][g]);
      }
    }
    update_h();
  }

  int h() const { return h_; }
  bool is_goal() const { return md_ == 0; }  // every tile home
  int blank() const { return blank_; }
  int manhattan() const { return md_; }

  int moves(Move* out) const {
    int k = 0;
    for (int i = 0; i < ctx_->adj_count[blank_]; ++i) {
      const std::uint8_t c = ctx_->adj[blank_][i];
      if (ctx_->fsm->next(fsm_, ctx_->dir(blank_, c)) != MoveFsm::kDead) out[k++] = c;
    }
    return k;
  }

  // A lower bound of h after the tile at `from` moves into the blank, without playing the
  // move: the views are looked up one by one, the one that was largest here first, until
  // one lifts the bound above `limit` (most pruned children then cost one table lookup
  // instead of one per view); with all views looked up it is the child's h exactly.
  // When every view was looked up (the child is within the limit and will be played), the
  // ranks and entries are kept for apply(from).
  int child_h(Move from, int limit) {
    const Context& C = *ctx_;
    const int to = blank_, t = cell_[from];
    const int md = md_ + C.md[t][to] - C.md[t][from];
    int best = 0;
    pending_ = kNone;
    for (int i = 0; i < C.views; ++i) {
      const int v = i == 0 ? best_view_ : (i <= best_view_ ? i - 1 : i);
      const int tv = C.sym[v][t];
      const int g = C.group_of[C.view_part[v]][tv];
      int sum = esum_[v];
      if (g >= 0) {
        const std::uint8_t was = vpos_[v][tv];
        vpos_[v][tv] = C.sym[v][to];
        pending_rank_[v] = C.rank(g, vpos_[v]);
        pending_e_[v] = static_cast<std::int8_t>(C.excess(g, pending_rank_[v]));
        sum += pending_e_[v] - e_[v][g];
        vpos_[v][tv] = was;
      }
      best = std::max(best, sum);
      if (md + 2 * best > limit) return md + 2 * best;
    }
    pending_ = from;
    return md + 2 * best;
  }

  Undo apply(Move from) {
    const Context& C = *ctx_;
    Undo u;
    u.prev_blank = prev_blank_;
    u.fsm = fsm_;
    u.md = md_;
    u.h = h_;
    u.best_view = best_view_;
    const int to = blank_, t = cell_[from];
    fsm_ = C.fsm->next(fsm_, C.dir(to, from));
    C.fsm->prefetch(fsm_);  // read by moves() once the views below are updated
    cell_[to] = static_cast<std::uint8_t>(t);
    cell_[from] = static_cast<std::uint8_t>(C.blank);
    prev_blank_ = static_cast<std::uint8_t>(to);
    blank_ = from;
    md_ = static_cast<std::int16_t>(md_ + C.md[t][to] - C.md[t][from]);
    for (int v = 0; v < C.views; ++v) {
      const int tv = C.sym[v][t];
      vpos_[v][tv] = C.sym[v][to];
      u.esum[v] = esum_[v];
      const int g = C.group_of[C.view_part[v]][tv];
      if (g < 0) continue;
      u.rank[v] = rank_[v][g];
      u.e[v] = e_[v][g];
      const bool known = pending_ == from;  // looked up by child_h(from) just before
      const std::uint64_t r = known ? pending_rank_[v] : C.rank(g, vpos_[v]);
      const int e = known ? pending_e_[v] : C.excess(g, r);
      rank_[v][g] = r;
      esum_[v] = static_cast<std::int16_t>(esum_[v] + e - e_[v][g]);
      e_[v][g] = static_cast<std::int8_t>(e);
    }
    pending_ = kNone;
    update_h();
    return u;
  }

  void undo(Move from, const Undo& u) {
    const Context& C = *ctx_;
    const int to = prev_blank_, t = cell_[to];
    cell_[from] = static_cast<std::uint8_t>(t);
    cell_[to] = static_cast<std::uint8_t>(C.blank);
    blank_ = static_cast<std::uint8_t>(to);
    prev_blank_ = u.prev_blank;
    pending_ = kNone;
    fsm_ = u.fsm;
    md_ = u.md;
    h_ = u.h;
    best_view_ = u.best_view;
    for (int v = 0; v < C.views; ++v) {
      const int tv = C.sym[v][t];
      vpos_[v][tv] = C.sym[v][from];
      esum_[v] = u.esum[v];
      const int g = C.group_of[C.view_part[v]][tv];
      if (g < 0) continue;
      rank_[v][g] = u.rank[v];
      e_[v][g] = u.e[v];
    }
  }

 private:
  void update_h() {
    int best = esum_[0];
    best_view_ = 0;
    for (int v = 1; v < ctx_->views; ++v)
      if (esum_[v] > best) best = esum_[v], best_view_ = static_cast<std::uint8_t>(v);
    h_ = static_cast<std::int16_t>(md_ + 2 * best);
  }

  const Context* ctx_;
  std::uint8_t cell_[64] = {};
  std::uint8_t blank_ = 0, prev_blank_ = 255, best_view_ = 0;
  std::int32_t fsm_ = MoveFsm::kStart;  // the state of ctx_->fsm after the moves played
  // The move child_h looked up in every view (kNone: none), with its ranks and entries.
  static constexpr int kNone = 255;
  int pending_ = kNone;
  std::uint64_t pending_rank_[Context::kMaxViews] = {};
  std::int8_t pending_e_[Context::kMaxViews] = {};
  std::int16_t md_ = 0, h_ = 0;
  std::uint8_t vpos_[Context::kMaxViews][64] = {};
  std::int16_t esum_[Context::kMaxViews] = {};
  std::uint64_t rank_[Context::kMaxViews][Context::kMaxGroups] = {};
  std::int8_t e_[Context::kMaxViews][Context::kMaxGroups] = {};
};

}  // namespace tansaku::sliding::pdb
