// The peg Solver: goals and their descriptions, the quick proofs (classes, pagodas), the
// solver table, and solve / count / explore dispatched to the engines.
#include "peg/solver.h"

#include <bit>
#include <stdexcept>

#include <fmt/format.h>

#include "peg/verify.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/puzzles/solver_table.h"
#include "tansaku/search/beam_search.h"
#include "tansaku/search/best_first.h"
#include "tansaku/search/depth_first.h"
#include "tansaku/search/ida_star_tt.h"
#include "tansaku/search/weighted_ida.h"

namespace tansaku::peg {

Solver::Solver(Board bd) : bd_(std::move(bd)), group_(board_automorphisms(bd_)), classes_(bd_) {}

Goal Solver::anywhere(Bits start) const {
  Goal g;
  g.anywhere = true;
  const auto c = classes_.of(start);
  for (int h = 0; h < bd_.n; ++h)
    if (classes_.of(bd_.bit(h)) == c) g.finishers |= bd_.bit(h);
  return g;
}

Goal Solver::at(int hole) const { return exactly(bd_.bit(hole)); }

Goal Solver::exactly(Bits pegs) const {
  Goal g;
  g.anywhere = false;
  g.pegs = pegs;
  g.finishers = pegs;
  return g;
}

std::string Solver::describe(const Goal& g) const {
  if (g.anywhere) return "one peg anywhere";
  if (std::has_single_bit(g.pegs)) return fmt::format("one peg in hole {}", std::countr_zero(g.pegs));
  return format_position(bd_, g.pegs);
}

Symmetry Solver::goal_symmetry(const Goal& goal) const {
  return Symmetry(bd_, goal.anywhere ? group_ : Symmetry::stabiliser(group_, goal.pegs));
}

DemandBound Solver::demand(const Goal& goal) const {
  return DemandBound(bd_, goal.anywhere ? 0 : goal.pegs, goal.anywhere, goal.finishers);
}

int Solver::lower_bound(Bits pegs, const Goal& goal) const {
  auto sym = goal_symmetry(goal);
  auto dem = demand(goal);
  MoveDomain d(bd_, sym, goal, dem);
  return d.h(pegs);
}

std::string Solver::quick_proof(Bits start, const Goal& goal) const {
  const int have = std::popcount(start), need = goal.pegs_left();
  if (have < need) return fmt::format("the start has {} pegs, fewer than the goal's {}", have, need);
  if (goal.anywhere) {
    if (!goal.finishers)
      return fmt::format("position classes: no single peg is in the start's class (invariants: {} parity sums "
                         "that no jump changes)",
                         classes_.dimension());
    return "";
  }
  if (classes_.of(start) != classes_.of(goal.pegs))
    return fmt::format("position classes: the start and the goal differ in a parity sum that no jump changes "
                       "(class {:#x} vs {:#x})",
                       classes_.of(start), classes_.of(goal.pegs));
  return "";
}

PagodaSet Solver::pagodas(Bits start, const Goal& goal, const SolveParams& p, bool prune) const {
  const bool on = p.pagoda < 0 ? pagoda_enabled() : p.pagoda != 0;
  if (!on) return {};
  PagodaOptions po;
  if (!prune) po.playouts = 0;
  return find_pagodas(bd_, group_, start, goal, po);
}

std::string Solver::pagoda_reason(const Weights& w, Bits start, const Goal& goal) const {
  return fmt::format("pagoda function: no jump increases the weighted sum of the pegs, which is {} at the start but "
                     "{}{} {} (weights by hole: {})",
                     pagoda_value(w, start), goal.anywhere ? "at least " : "", pagoda_goal_value(w, goal),
                     goal.anywhere ? "for any one-peg finish" : "at the goal", format_weights(w));
}

namespace {

// Automatic choice: IDA* decides most problems within this many expansions (a second or
// two); past it, the exhaustive layered programme is usually faster, if it fits this.
constexpr std::uint64_t kAutoExpansions = std::uint64_t{1} << 20;
constexpr std::uint64_t kAutoLayeredMemory = std::uint64_t{3} << 30;

// Where pagoda pruning is used (measured by bench/peg_pagoda.sh): IDA* once it has run
// kPlainExpansions without deciding (below that the LPs cost more than they save); the
// layered programme and the count when the functions refute at least 45% of the positions
// sampled by random playouts (the English central game: 58%, which halves the layers;
// Try-Try to hole 3: 40%, 7% fewer positions; the triangles from their standard vacancy:
// a few per cent; below that the lane arithmetic costs more than the positions it removes).
constexpr std::uint64_t kPlainExpansions = std::uint64_t{1} << 15;
bool worth_it(const PagodaSet& set) { return set.samples > 0 && set.refuted * 20 >= set.samples * 9; }
// The layered programme and the count look for pruning functions from this many jumps on
// (shorter problems are exhausted in milliseconds).
constexpr int kPruneLayersFrom = 16;

// A transposition table sized to the board: small boards need little. At least 1 MiB, and
// half the budget at most: a budget below 2 MiB is refused before the search starts.
std::uint64_t table_bytes(const Board& bd, std::uint64_t memory) {
  require_memory(std::uint64_t{1} << 21, memory, "a peg solve (a transposition table of 1 MiB, and the search)");
  const std::uint64_t by_board = bd.n >= 40 ? (std::uint64_t{1} << 40) : (std::uint64_t{1} << bd.n) / 2;
  std::uint64_t t = std::min<std::uint64_t>(by_board, std::uint64_t{1} << 30);
  t = std::min(t, memory / 2);
  return std::max<std::uint64_t>(t, std::uint64_t{1} << 20);
}

}  // namespace

// One solve as the solver table sees it: the instance, and what the searches share and
// leave (the pagoda functions built on demand, the solution as jumps or as moves).
struct SolveJob {
  const Solver& s;
  Bits start;
  const Goal& goal;
  const Symmetry& gsym;  // the goal's symmetries (the domains keep a reference)
  const SolveParams& p;
  SolveOutcome& out;
  PagodaSet& pset;
  struct Found {
    bool built = false, found = false;
    PagodaPrune ida_prune;
    std::vector<int> jumps;               // the solution as jump indices (layered) ...
    std::vector<std::vector<int>> moves;  // ... or as moves (IDA*)
  };
  Found& f;
  CountOutcome* counted = nullptr;  // --count: the layered programme counts into it

  const Board& bd() const { return s.bd_; }
  // The pruning functions, once a search turns out not to be trivial.
  void build() const {
    if (f.built) return;
    f.built = true;
    pset = s.pagodas(start, goal, p, true);
    f.ida_prune = PagodaPrune::for_search(bd(), pset, goal, {s.group_[0]});
  }
  // Jumps metric: IDA* with a table of dead positions, plain for a while, then pruned.
  void ida_jumps(const search::Limits& lim) const {
    JumpDomain d(bd(), gsym, goal);
    search::TtOptions to;
    to.table_bytes = table_bytes(bd(), lim.memory);
    to.max_expanded = kPlainExpansions;
    auto res = search::ida_star_tt(d, start, to, lim);
    out.nodes = res.stats.expanded;
    if (!res.found && !res.exhausted) {
      build();
      d.set_prune(&f.ida_prune);
      if (f.ida_prune.active()) out.pagoda_functions = static_cast<int>(pset.functions.size());
      to.max_expanded = 0;
      res = search::ida_star_tt(d, start, to, lim);
      out.nodes += res.stats.expanded;
    }
    out.method = "depth-first search + table of dead positions";
    if (res.found) {
      f.found = true;
      for (auto ji : res.moves) f.jumps.push_back(ji);
    }
  }
  // Moves metric: IDA* + table, up to max_expanded expansions (0: no bound); true if decided.
  bool ida_once(std::uint64_t max_expanded, bool prune, const search::Limits& lim) const {
    const DemandBound dem = s.demand(goal);
    MoveDomain d(bd(), gsym, goal, dem);
    if (prune) {
      d.set_prune(&f.ida_prune);
      if (f.ida_prune.active()) out.pagoda_functions = static_cast<int>(pset.functions.size());
    }
    search::TtOptions to;
    to.table_bytes = table_bytes(bd(), lim.memory);
    to.max_expanded = max_expanded;
    auto res = search::ida_star_tt(d, start, to, lim);
    out.nodes += res.stats.expanded;
    if (res.found) {
      f.found = true;
      Bits b = start;
      for (const auto& m : res.moves) {
        auto chain = d.chain_of(b, m);
        if (chain.empty()) throw std::logic_error("peg: a move's jumps could not be recovered");
        f.moves.push_back(chain);
        b = m.after;
      }
    }
    return res.found || res.exhausted;
  }
  // A non-optimal search (kind "wastar", "wida", "greedy", "beam" or "dfs") over the metric's domain and
  // its lower bound, without the pruning functions.
  template <class D>
  search::PathResult<typename D::Move> heuristic_path(const D& d, const std::string& kind,
                                                      const search::Limits& lim) const {
    search::PathResult<typename D::Move> res;
    if (kind == "dfs") res = search::depth_first(d, start, lim);
    else if (kind == "beam") res = search::beam_search(d, start, p.beam_width, lim);
    else if (kind == "greedy") res = search::greedy_best_first(d, start, lim);
    else if (kind == "wida") res = search::weighted_ida_star(d, start, p.weight_num, p.weight_den, lim);
    else res = search::weighted_astar(d, start, p.weight_num, p.weight_den, lim);
    out.nodes += res.stats.expanded;
    out.optimal = false;
    if (kind == "wastar" || kind == "wida")
      out.bound = static_cast<double>(p.weight_num) / static_cast<double>(p.weight_den);
    return res;
  }
  void heuristic(const std::string& kind, const search::Limits& lim) const {
    out.algorithm = kind;
    if (p.metric == Metric::Jumps) {
      const JumpDomain d(bd(), gsym, goal);
      auto res = heuristic_path(d, kind, lim);
      if (res.found) {
        f.found = true;
        for (auto ji : res.moves) f.jumps.push_back(ji);
      }
      return;
    }
    const DemandBound dem = s.demand(goal);
    const MoveDomain d(bd(), gsym, goal, dem);
    auto res = heuristic_path(d, kind, lim);
    if (!res.found) return;
    f.found = true;
    Bits b = start;
    for (const auto& m : res.moves) {
      auto chain = d.chain_of(b, m);
      if (chain.empty()) throw std::logic_error("peg: a move's jumps could not be recovered");
      // A non-optimal path may move the same peg twice in a row: one move in this metric.
      if (!f.moves.empty() && f.moves.back().back() == chain.front())
        f.moves.back().insert(f.moves.back().end(), chain.begin() + 1, chain.end());
      else f.moves.push_back(chain);
      b = m.after;
    }
  }
  // IDA* without pagoda functions for a few expansions, then with them.
  bool ida(std::uint64_t max_expanded, const search::Limits& lim) const {
    if (ida_once(kPlainExpansions, false, lim)) return true;
    build();
    return ida_once(max_expanded ? max_expanded - kPlainExpansions : 0, true, lim);
  }
  // --count: every jump sequence to the goal, by the layered programme.
  void count(const search::Limits& lim) const {
    const Symmetry H(bd(), Symmetry::stabiliser(s.group_, start));
    const PagodaPrune prune = worth_it(pset) ? PagodaPrune::for_search(bd(), pset, goal, H.perms()) : PagodaPrune();
    if (prune.active()) counted->pagoda_functions = static_cast<int>(pset.functions.size());
    auto res = count_layers(bd(), H, start, goal, lim, prune.active() ? &prune : nullptr);
    counted->count = res.count;
    counted->positions = res.positions;
    counted->nodes = res.stats.generated;
  }
  void layered(const search::Limits& lim) const {
    const Symmetry H(bd(), Symmetry::stabiliser(s.group_, start));
    if (std::popcount(start) - goal.pegs_left() >= kPruneLayersFrom) build();
    const PagodaPrune prune = worth_it(pset) ? PagodaPrune::for_search(bd(), pset, goal, H.perms()) : PagodaPrune();
    if (prune.active()) out.pagoda_functions = static_cast<int>(pset.functions.size());
    auto res = min_moves_layers(bd(), H, start, goal, lim, prune.active() ? &prune : nullptr);
    out.nodes += res.stats.generated;
    out.positions = res.positions;
    if (res.found) f.found = true, f.jumps = res.jumps;
  }
};

namespace {

constexpr const char* kIda = "ida* + transposition table (corner and edge-pair bounds)";
constexpr const char* kLayered = "layered dynamic programme over jump counts";

// In the order of the automatic choice: for the moves metric IDA* for a while, then the
// layered programme within a modest memory budget, then IDA* without a limit; for the jumps
// metric IDA* (a depth-first proof).
const SolverTable<SolveJob, void>& table() {
  const auto moves_only = [](const char* name) {
    return [name](const SolveJob& j) -> std::string {
      return j.p.metric == Metric::Jumps && !j.counted ? fmt::format("--metric jumps uses idastar (a depth-first proof), not {}", name) : "";
    };
  };
  // A non-optimal search: one solution, never the automatic choice.
  const auto heuristic = [](const char* name, std::vector<std::string> aliases, const char* summary) {
    return SolverEntry<SolveJob, void>{
        {name, std::move(aliases), summary, kSolve, false, false,
         std::string(name) == "dfs" || std::string(name) == "greedy" || std::string(name) == "beam"},
        nullptr,
        [](const SolveJob&) { return false; },
        [kind = std::string(name)](const SolveJob& j, const search::Limits& lim) { j.heuristic(kind, lim); }};
  };
  static const SolverTable<SolveJob, void> t = {
      {{"auto",
        {},
        "IDA* for 2^20 expansions, then the layered programme within 3 GiB, then IDA* without a bound (default)"},
       moves_only("auto"),
       nullptr,
       [](const SolveJob& j, const search::Limits& lim) {
         if (j.ida(kAutoExpansions, lim)) {
           j.out.algorithm = "idastar", j.out.method = kIda;
           return;
         }
         try {
           j.out.algorithm = "layered";
           j.out.method = fmt::format("{} (ida* undecided after {} expansions)", kLayered, kAutoExpansions);
           search::Limits small = lim;
           small.memory = std::min(lim.memory, kAutoLayeredMemory);
           j.layered(small);
         } catch (const LimitError&) {
           if (lim.deadline && lim.deadline->expired()) throw;
           j.out.algorithm = "idastar";
           j.out.method = fmt::format("{} (the layered programme outgrew {})", kIda, format_size(kAutoLayeredMemory));
           j.ida(0, lim);
         }
       }},
      {{"layered",
        {"dp", "bfs", "layers"},
        "exhaustive layers of positions by pegs left: least moves with a proof, or --count",
        kSolve,
        false,
        true},
       moves_only("layered"),
       nullptr,
       [](const SolveJob& j, const search::Limits& lim) {
         if (j.counted) return j.count(lim);
         j.out.algorithm = "layered", j.out.method = kLayered;
         j.layered(lim);
       }},
      {{"idastar",
        {"ida*", "ida", "ida-star"},
        "IDA* with a table of dead positions (the only solver for --metric jumps)"},
       nullptr,
       nullptr,
       [](const SolveJob& j, const search::Limits& lim) {
         j.out.algorithm = "idastar";
         if (j.p.metric == Metric::Jumps) return j.ida_jumps(lim);
         j.out.method = kIda;
         j.ida(0, lim);
       }},
      heuristic("wastar", {"weighted-astar", "wa*", "weighted-a*"},
                "weighted A* over the moves' lower bound: length at most --weight W (default 2) times the least"),
      heuristic("wida", {"weighted-idastar", "wida*", "weighted-ida*"},
                "weighted IDA* over the moves' lower bound: length at most --weight W (default 2) times the least, "
                "in little memory"),
      heuristic("dfs", {"depth-first"},
                "depth-first over the moves' lower bound with a table of dead positions: fast, no bound"),
      heuristic("greedy", {"greedy-best-first", "gbfs"},
                "greedy best-first over the moves' lower bound: fast, no bound"),
      heuristic("beam", {"beam-search"},
                "beam search: the --beam-width N (default 1000) best positions per move, no bound"),
  };
  return t;
}

}  // namespace

std::vector<SolverSpec> Solver::solvers() { return solver_specs(table()); }

SolveOutcome Solver::solve(Bits start, const Goal& goal, const SolveParams& p, const search::Limits& lim) const {
  SolveOutcome out;
  out.lower_bound = p.metric == Metric::Moves ? lower_bound(start, goal) : std::popcount(start) - goal.pegs_left();
  if (goal.reached(start)) {
    out.length = 0;
    out.algorithm = "none (the start is the goal)";
    return out;
  }
  if (auto why = quick_proof(start, goal); !why.empty()) {
    out.solvable = false;
    out.reason = why;
    out.algorithm = "position classes";
    return out;
  }
  // Pagoda functions: the proof first (one LP); the pruning functions only once a search
  // turns out not to be trivial (IDA* undecided after kPlainExpansions), or for the layered
  // programme when they refute enough sampled positions to pay for themselves.
  PagodaSet pset = pagodas(start, goal, p, false);
  if (pset.proof) {
    out.solvable = false;
    out.reason = pagoda_reason(*pset.proof, start, goal);
    out.algorithm = "pagoda function";
    out.pagoda_proof = pset.proof;
    return out;
  }
  SolveJob::Found f;
  const Symmetry gsym = goal_symmetry(goal);
  const SolveJob job{*this, start, goal, gsym, p, out, pset, f};
  choose(table(), p.algorithm, job).run(job, lim);
  if (!f.found) {
    out.solvable = false;
    out.reason = fmt::format("exhaustive search: no position reachable from the start reaches {}", describe(goal));
    return out;
  }
  std::vector<std::vector<int>> moves = std::move(f.moves);
  if (moves.empty()) moves = group_jumps(bd_, f.jumps);
  const Replay r = replay(bd_, start, moves);
  if (!goal.reached(r.end)) throw std::logic_error("verifier: the solution does not reach the goal");
  if (r.moves != static_cast<int>(moves.size()))
    throw std::logic_error("verifier: two consecutive moves are by the same peg");
  out.length = p.metric == Metric::Moves ? r.moves : r.jumps;
  out.moves = std::move(moves);
  return out;
}

CountOutcome Solver::count(Bits start, const Goal& goal, const SolveParams& p, const search::Limits& lim) const {
  CountOutcome out;
  SolveOutcome unused;
  PagodaSet pset;
  SolveJob::Found f;
  const Symmetry gsym = goal_symmetry(goal);
  const SolveJob job{*this, start, goal, gsym, p, unused, pset, f, &out};
  const auto& solver = choose(table(), p.algorithm, job, kSolve, Want::count);  // refuses a solver that cannot count
  out.algorithm = solver.spec.name;
  if (!quick_proof(start, goal).empty()) return out;
  if (goal.reached(start)) {
    out.count = 1;
    return out;
  }
  pset = pagodas(start, goal, p, std::popcount(start) - goal.pegs_left() >= kPruneLayersFrom);
  if (pset.proof) {
    out.pagoda_proof = pset.proof;
    return out;
  }
  solver.run(job, lim);
  return out;
}

ExploreLayers Solver::explore(Bits start, std::optional<int> finish, std::size_t keep, const search::Limits& lim) const {
  const Symmetry H(bd_, Symmetry::stabiliser(group_, start));
  return explore_layers(bd_, H, start, finish, true, keep, lim);
}

}  // namespace tansaku::peg
