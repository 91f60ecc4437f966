// The peg family's solve and explore reports: the solver's answer (one least solution, a
// count, a proof by pagoda functions) verified through the typed Solution<Rules> and
// reported with the family's keys; explore's layers, their counts up to symmetry and the
// positions that can still finish.
#include "peg/reports.h"

#include <bit>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "peg/draw.h"
#include "tansaku/core/count.h"
#include "tansaku/core/progress.h"
#include "tansaku/puzzles/path_report.h"
#include "tansaku/puzzles/report_keys.h"
#include "tansaku/puzzles/solution.h"

namespace tansaku::peg {
namespace {

// solve's own keys (docs/cli.md), in their JSON order.
struct SolveKeys {
  std::string metric, length_unit;  // `length` counts in the metric
  std::string empty;                // the holes empty at the start
  json finish;                      // the finishing hole, "anywhere", or null
  std::optional<std::string> method;
  std::optional<int> lower_bound;
  std::optional<std::uint64_t> positions;
  int pagoda_functions = 0;
  std::optional<Weights> pagoda_proof;
  std::optional<int> jumps;
};
TANSAKU_REPORT_KEYS(SolveKeys, metric, length_unit, empty, finish, method, lower_bound, positions, pagoda_functions,
                    pagoda_proof, jumps)

// explore's own keys: the counts up to symmetry, and the positions that can still finish.
struct ExploreKeys {
  std::size_t symmetries = 0;
  std::uint64_t states_symmetry_reduced = 0;
  std::vector<std::uint64_t> histogram_symmetry_reduced;
  std::uint64_t farthest_count_symmetry_reduced = 0;
  std::uint64_t can_finish = 0, can_finish_symmetry_reduced = 0;
  std::vector<std::uint64_t> can_finish_histogram;
  std::optional<int> finish;  // --finish H, and its counts
  std::optional<std::uint64_t> can_finish_at, can_finish_at_symmetry_reduced;
  std::optional<std::vector<std::uint64_t>> can_finish_at_histogram;
};
TANSAKU_REPORT_KEYS(ExploreKeys, symmetries, states_symmetry_reduced, histogram_symmetry_reduced,
                    farthest_count_symmetry_reduced, can_finish, can_finish_symmetry_reduced, can_finish_histogram,
                    finish, can_finish_at, can_finish_at_symmetry_reduced, can_finish_at_histogram)

}  // namespace

std::string holes_text(Bits b) {
  std::string s;
  for (Bits r = b; r; r &= r - 1) {
    if (!s.empty()) s += ',';
    s += std::to_string(std::countr_zero(r));
  }
  return s;
}

SolveReport solve_report(const Solver& solver, Bits start, const Goal& goal, const SolveParams& p, const Options& o) {
  const Board& bd = solver.board();
  SolveReport r;
  Solution<Rules>& sol = *typed_solution(Rules{bd, goal}, start, goal.pegs, r);
  if (goal.anywhere) r.goal = solver.describe(goal);
  SolveKeys k;
  // `moves` lists moves (a run of jumps by one peg is one move); `length` counts in the metric.
  k.metric = k.length_unit = p.metric == Metric::Moves ? "moves" : "jumps";
  k.empty = holes_text(bd.all & ~start);
  k.finish = goal.anywhere                    ? json("anywhere")
             : std::has_single_bit(goal.pegs) ? json(std::countr_zero(goal.pegs))
                                              : json(nullptr);
  const auto done = [&]() -> SolveReport& {
    put(k, r.extra);
    return r;
  };
  Progress progress(o.progress());
  const search::Limits lim = o.limits(&progress);
  if (o.count) {
    auto c = solver.count(start, goal, p, lim);
    progress.done();
    r.count = count_json(c.count);
    r.nodes = c.nodes;
    r.algorithm = c.algorithm;
    k.positions = c.positions;
    k.pagoda_functions = c.pagoda_functions;
    r.length.reset();
    if (c.count == 0) {
      r.solvable = false;
      r.reason = fmt::format("no jump sequence from the start leaves {}", solver.describe(goal));
      if (c.pagoda_proof) {
        r.reason += fmt::format(" (pagoda function, weights by hole: {})", format_weights(*c.pagoda_proof));
        k.pagoda_proof = c.pagoda_proof;
      }
    }
    return done();
  }
  auto s = solver.solve(start, goal, p, lim);
  progress.done();
  r.algorithm = s.algorithm;
  if (!s.method.empty()) k.method = s.method;
  r.nodes = s.nodes;
  k.lower_bound = s.lower_bound;
  if (s.positions) k.positions = s.positions;
  k.pagoda_functions = s.pagoda_functions;
  k.pagoda_proof = s.pagoda_proof;
  if (!s.solvable) {
    r.solvable = false;
    r.reason = s.reason;
    return done();
  }
  r.length = s.length;
  non_optimal_figures(s.optimal, s.bound, s.length, r);
  if (r.lower_bound) r.lower_bound = std::max<std::int64_t>(*r.lower_bound, s.lower_bound);
  r.moves = sol.verify(s.moves);
  sol.moves = s.moves;
  const std::vector<Bits> positions = sol.positions();
  k.jumps = std::popcount(start) - std::popcount(positions.back());
  r.text = "start:\n" + render_position(bd, start);
  if (bd.n <= 40)
    for (std::size_t i = 0; i < s.moves.size(); ++i)
      r.text +=
          fmt::format("move {}: [{}]\n{}", i + 1, fmt::join(s.moves[i], ","), render_position(bd, positions[i + 1]));
  return done();
}

ExploreReport explore_report(const Solver& solver, Bits start, std::optional<int> finish, const Options& o,
                             const search::Limits& lim) {
  const Board& bd = solver.board();
  auto e = solver.explore(start, finish, o.farthest, lim);
  ExploreReport r;
  r.from = format_position(bd, start);
  for (auto v : e.full) r.states += v;
  r.depth = static_cast<int>(e.full.size()) - 1;
  r.histogram = e.full;
  r.farthest_count = e.full.back();
  for (Bits b : e.last) r.farthest.push_back(format_position(bd, b));
  std::uint64_t reduced = 0, any = 0, any_r = 0, at = 0, at_r = 0;
  for (auto v : e.reduced) reduced += v;
  for (auto v : e.finish_any_full) any += v;
  for (auto v : e.finish_any_reduced) any_r += v;
  for (auto v : e.finish_at_full) at += v;
  for (auto v : e.finish_at_reduced) at_r += v;
  const std::size_t sym = Symmetry::stabiliser(solver.group(), start).size();
  ExploreKeys k;
  k.symmetries = sym;
  k.states_symmetry_reduced = reduced;
  k.histogram_symmetry_reduced = e.reduced;
  k.farthest_count_symmetry_reduced = e.reduced.back();
  k.can_finish = any;
  k.can_finish_symmetry_reduced = any_r;
  k.can_finish_histogram = e.finish_any_full;
  if (finish) {
    k.finish = *finish;
    k.can_finish_at = at;
    k.can_finish_at_symmetry_reduced = at_r;
    k.can_finish_at_histogram = e.finish_at_full;
  }
  put(k, r.extra);
  r.nodes = e.stats.generated;  // the layers count what they generate (the value `nodes` always had)
  r.generated = e.stats.generated;
  r.table_bytes = e.stats.peak_bytes;
  r.text = fmt::format("up to symmetry ({} symmetries fix the start): {} states, histogram", sym, reduced);
  for (auto v : e.reduced) r.text += fmt::format(" {}", v);
  r.text += fmt::format("\nfarthest positions are listed one per symmetry class ({} classes)\n", e.reduced.back());
  r.text += fmt::format("can still finish with one peg: {} ({} up to symmetry)\n", any, any_r);
  if (finish)
    r.text += fmt::format("can still finish with one peg in hole {}: {} ({} up to symmetry)\n", *finish, at, at_r);
  return r;
}

}  // namespace tansaku::peg
