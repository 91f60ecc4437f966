// Piece-by-piece solving (see subgoal.h): the stages from the definition, a small table per
// stage over its pieces' places, and the staged domain search/subgoal.h walks.
#include "perm/subgoal.h"

#include <algorithm>
#include <map>
#include <optional>
#include <queue>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/pdb/orbits.h"
#include "tansaku/search/subgoal.h"

namespace tansaku::perm {

namespace {

constexpr std::uint64_t kEndgameArrangements = 40320;  // arrangements of the endgame's pieces, at most
constexpr std::size_t kMacroNodes = 20000;             // positions the search for macros visits
constexpr std::size_t kMaxMacros = 256;                // the shortest macros kept
constexpr int kPerStage = 1;                           // pieces a stage puts in place
constexpr std::uint64_t kTableBudget = 65536;          // entries of a stage's table

// The positions some move changes (moves it elsewhere or turns the piece there).
std::vector<bool> active_positions(const Definition& d, const MoveSet& ms) {
  std::vector<bool> active(static_cast<std::size_t>(d.positions), false);
  for (const auto& g : ms.gens)
    for (int i = 0; i < d.positions; ++i) {
      const auto u = static_cast<std::size_t>(i);
      if (g.p.perm[u] != i || (g.p.twist[u] && d.omod[u] > 1)) active[u] = true;
    }
  return active;
}

// Whether the goal's piece at position i is the only one of its label in its set (a table
// can follow it).
bool unique_piece(const Definition& d, const Position& goal, int i) {
  const SetDef& sd = d.sets[static_cast<std::size_t>(d.set_of[static_cast<std::size_t>(i)])];
  int n = 0;
  for (int j = sd.offset; j < sd.offset + sd.size; ++j)
    n += goal.lab[static_cast<std::size_t>(j)] == goal.lab[static_cast<std::size_t>(i)];
  return n == 1;
}

// The distances to the goal of some pieces' places and orientations (the other pieces
// left out): a lower bound on the moves that put these pieces in place.
class PieceGroupTable {
 public:
  PieceGroupTable(const Definition& d, const MoveSet& ms, const Position& goal, const std::vector<int>& homes,
                  const std::vector<int>& orbit_of, const std::vector<int>& index_in_orbit,
                  const std::vector<std::vector<int>>& orbits)
      : d_(&d), homes_(homes), index_(index_in_orbit) {
    std::uint64_t size = 1;
    for (int h : homes_) {
      const auto u = static_cast<std::size_t>(h);
      const auto& orbit = orbits[static_cast<std::size_t>(orbit_of[u])];
      radix_.push_back(static_cast<std::uint64_t>(orbit.size()) * d.omod[u]);
      orbit_.push_back(&orbit);
      size *= radix_.back();
    }
    dist_.assign(size, kUnseen);
    // Backward breadth-first from the goal: a piece at i after a move stood at perm[i]
    // before it, turned by -twist[i].
    const std::uint64_t g = encode_homes(goal);
    dist_[g] = 0;
    std::vector<std::uint64_t> layer{g}, next;
    std::vector<int> at(homes_.size()), ori(homes_.size());
    for (int depth = 0; !layer.empty(); ++depth) {
      if (depth + 1 >= kUnseen) throw std::logic_error("perm subgoal: a table deeper than 254");
      next.clear();
      for (const std::uint64_t code : layer) {
        decode(code, at, ori);
        for (const auto& gen : ms.gens) {
          std::uint64_t c = 0, mul = 1;
          for (std::size_t k = 0; k < homes_.size(); ++k) {
            const auto u = static_cast<std::size_t>(at[k]);
            const int from = gen.p.perm[u];
            const int n = d.omod[u];
            const int o = ((ori[k] - gen.p.twist[u]) % n + n) % n;
            c += mul *
                 (static_cast<std::uint64_t>(index_[static_cast<std::size_t>(from)]) * static_cast<std::uint64_t>(n) +
                  static_cast<std::uint64_t>(o));
            mul *= radix_[k];
          }
          if (dist_[c] == kUnseen) {
            dist_[c] = static_cast<std::uint8_t>(depth + 1);
            next.push_back(c);
          }
        }
      }
      layer.swap(next);
      if (!layer.empty()) max_ = depth + 1;
    }
  }
  std::uint64_t size() const { return dist_.size(); }
  int max_value() const { return max_; }
  // The table's value for a position whose pieces stand at where[piece slot] (see Staged).
  int h(const Position& p, const std::vector<int>& where) const {
    std::uint64_t c = 0, mul = 1;
    for (std::size_t k = 0; k < homes_.size(); ++k) {
      const auto u = static_cast<std::size_t>(homes_[k]);
      const int x = where[u];
      const int n = d_->omod[u];
      c += mul * (static_cast<std::uint64_t>(index_[static_cast<std::size_t>(x)]) * static_cast<std::uint64_t>(n) +
                  p.ori[static_cast<std::size_t>(x)]);
      mul *= radix_[k];
    }
    return dist_[c];
  }

 private:
  static constexpr std::uint8_t kUnseen = 255;
  std::uint64_t encode_homes(const Position& goal) const {
    std::uint64_t c = 0, mul = 1;
    for (std::size_t k = 0; k < homes_.size(); ++k) {
      const auto u = static_cast<std::size_t>(homes_[k]);
      c += mul * (static_cast<std::uint64_t>(index_[u]) * d_->omod[u] + goal.ori[u]);
      mul *= radix_[k];
    }
    return c;
  }
  void decode(std::uint64_t c, std::vector<int>& at, std::vector<int>& ori) const {
    for (std::size_t k = 0; k < homes_.size(); ++k) {
      const auto digit = c % radix_[k];
      c /= radix_[k];
      const int n = d_->omod[static_cast<std::size_t>(homes_[k])];
      at[k] = (*orbit_[k])[static_cast<std::size_t>(digit / static_cast<std::uint64_t>(n))];
      ori[k] = static_cast<int>(digit % static_cast<std::uint64_t>(n));
    }
  }

  const Definition* d_;
  std::vector<int> homes_;  // the goal positions of the pieces followed
  const std::vector<int>& index_;
  std::vector<std::uint64_t> radix_;
  std::vector<const std::vector<int>*> orbit_;
  std::vector<std::uint8_t> dist_;
  int max_ = 0;
};

// A hash of the pieces (labels and orientations) at `at`.
std::uint64_t hash_at(const Position& p, const std::vector<int>& at) {
  std::uint64_t x = 1469598103934665603ull;
  for (int i : at) {
    const auto u = static_cast<std::size_t>(i);
    x = (x ^ (p.lab[u] * 256u + p.ori[u])) * 1099511628211ull;
  }
  return x;
}

// The endgame: the last pieces (at most 8, at the `free` positions) put in place by macros,
// sequences that move only them, found by meeting two sequences from the goal that leave the
// same pieces at every other position (the first, then the other undone). A table from the
// goal says, for each arrangement of the free pieces the macros reach, the macro that leads
// on to the goal.
class Endgame {
 public:
  Endgame(const Definition& d, const MoveSet& ms, const Position& goal, const std::vector<int>& placed,
          std::vector<int> free, std::size_t budget, const search::Limits& lim)
      : d_(d), goal_(goal), free_(std::move(free)) {
    for (int i : free_) index_of_[static_cast<std::size_t>(i)] = -1;
    for (std::size_t j = 0; j < free_.size(); ++j) {
      const auto u = static_cast<std::size_t>(free_[j]);
      piece_of_[key(u, goal.lab[u])] = static_cast<int>(j);  // labels are distinct in their sets
      index_of_[u] = static_cast<int>(j);
    }
    find_macros(ms, placed, budget, lim);
    fill_table(lim);
  }
  std::size_t macros() const { return macros_.size(); }
  // Whether the macros reach only even permutations of the free pieces: then the stages
  // before keep the permutation of the whole position even (as the goal's), as it is when
  // the pieces before the free ones are in place and the free ones are as the macros leave them.
  bool even_only() const { return even_only_; }
  // The packed arrangement of the free pieces in p (byte j: the piece at free_[j] by its
  // index in free_, its orientation in the high nibble); ~0 when a piece of another
  // position stands there.
  std::uint64_t pack(const Position& p) const {
    std::uint64_t k = 0;
    for (std::size_t j = 0; j < free_.size(); ++j) {
      const auto u = static_cast<std::size_t>(free_[j]);
      const int piece = piece_of_[key(u, p.lab[u])];
      if (piece < 0) return ~std::uint64_t{0};
      k |= static_cast<std::uint64_t>(piece | p.ori[u] << 4) << (8 * j);
    }
    return k;
  }
  // Whether the macros finish from p (its other pieces in place).
  bool finishes(const Position& p) const { return table_.count(pack(p)) != 0; }
  // The macros' moves from p (finishes(p)) to the goal.
  std::vector<int> finish(const Position& p) const {
    std::vector<int> out;
    for (std::uint64_t k = pack(p); k != goal_key_;) {
      const int m = table_.at(k);
      out.insert(out.end(), macros_[static_cast<std::size_t>(m)].moves.begin(),
                 macros_[static_cast<std::size_t>(m)].moves.end());
      k = apply(macros_[static_cast<std::size_t>(m)], k);
    }
    return out;
  }

 private:
  struct Macro {
    std::vector<int> moves;
    std::vector<int> from;  // [j]: the free index whose piece the macro brings to free_[j]
    std::vector<std::uint8_t> twist;
    std::vector<int> back_from;  // the same for the macro undone
    std::vector<std::uint8_t> back_twist;
  };
  // A piece by its set and label.
  std::size_t key(std::size_t position, int label) const {
    return static_cast<std::size_t>(d_.sets[static_cast<std::size_t>(d_.set_of[position])].offset + label);
  }
  std::uint64_t apply(const Macro& m, std::uint64_t k) const { return move(m.from, m.twist, k); }
  std::uint64_t move(const std::vector<int>& from, const std::vector<std::uint8_t>& twist, std::uint64_t k) const {
    std::uint64_t out = 0;
    for (std::size_t j = 0; j < free_.size(); ++j) {
      const std::uint64_t b = k >> (8 * from[j]) & 0xff;
      const int n = d_.omod[static_cast<std::size_t>(free_[j])];
      const std::uint64_t o = ((b >> 4) + twist[j]) % static_cast<std::uint64_t>(n);
      out |= ((b & 0xf) | o << 4) << (8 * j);
    }
    return out;
  }
  // The macro of `moves` (which keep every placed position) as it moves the free positions.
  void add(std::vector<int> moves, const MoveSet& ms) {
    Perm p = d_.identity();
    for (int g : moves) p = d_.compose(p, ms.gens[static_cast<std::size_t>(g)].p);
    const Perm q = d_.inverse(p);
    Macro m{std::move(moves), {}, {}, {}, {}};
    for (int i : free_) {
      const auto u = static_cast<std::size_t>(i);
      m.from.push_back(index_of_[p.perm[u]]);
      m.twist.push_back(p.twist[u]);
      m.back_from.push_back(index_of_[q.perm[u]]);
      m.back_twist.push_back(q.twist[u]);
    }
    macros_.push_back(std::move(m));
  }
  void find_macros(const MoveSet& ms, const std::vector<int>& placed, std::size_t budget, const search::Limits& lim) {
    struct Node {
      int parent, move;
    };
    std::vector<Node> nodes{{-1, -1}};
    auto word = [&](int n) {
      std::vector<int> w;
      for (; n > 0; n = nodes[static_cast<std::size_t>(n)].parent) w.push_back(nodes[static_cast<std::size_t>(n)].move);
      std::reverse(w.begin(), w.end());
      return w;
    };
    std::vector<int> all = placed;
    all.insert(all.end(), free_.begin(), free_.end());
    std::unordered_set<std::uint64_t> seen{hash_at(goal_, all)};
    std::unordered_map<std::uint64_t, int> by_placed{{hash_at(goal_, placed), 0}};
    std::map<std::uint64_t, std::vector<int>> best;  // arrangement the macro makes of the goal's -> moves
    goal_key_ = pack(goal_);
    std::vector<std::pair<Position, int>> layer{{goal_, 0}}, next;
    Position t, y;
    while (!layer.empty() && nodes.size() < budget) {
      next.clear();
      for (const auto& [x, n] : layer) {
        if (lim.deadline) lim.deadline->poll();
        for (int m = 0; m < static_cast<int>(ms.gens.size()) && nodes.size() < budget; ++m) {
          d_.apply(ms.gens[static_cast<std::size_t>(m)].p, x, t);
          if (!d_.legal(t) || !seen.insert(hash_at(t, all)).second) continue;
          nodes.push_back({n, m});
          const int id = static_cast<int>(nodes.size()) - 1;
          next.emplace_back(t, id);
          const auto [it, fresh] = by_placed.try_emplace(hash_at(t, placed), id);
          if (fresh) continue;
          // This sequence, then the other one undone.
          std::vector<int> w = word(id);
          const std::vector<int> v = word(it->second);
          Position z = t;
          for (auto r = v.rbegin(); r != v.rend(); ++r) {
            const int inv = ms.gens[static_cast<std::size_t>(*r)].inverse;
            w.push_back(inv);
            d_.apply(ms.gens[static_cast<std::size_t>(inv)].p, z, y);
            z = y;
          }
          bool kept = true;  // not only the hashes met
          for (int i : placed)
            kept = kept && z.lab[static_cast<std::size_t>(i)] == goal_.lab[static_cast<std::size_t>(i)] &&
                   z.ori[static_cast<std::size_t>(i)] == goal_.ori[static_cast<std::size_t>(i)];
          const std::uint64_t k = pack(z);
          if (!kept || k == goal_key_) continue;
          auto& b = best[k];
          if (b.empty() || w.size() < b.size()) b = std::move(w);
        }
      }
      layer.swap(next);
    }
    // The shortest ones (the table's search tries each at every arrangement).
    std::vector<std::vector<int>> words;
    for (auto& [k, w] : best) words.push_back(std::move(w));
    std::stable_sort(words.begin(), words.end(), [](const auto& a, const auto& b) { return a.size() < b.size(); });
    if (words.size() > kMaxMacros) words.resize(kMaxMacros);
    for (auto& w : words) add(std::move(w), ms);
  }
  // Dijkstra from the goal over the macros undone: table_[k] is the macro that starts the
  // shortest way from arrangement k to the goal.
  void fill_table(const search::Limits& lim) {
    std::unordered_map<std::uint64_t, int> dist{{goal_key_, 0}};
    using Item = std::pair<int, std::uint64_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
    queue.emplace(0, goal_key_);
    while (!queue.empty()) {
      const auto [g, k] = queue.top();
      queue.pop();
      if (g > dist[k]) continue;
      if (lim.deadline) lim.deadline->poll();
      for (std::size_t m = 0; m < macros_.size(); ++m) {
        const Macro& mac = macros_[m];
        const std::uint64_t before = move(mac.back_from, mac.back_twist, k);  // mac takes `before` to k
        const int nd = g + static_cast<int>(mac.moves.size());
        const auto it = dist.find(before);
        if (it != dist.end() && it->second <= nd) continue;
        dist[before] = nd;
        table_[before] = static_cast<int>(m);
        queue.emplace(nd, before);
      }
    }
    table_[goal_key_] = -1;
    even_only_ = true;
    for (const auto& [k, m] : table_) even_only_ = even_only_ && !odd(k);
  }
  // Whether the arrangement k moves the free pieces by an odd permutation.
  bool odd(std::uint64_t k) const {
    std::vector<bool> done(free_.size(), false);
    bool parity = false;
    for (std::size_t j = 0; j < free_.size(); ++j) {
      std::size_t n = 0;
      for (std::size_t x = j; !done[x]; x = k >> (8 * x) & 0xf, ++n) done[x] = true;
      if (n > 0) parity ^= (n - 1) % 2 == 1;
    }
    return parity;
  }

  const Definition& d_;
  Position goal_;
  std::vector<int> free_;
  std::array<int, kMaxPositions> piece_of_ = [] {  // [set offset + label]: the piece's index in free_
    std::array<int, kMaxPositions> a{};
    a.fill(-1);
    return a;
  }();
  std::array<int, kMaxPositions> index_of_{};  // [position]: its index in free_
  std::vector<Macro> macros_;
  std::unordered_map<std::uint64_t, int> table_;
  std::uint64_t goal_key_ = 0;
  bool even_only_ = false;
};

// The staged domain: stage k's goal is every position of stages 0..k holding the goal's
// piece with the goal's orientation; its bound the largest of the tables of stages 0..k.
class Staged {
 public:
  struct State {
    Position pos;
    int last = -1;  // the move that led here (-1: none), for the move pruning
    bool operator==(const State& o) const { return pos == o.pos; }
  };
  using Move = int;

  // end: the macros that finish the stages after these (null: none); the last stage's goal
  // then also asks that they finish from there.
  Staged(const Definition& d, const MoveSet& ms, const Position& goal, std::vector<std::vector<int>> stages,
         const std::vector<const PieceGroupTable*>& tables, const Endgame* end = nullptr)
      : d_(d), ms_(ms), goal_(goal), stages_(std::move(stages)), tables_(tables), end_(end) {
    for (const auto& g : ms.gens) base_.push_back(g.base);
    const std::vector<bool> active = active_positions(d, ms);
    for (int i = 0; i < d.positions; ++i)
      if (active[static_cast<std::size_t>(i)]) active_.push_back(i);
    for (int i = 0; i < d.positions; ++i)
      if (unique_piece(d, goal, i)) {
        const auto& sd = d.sets[static_cast<std::size_t>(d.set_of[static_cast<std::size_t>(i)])];
        home_of_[static_cast<std::size_t>(sd.offset + goal.lab[static_cast<std::size_t>(i)])] = i;
      }
  }
  int stages() const { return static_cast<int>(stages_.size()); }
  bool is_goal(const State& s, int k) const {
    for (int j = k; j >= 0; --j)  // the newest pieces first: they are the likeliest out of place
      for (int i : stages_[static_cast<std::size_t>(j)]) {
        const auto u = static_cast<std::size_t>(i);
        if (s.pos.lab[u] != goal_.lab[u] || s.pos.ori[u] != goal_.ori[u]) return false;
      }
    if (end_ && end_->even_only() && odd(s.pos)) return false;
    return !end_ || k + 1 < stages() || end_->finishes(s.pos);
  }
  // Whether p's pieces stand at their goal positions by an odd permutation.
  bool odd(const Position& p) const {
    std::array<std::uint8_t, kMaxPositions> to{}, done{};
    for (int x : active_) {
      const auto& sd = d_.sets[static_cast<std::size_t>(d_.set_of[static_cast<std::size_t>(x)])];
      to[static_cast<std::size_t>(x)] =
          static_cast<std::uint8_t>(home_of_[static_cast<std::size_t>(sd.offset + p.lab[static_cast<std::size_t>(x)])]);
    }
    bool parity = false;
    for (int x : active_) {
      std::size_t n = 0;
      for (auto y = static_cast<std::size_t>(x); !done[y]; y = to[y], ++n) done[y] = 1;
      if (n > 0) parity ^= (n - 1) % 2 == 1;
    }
    return parity;
  }
  int h(const State& s, int k) const {
    // where[home]: the position of the piece whose goal position is home.
    thread_local std::vector<int> where;
    where.assign(static_cast<std::size_t>(d_.positions), 0);
    for (int x : active_) {
      const auto& sd = d_.sets[static_cast<std::size_t>(d_.set_of[static_cast<std::size_t>(x)])];
      const int home = home_of_[static_cast<std::size_t>(sd.offset + s.pos.lab[static_cast<std::size_t>(x)])];
      if (home >= 0) where[static_cast<std::size_t>(home)] = x;
    }
    int best = 0;
    for (int j = 0; j <= k; ++j)
      if (tables_[static_cast<std::size_t>(j)])
        best = std::max(best, tables_[static_cast<std::size_t>(j)]->h(s.pos, where));
    return best;
  }
  template <class F>
  void for_each_move(const State& s, F&& f) const {
    State t;
    for (int m = 0; m < static_cast<int>(ms_.gens.size()); ++m) {
      if (!allowed(s.last, m)) continue;
      d_.apply(ms_.gens[static_cast<std::size_t>(m)].p, s.pos, t.pos);
      if (!d_.legal(t.pos)) continue;  // Illegal rules: never passed through
      t.last = m;
      f(m, t);
    }
  }
  void begin_stage(State& s) const { s.last = -1; }

 private:
  // Same base move twice in a row, or commuting moves out of their one order, are never
  // needed within a stage.
  bool allowed(int last, int m) const {
    if (last < 0) return true;
    if (ms_.redundant_pair(last, m)) return false;
    const int a = base_[static_cast<std::size_t>(last)], b = base_[static_cast<std::size_t>(m)];
    return !(a != b && b < a && ms_.commute[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)]);
  }

  const Definition& d_;
  const MoveSet& ms_;
  Position goal_;
  std::vector<std::vector<int>> stages_;
  std::vector<const PieceGroupTable*> tables_;  // per stage (null: no piece a table follows)
  const Endgame* end_;
  std::vector<int> base_, active_;
  std::array<int, kMaxPositions> home_of_ = [] {
    std::array<int, kMaxPositions> a{};
    a.fill(-1);
    return a;
  }();  // [set offset + label]: the goal position of that piece (-1: not unique)
};

// Orbits of positions under the moves.
std::vector<int> orbit_index(const Definition& d, const MoveSet& ms, std::vector<std::vector<int>>& orbits) {
  pdb::Orbits o(d.positions);
  for (const auto& g : ms.gens) o.join_all(g.p.perm);
  orbits = o.groups();
  std::vector<int> of(static_cast<std::size_t>(d.positions), -1);
  for (std::size_t k = 0; k < orbits.size(); ++k)
    for (int i : orbits[k]) of[static_cast<std::size_t>(i)] = static_cast<int>(k);
  return of;
}

// Moves of one base move next to each other (a stage's last and the next one's first)
// merged: their powers added, dropped when they make the identity.
std::vector<int> merged(const MoveSet& ms, const std::vector<int>& moves) {
  std::vector<int> out;
  for (int m : moves) {
    if (!out.empty()) {
      const Gen& a = ms.gens[static_cast<std::size_t>(out.back())];
      const Gen& b = ms.gens[static_cast<std::size_t>(m)];
      if (a.base == b.base) {
        const int power = (a.power + b.power) % a.order;
        if (power == 0) {
          out.pop_back();
          continue;
        }
        bool replaced = false;
        for (std::size_t g = 0; g < ms.gens.size() && !replaced; ++g)
          if (ms.gens[g].base == a.base && ms.gens[g].power == power) {
            out.back() = static_cast<int>(g);
            replaced = true;
          }
        if (replaced) continue;
      }
    }
    out.push_back(m);
  }
  return out;
}

}  // namespace

SubgoalPlan subgoal_plan(const Definition& d, const MoveSet& ms, const Position& goal, int per_stage,
                         std::uint64_t budget) {
  std::vector<std::vector<int>> orbits;
  orbit_index(d, ms, orbits);
  const std::vector<bool> active = active_positions(d, ms);
  // Ties between positions: a base move taking one to the other.
  std::vector<std::vector<int>> ties(static_cast<std::size_t>(d.positions),
                                     std::vector<int>(static_cast<std::size_t>(d.positions), 0));
  for (int b : ms.bases) {
    const Perm& p = d.moves[static_cast<std::size_t>(b)].p;
    for (int i = 0; i < d.positions; ++i) {
      const int j = p.perm[static_cast<std::size_t>(i)];
      if (j == i) continue;
      ++ties[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
      ++ties[static_cast<std::size_t>(j)][static_cast<std::size_t>(i)];
    }
  }
  std::vector<std::vector<int>> order;  // the active positions of each orbit
  for (const auto& orbit : orbits) {
    std::vector<int> cells;
    for (int i : orbit)
      if (active[static_cast<std::size_t>(i)]) cells.push_back(i);
    if (!cells.empty()) order.push_back(cells);
  }
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.size() < b.size(); });
  std::vector<int> sequence;
  for (auto cells : order) {
    // From the least position on, the one with the most ties to those placed (the least
    // position among equals).
    std::vector<int> placed{cells.front()};
    cells.erase(cells.begin());
    while (!cells.empty()) {
      auto best = cells.begin();
      int most = -1;
      for (auto it = cells.begin(); it != cells.end(); ++it) {
        int t = 0;
        for (int p : placed) t += ties[static_cast<std::size_t>(*it)][static_cast<std::size_t>(p)];
        if (t > most) most = t, best = it;
      }
      placed.push_back(*best);
      cells.erase(best);
    }
    sequence.insert(sequence.end(), placed.begin(), placed.end());
  }
  // Stages of `per_stage` pieces; each stage's table follows its pieces and those placed
  // just before them, as many as keep it within the budget.
  SubgoalPlan plan;
  auto radix = [&](int i) -> std::uint64_t {
    if (!unique_piece(d, goal, i)) return 0;  // no table follows it
    std::uint64_t r = 1;
    for (const auto& orbit : orbits)
      if (std::find(orbit.begin(), orbit.end(), i) != orbit.end()) r = orbit.size();
    return r * d.omod[static_cast<std::size_t>(i)];
  };
  for (std::size_t from = 0; from < sequence.size(); from += static_cast<std::size_t>(per_stage)) {
    const std::size_t to = std::min(sequence.size(), from + static_cast<std::size_t>(per_stage));
    plan.stages.emplace_back(sequence.begin() + static_cast<std::ptrdiff_t>(from),
                             sequence.begin() + static_cast<std::ptrdiff_t>(to));
    std::vector<int> table;
    std::uint64_t size = 1;
    for (std::size_t k = to; k-- > 0;) {
      const std::uint64_t r = radix(sequence[k]);
      if (r == 0) continue;
      if (size * r > budget) {
        if (k >= from) continue;  // a piece of the stage itself: left out
        break;
      }
      table.push_back(sequence[k]);
      size *= r;
    }
    plan.tables.push_back(std::move(table));
  }
  return plan;
}

namespace {

// The positions reached from `p` by `moves`.
Position replayed(const Definition& d, const MoveSet& ms, Position p, const std::vector<int>& moves) {
  Position q;
  for (int m : moves) {
    d.apply(ms.gens[static_cast<std::size_t>(m)].p, p, q);
    p = q;
  }
  return p;
}

}  // namespace

void subgoal_solve(const Definition& d, const MoveSet& ms, const Position& start, const Position& goal,
                   const search::Limits& lim, SolveResult& out) {
  std::vector<std::vector<int>> orbits;
  const std::vector<int> orbit_of = orbit_index(d, ms, orbits);
  std::vector<int> index(static_cast<std::size_t>(d.positions), 0);
  for (const auto& orbit : orbits)
    for (std::size_t k = 0; k < orbit.size(); ++k) index[static_cast<std::size_t>(orbit[k])] = static_cast<int>(k);
  const SubgoalPlan plan = subgoal_plan(d, ms, goal, kPerStage, kTableBudget);
  const auto& stages = plan.stages;
  std::vector<std::unique_ptr<PieceGroupTable>> owned;
  std::vector<const PieceGroupTable*> tables;
  std::uint64_t entries = 0;
  int most = 0;
  std::size_t widest = 0;
  for (std::size_t k = 0; k < stages.size(); ++k) {
    const auto& st = stages[k];
    const std::vector<int>& homes = plan.tables[k];
    widest = std::max(widest, st.size());
    if (lim.deadline) lim.deadline->check();
    if (homes.empty()) {
      tables.push_back(nullptr);
      continue;
    }
    owned.push_back(std::make_unique<PieceGroupTable>(d, ms, goal, homes, orbit_of, index, orbits));
    tables.push_back(owned.back().get());
    entries += owned.back()->size();
    most = std::max(most, owned.back()->max_value());
  }
  out.heuristics.push_back(
      fmt::format("{} stages of at most {} pieces, each bounded by tables over its pieces' places "
                  "({} tables, {} entries, max {})",
                  stages.size(), widest, owned.size(), entries, most));
  out.table_bytes = entries;
  // The endgame: the last stages' pieces, at most kEndgameArrangements arrangements of them,
  // by macros that keep every other piece (found in a breadth-first search of at most
  // kMacroNodes positions), when the definition allows (every piece distinct, every move's
  // inverse a move); the stages before it by the staged search.
  std::size_t endgame_from = stages.size();
  {
    bool distinct = true, inverses = true;
    for (const auto& st : stages)
      for (int i : st) distinct = distinct && unique_piece(d, goal, i);
    for (const auto& g : ms.gens) inverses = inverses && g.inverse >= 0;
    std::uint64_t arrangements = 1;
    std::size_t pieces = 0;
    while (distinct && inverses && endgame_from > 1) {
      const auto& st = stages[endgame_from - 1];
      std::uint64_t a = arrangements;
      for (int i : st) a *= ++pieces * d.omod[static_cast<std::size_t>(i)];
      if (a > kEndgameArrangements) break;
      arrangements = a;
      --endgame_from;
    }
  }
  std::vector<int> moves;
  Position at = start;
  if (endgame_from < stages.size()) {
    std::vector<int> placed, free;
    for (std::size_t k = 0; k < stages.size(); ++k)
      for (int i : stages[k]) (k < endgame_from ? placed : free).push_back(i);
    const Endgame end(d, ms, goal, placed, free, kMacroNodes, lim);
    const Staged first(d, ms, goal, {stages.begin(), stages.begin() + static_cast<std::ptrdiff_t>(endgame_from)},
                       {tables.begin(), tables.begin() + static_cast<std::ptrdiff_t>(endgame_from)}, &end);
    if (end.finishes(goal) && end.macros() > 0) {
      const auto head = search::subgoal_search(first, Staged::State{start, -1}, lim);
      out.path.stats = head.stats;
      if (!head.found) {
        out.path.exhausted = false;  // the endgame's condition is no proof
        return;
      }
      moves = head.moves;
      at = replayed(d, ms, start, moves);
      const std::vector<int> tail = end.finish(at);
      out.heuristics.push_back(
          fmt::format("the last {} pieces by {} macros that keep the others", free.size(), end.macros()));
      moves.insert(moves.end(), tail.begin(), tail.end());
      at = replayed(d, ms, at, tail);
    }
  }
  if (!(at == goal)) {  // no endgame, or its macros did not reach the goal: the stages go on
    const Staged dom(d, ms, goal, stages, tables);
    const auto rest = search::subgoal_search(dom, Staged::State{at, -1}, lim);
    out.path.stats.expanded += rest.stats.expanded;
    out.path.stats.generated += rest.stats.generated;
    if (!rest.found) {
      out.path.exhausted = rest.exhausted;
      return;
    }
    moves.insert(moves.end(), rest.moves.begin(), rest.moves.end());
  }
  out.path.found = true;
  out.path.optimal = false;
  out.path.count = 1;
  out.path.moves = merged(ms, moves);
  out.path.cost = static_cast<int>(out.path.moves.size());
}

}  // namespace tansaku::perm
