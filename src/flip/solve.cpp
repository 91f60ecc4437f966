// Solving and exploring flip boards: the solvers of the tables (elimination, light chasing,
// BFS as a cross-check; explore by algebra or BFS), the proof of unsolvability, the minimum
// over the solution coset, verification, and the reports they fill.
#include "flip/solve.h"

#include <fmt/format.h>

#include "flip/draw.h"
#include "flip/instance.h"
#include "flip/linear.h"
#include "flip/minimize.h"
#include "flip/space.h"
#include "flip/verify.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/puzzles/explore_report.h"
#include "tansaku/puzzles/path_report.h"
#include "tansaku/puzzles/report_keys.h"
#include "tansaku/puzzles/solver_table.h"
#include "tansaku/search/bfs.h"
#include "tansaku/search/explore.h"

namespace tansaku::flip {
namespace {

constexpr std::int64_t kDenseDefaultCells = 0;  // the chase is the default everywhere
constexpr int kBfsSolveCells = 30;              // --algorithm bfs (hash map of configurations)

// solve's own keys (docs/cli.md), in their JSON order.
struct SolveKeys {
  std::string rule;
  bool torus = false;
  std::string method;                                   // how it was solved
  std::optional<std::int64_t> rank, nullity, unknowns;  // the algebraic solvers
  std::optional<json> witness;                          // unsolvable: the cells every press toggles evenly
  std::optional<json> coset_weights;                    // an exact minimum, nullity <= 16
};
TANSAKU_REPORT_KEYS(SolveKeys, rule, torus, method, rank, nullity, unknowns, witness, coset_weights)
// explore's.
struct ExploreKeys {
  std::string method;
  std::int64_t rank = 0, nullity = 0;
  std::string rule;
};
TANSAKU_REPORT_KEYS(ExploreKeys, method, rank, nullity, rule)

class FlipSolver {
 public:
  FlipSolver(const Board& board, const std::string& name) : board_(board), name_(name) {}

  // The solver is chosen before the start and goal are read: the algebraic solvers first
  // check that the board's cells fit the budget (require_cells), BFS needs no such check.
  SolveReport solve(const Options& o) const {
    SolveReport r;
    SolveKeys k;
    k.rule = board_.rule().name;
    k.torus = board_.torus();
    const SolveJob job{*this, o, r, k};
    run_with_progress(choose(solve_table(), o.algorithm, job, kSolve, o.want()), job, o);
    put(k, r.extra);
    r.peak_rss_bytes = peak_rss();
    return r;
  }

  ExploreReport explore(const Options& o) const {
    const std::int64_t n = board_.cells();
    if (n > 63)
      throw InputError(
          fmt::format("explore enumerates every reachable configuration; {} has {} cells (at most 63)", name_, n));
    const Bits src = source_of(board_, o);
    const std::uint64_t source = to_word(src);
    ExploreReport r;
    r.from = board_.format_grid(src);
    ExploreKeys k;
    k.rule = board_.rule().name;
    const ExploreJob job{*this, source, o, r, k};
    const auto& entry = choose(explore_table(), o.algorithm, job, kExplore);
    run_with_progress(entry, job, o);
    r.algorithm = entry.spec.name;
    put(k, r.extra);
    machine_figures(o, r);
    return r;
  }

  // Uniform over the configurations from which the goal can be reached: the goal plus the
  // toggles of a uniformly random press set (every reachable difference has the same number,

 private:
  // The start and goal of a solve, into the report and its typed solution (draw_solution).
  PressSolution& instance(const Options& o, SolveReport& r) const {
    auto s = std::make_shared<PressSolution>(board_, start_of(board_, o), goal_of(board_, o));
    r.start = board_.format_grid(s->start);
    r.goal = board_.format_grid(s->goal);
    r.solution = s;
    return *s;
  }
  // The solution found: kept typed, and drawn in the text on boards small enough.
  void solved(PressSolution& s, Bits presses, SolveReport& r) const {
    r.moves = cells_json(presses);
    if (board_.rows() <= kPictureSide && board_.cols() <= kPictureSide)
      r.text = "presses (X):\n" + board_.picture(presses, "X", ".");
    s.presses = std::move(presses);
    s.solved = true;
  }

  void solve_linear(bool dense, const Options& o, const search::Limits& lim, SolveReport& r, SolveKeys& k) const {
    require_cells(board_, name_, o);
    PressSolution& sol = instance(o, r);
    const Bits &start = sol.start, &goal = sol.goal;
    const Bits rhs = start ^ goal;
    const LinearOptions lo;
    LinearResult lin = dense ? solve_dense(board_, rhs, lo, lim) : solve_chase(board_, rhs, lo, lim);
    r.algorithm = dense ? "dense" : "chase";  // the solver's name; how it went is `method`
    k.method = lin.method;
    k.rank = lin.rank;
    k.nullity = lin.nullity;
    k.unknowns = lin.unknowns;
    const Replayer replay(board_);
    for (const auto& k : lin.kernel)
      if (!replay.effect(k).none()) throw std::logic_error("flip: a quiet pattern is not quiet");
    if (!lin.solvable) {
      unsolvable(rhs, lin, lim, r, k);
      if (o.count) r.count = 0;
      return;
    }
    verify_solution(replay, start, goal, lin.particular);
    MinimizeOptions mo;
    mo.want_all = o.all;
    if (o.count && static_cast<int>(lin.kernel.size()) > mo.exact_limit)
      throw LimitError(
          fmt::format("nullity {}: counting the minimal press sets needs all 2^{} coset members (limit 2^{})",
                      lin.nullity, lin.nullity, mo.exact_limit));
    CosetMinimum m = minimize(lin.particular, lin.kernel, mo, lim);
    verify_solution(replay, start, goal, m.best);
    if (static_cast<std::int64_t>(m.best.count()) != m.weight) throw std::logic_error("flip: press count mismatch");
    r.optimal = m.exact;
    r.length = m.weight;
    r.nodes = m.examined;
    k.method = lin.method + "; " + m.method;
    if (m.exact) {
      json w = json::object();
      for (std::size_t i = 0; i < m.weights.size(); ++i)
        if (m.weights[i]) w[std::to_string(i)] = m.weights[i];
      if (lin.nullity <= 16) k.coset_weights = w;
    }
    if (o.all) {
      json sols = json::array();
      for (const auto& s : m.all) {
        verify_solution(replay, start, goal, s);
        if (static_cast<std::int64_t>(s.count()) != m.weight)
          throw std::logic_error("flip: a listed solution is not minimal");
        sols.push_back(cells_json(s));
      }
      r.solutions = sols;
      r.count = m.count;
    }
    if (o.count) r.count = m.count;
    solved(sol, std::move(m.best), r);
  }

  // A proof that no press set works: a vector y with A^T y = 0 (every press toggles an even
  // number of y's cells) and y . (start + goal) = 1.
  void unsolvable(const Bits& rhs, const LinearResult& lin, const search::Limits& lim, SolveReport& r,
                  SolveKeys& k) const {
    const bool symmetric = board_.rule().point_symmetric();
    const Board dual = board_.reflected();
    LinearResult dual_lin;
    if (!symmetric) {
      LinearOptions dl;
      dl.want_kernel = true;
      dual_lin = solve_chase(dual, Bits(rhs.size()), dl, lim);
    }
    const auto& basis = symmetric ? lin.kernel : dual_lin.kernel;
    const Bits* witness = nullptr;
    for (const auto& y : basis)
      if (y.dot(rhs)) {
        witness = &y;
        break;
      }
    if (!witness) throw std::logic_error("flip: unsolvable but no null-space witness found");
    if (!effect(dual, *witness).none()) throw std::logic_error("flip: the unsolvability witness is not quiet");
    const Bits on = rhs ^ Bits(rhs.size());
    Bits meet = *witness;
    meet &= on;
    r.solvable = false;
    r.optimal = true;
    r.reason = fmt::format(
        "start + goal is not orthogonal to the null space{}: every press toggles an even number of the cells {{{}}}, "
        "but start and goal differ on an odd number ({}) of them",
        symmetric ? "" : " of the transposed press matrix", cell_list(*witness, 40), meet.count());
    k.witness = cells_json(*witness);
  }

  void solve_bfs(const Options& o, const search::Limits& lim, SolveReport& r, SolveKeys& k) const {
    PressSolution& sol = instance(o, r);
    const std::int64_t n = board_.cells();
    SpaceDomain d{word_patterns(board_), static_cast<int>(n), to_word(sol.goal)};
    auto res = search::bfs(d, to_word(sol.start), lim);
    r.algorithm = "bfs";
    k.method = "breadth-first search over configurations";
    r.nodes = res.stats.expanded;
    if (!res.found) {
      r.solvable = false;
      r.reason = "the goal is not among the configurations reachable from the start (exhaustive search)";
      return;
    }
    Bits presses(static_cast<std::size_t>(n));
    for (int p : res.moves) presses.flip(static_cast<std::size_t>(p));
    if (static_cast<int>(presses.count()) != res.cost) throw std::logic_error("flip: bfs pressed a cell twice");
    verify_solution(board_, sol.start, sol.goal, presses);
    r.length = res.cost;
    solved(sol, std::move(presses), r);
  }

  void explore_algebra_into(std::uint64_t source, const Options& o, const search::Limits& lim, ExploreReport& r,
                            ExploreKeys& k) const {
    const std::int64_t n = board_.cells();
    SpaceReport s = explore_algebra(board_, source, o.farthest, lim);
    report_layers(
        s, [&](std::uint64_t f) { return board_.format_grid(from_word(f, static_cast<std::size_t>(n))); }, r);
    k.method =
        "algebra: distance = lightest press set of the coset; L1 distance transform over the 2^rank cube seeded "
        "with the 2^nullity quiet patterns";
    k.rank = s.rank;
    k.nullity = s.nullity;
    r.nodes = s.nodes;
    r.table_bytes = s.table_bytes;
  }

  void explore_bfs_into(std::uint64_t source, const Options& o, const search::Limits& lim, ExploreReport& r,
                        ExploreKeys& k) const {
    const std::int64_t n = board_.cells();
    SpaceDomain d{word_patterns(board_), static_cast<int>(n), 0};
    auto res = search::explore(d, std::span<const std::uint64_t>(&source, 1), o.farthest, lim);
    report_layers(
        res, [&](std::uint64_t f) { return board_.format_grid(from_word(f, static_cast<std::size_t>(n))); }, r);
    k.method = "breadth-first search over the 2-bit table of all 2^cells configurations";
    int rank = 0;
    while ((std::uint64_t{1} << rank) < res.states) ++rank;
    k.rank = rank;
    k.nullity = n - rank;
    r.nodes = res.stats.expanded;
    r.table_bytes = res.table_bytes;
  }

 public:
  // One solve / one explore, as the solver tables see them.
  struct SolveJob {
    const FlipSolver& p;
    const Options& o;
    SolveReport& r;
    SolveKeys& k;
  };
  struct ExploreJob {
    const FlipSolver& p;
    std::uint64_t source;
    const Options& o;
    ExploreReport& r;
    ExploreKeys& k;
  };

  // In the order of the automatic choice: elimination on boards of at most kDenseDefaultCells
  // cells (none: the chase is the default everywhere), light chasing, BFS as a cross-check.
  static const SolverTable<SolveJob, void>& solve_table() {
    static const SolverTable<SolveJob, void> table = {
        {{"dense",
          {"gauss", "elimination", "gaussian"},
          "Gaussian elimination over GF(2) (M4RI): the default for small boards",
          kSolve,
          true,
          true},
         nullptr,
         [](const SolveJob& j) { return j.p.board_.cells() <= kDenseDefaultCells; },
         [](const SolveJob& j, const search::Limits& lim) { j.p.solve_linear(true, j.o, lim, j.r, j.k); }},
        {{"chase",
          {"chasing", "light-chasing"},
          "light chasing along the shorter side, then a small GF(2) system: large boards",
          kSolve,
          true,
          true},
         nullptr,
         nullptr,
         [](const SolveJob& j, const search::Limits& lim) { j.p.solve_linear(false, j.o, lim, j.r, j.k); }},
        {{"bfs",
          {"breadth-first"},
          "breadth-first search over configurations (small boards; a cross-check)",
          kSolve | kExplore},
         [](const SolveJob& j) -> std::string {
           if (j.p.board_.cells() > kBfsSolveCells)
             return fmt::format("solve --algorithm bfs is limited to {} cells ({} has {})", kBfsSolveCells, j.p.name_,
                                j.p.board_.cells());
           return "";
         },
         nullptr,
         [](const SolveJob& j, const search::Limits& lim) { j.p.solve_bfs(j.o, lim, j.r, j.k); }},
    };
    return table;
  }
  static const SolverTable<ExploreJob, void>& explore_table() {
    static const SolverTable<ExploreJob, void> table = {
        {{"algebra", {"gf2"}, "the reachable set as a coset of the press space: explore by linear algebra", kExplore},
         nullptr,
         nullptr,
         [](const ExploreJob& j, const search::Limits& lim) {
           j.p.explore_algebra_into(j.source, j.o, lim, j.r, j.k);
         }},
        {{"bfs",
          {"breadth-first"},
          "breadth-first search over configurations (small boards; a cross-check)",
          kSolve | kExplore},
         [](const ExploreJob& j) -> std::string {
           const std::int64_t n = j.p.board_.cells();
           return n > 40 ? fmt::format("explore --algorithm bfs: {} cells need a 2^{} table", n, n) : "";
         },
         nullptr,
         [](const ExploreJob& j, const search::Limits& lim) { j.p.explore_bfs_into(j.source, j.o, lim, j.r, j.k); }},
    };
    return table;
  }

 private:
  const Board& board_;
  const std::string& name_;
};

}  // namespace

SolveReport solve_flip(const Board& board, const std::string& name, const Options& o) {
  return FlipSolver(board, name).solve(o);
}
ExploreReport explore_flip(const Board& board, const std::string& name, const Options& o) {
  return FlipSolver(board, name).explore(o);
}
std::vector<SolverSpec> flip_solvers() {
  return merge_specs(solver_specs(FlipSolver::solve_table()), solver_specs(FlipSolver::explore_table()));
}

}  // namespace tansaku::flip
