// flip:RxC — parsing the instance, choosing the solver, the proof of unsolvability, the
// minimum over the solution coset, verification, and the reports.
#include <algorithm>

#include <fmt/format.h>

#include "flip/board.h"
#include "flip/draw.h"
#include "flip/linear.h"
#include "flip/minimize.h"
#include "flip/space.h"
#include "flip/verify.h"
#include "tansaku/core/count.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/random.h"
#include "tansaku/core/tokens.h"
#include "tansaku/puzzles/flip.h"
#include "tansaku/puzzles/path_report.h"
#include "tansaku/puzzles/report_keys.h"
#include "tansaku/puzzles/solver_table.h"
#include "tansaku/search/bfs.h"
#include "tansaku/search/distance_table.h"
#include "tansaku/search/explore.h"

namespace tansaku::flip {
namespace {

constexpr std::int64_t kMaxCells = std::int64_t{1} << 28;
// The family's own options (declared in family() below).
struct Settings {
  std::optional<std::string> rule;  // --rule: eight (default), lights-out or a 3x3 mask
  bool torus = false;
};

constexpr std::int64_t kDenseDefaultCells = 0;  // the chase is the default everywhere
constexpr int kBfsSolveCells = 30;              // --algorithm bfs (hash map of configurations)
constexpr int kPictureSide = 64;                // boards drawn in text output
constexpr std::uint64_t kBytesPerCell = 64;     // solve / show: the least a cell costs (require_cells)

json cells_json(const Bits& x) {
  json a = json::array();
  for (auto i : x.ones()) a.push_back(i);
  return a;
}

std::string cell_list(const Bits& x, std::size_t limit) {
  auto v = x.ones();
  std::string s;
  for (std::size_t i = 0; i < v.size() && i < limit; ++i) {
    if (i) s += ' ';
    s += std::to_string(v[i]);
  }
  if (v.size() > limit) s += fmt::format(" ... ({} cells)", v.size());
  return s;
}

Bits from_word(std::uint64_t w, std::size_t n) {
  Bits b(n);
  if (n) b.data()[0] = w;
  return b;
}

std::uint64_t to_word(const Bits& b) { return b.words() ? b.word(0) : 0; }

// A grid given on the command line, or "@FILE" for a grid stored in a file (read through
// core/input.h: a regular text file within a quarter of the budget, the deadline polled).
std::string grid_text(const std::string& value, std::string_view what, const Options& o) {
  if (value.empty() || value[0] != '@') return value;
  return read_text_file(value.substr(1), fmt::format("{} file", what), o.memory, &o.deadline);
}

std::string power_of_two(std::int64_t r) {
  if (r < 128) return to_string(mpz_class(1) << static_cast<mp_bitcnt_t>(r));
  return fmt::format("2^{}", r);
}

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

class FlipPuzzle final : public Puzzle {
 public:
  FlipPuzzle(std::string name, Board board) : name_(std::move(name)), board_(std::move(board)) {}
  std::string name() const override { return name_; }

  ShowReport show(const Options& o) const override {
    require_cells(o);
    const Bits start = start_of(o), goal = goal_of(o);
    LinearOptions lo;
    lo.want_kernel = board_.cells() <= 4096;
    LinearResult lin = solve_chase(board_, start ^ goal, lo, o.limits());
    const Replayer replay(board_);
    for (const auto& k : lin.kernel)
      if (!replay.effect(k).none()) throw std::logic_error("flip: a quiet pattern is not quiet");
    ShowReport r;
    const std::int64_t n = board_.cells();
    r.info = {{"puzzle", name_},
              {"rows", board_.rows()},
              {"cols", board_.cols()},
              {"cells", n},
              {"rule", board_.rule().name},
              {"mask", board_.rule().mask_text()},
              {"torus", board_.torus()},
              {"start", board_.format_grid(start)},
              {"goal", board_.format_grid(goal)},
              {"rank", lin.rank},
              {"nullity", lin.nullity},
              {"reachable", power_of_two(lin.rank)},
              {"reachable_log2", lin.rank},
              {"solvable", lin.solvable},
              {"free_presses", lin.unknowns},
              {"method", lin.method}};
    if (lin.nullity <= 16 && n <= 1024 && static_cast<std::int64_t>(lin.kernel.size()) == lin.nullity) {
      json q = json::array();
      for (const auto& k : lin.kernel) q.push_back(cells_json(k));
      r.info["quiet_patterns"] = q;
    }
    std::string& t = r.text;
    t = fmt::format("{}: {} rows x {} columns{}; pressing a cell toggles the cells of the mask around it\n", name_,
                    board_.rows(), board_.cols(), board_.torus() ? " on a torus (edges wrap)" : "");
    t += fmt::format("rule: {} (mask {}, the centre is the pressed cell)\n", board_.rule().name, board_.rule().mask_text());
    for (int i = 0; i < 3; ++i) {
      t += "  ";
      for (int j = 0; j < 3; ++j) t += board_.rule().mask[static_cast<std::size_t>(i * 3 + j)] ? " X" : " .";
      t += '\n';
    }
    if (board_.rows() <= kPictureSide && board_.cols() <= kPictureSide) {
      t += "cells:\n" + board_.numbering();
      t += "start:\n" + board_.picture(start) + "goal:\n" + board_.picture(goal);
    } else {
      t += fmt::format("start: {} lit, goal: {} lit\n", start.count(), goal.count());
    }
    t += fmt::format("rank {}, nullity {}: {} configurations reachable from any one ({} of 2^{})\n", lin.rank,
                     lin.nullity, power_of_two(lin.rank), lin.nullity ? fmt::format("1/2^{}", lin.nullity) : "all", n);
    t += fmt::format("method: {}\n", lin.method);
    if (r.info.contains("quiet_patterns")) {
      t += "quiet patterns (press sets that change nothing; a basis of the null space):\n";
      for (const auto& k : lin.kernel) t += "  " + cell_list(k, 1000) + "\n";
    }
    t += fmt::format("start -> goal: {}\n", lin.solvable ? "solvable" : "unsolvable");
    return r;
  }

  // The solver is chosen before the start and goal are read: the algebraic solvers first
  // check that the board's cells fit the budget (require_cells), BFS needs no such check.
  SolveReport solve(const Options& o) const override {
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

  ExploreReport explore(const Options& o) const override {
    const std::int64_t n = board_.cells();
    if (n > 63)
      throw InputError(fmt::format("explore enumerates every reachable configuration; {} has {} cells (at most 63)",
                                   name_, n));
    const std::string text = o.origin().value_or(std::string());
    const Bits src = text.empty() ? Bits(static_cast<std::size_t>(n)) : board_.parse_grid(grid_text(text, "from state", o), "from state");
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
  // 2^nullity, of press sets).
  std::vector<std::string> random(const Options& o, std::uint64_t seed, std::size_t count) const override {
    const Bits goal = goal_of(o);
    require_memory(static_cast<std::uint64_t>(board_.cells()) * 2 * count, o.memory, "the random configurations");
    SplitMix64 rng{seed};
    std::vector<std::string> out;
    for (std::size_t k = 0; k < count; ++k) {
      o.deadline.check();
      Bits x = goal;
      for (std::int64_t p = 0; p < board_.cells(); ++p)
        if (rng.next() >> 63) board_.for_each_toggled(p, [&](std::int64_t q) { x.flip(static_cast<std::size_t>(q)); });
      out.push_back(board_.format_grid(x));
    }
    return out;
  }

  // explore's space (every configuration, from the same source) as a byte per configuration
  // (Puzzle::depth_table).
  std::shared_ptr<const DepthTable> depth_table(const Options& o) const override {
    const std::int64_t n = board_.cells();
    if (n > 40) throw InputError(fmt::format("a table of {} needs a byte for each of 2^{} configurations", name_, n));
    const std::string text = o.origin().value_or(std::string());
    const Bits src = text.empty() ? Bits(static_cast<std::size_t>(n)) : board_.parse_grid(grid_text(text, "from state", o), "from state");
    const std::uint64_t source = to_word(src);
    const SpaceDomain d{word_patterns(board_), static_cast<int>(n), 0};
    Progress progress(o.progress());
    auto t = search::distance_table(d, std::span<const std::uint64_t>(&source, 1), true, o.limits(&progress));
    progress.done();
    auto out = std::make_shared<DepthTable>();
    out->from = board_.format_grid(src);
    out->depth = std::move(t.dist);
    out->histogram = std::move(t.histogram);
    out->symmetric = true;  // a press undoes itself
    auto board = std::make_shared<const Board>(board_);
    out->rank = [board](const std::string& s) { return to_word(board->parse_grid(s, "state")); };
    out->unrank = [board, n](std::uint64_t r) { return board->format_grid(from_word(r, static_cast<std::size_t>(n))); };
    return out;
  }

  // Pictures (flip/draw.h): show draws the start; explore the source.
  std::string draw(const Options& o) const override {
    require_cells(o);
    if (o.command == kExplore) {
      const std::string text = o.origin().value_or(std::string());
      const Bits src = text.empty() ? Bits(static_cast<std::size_t>(board_.cells()))
                                    : board_.parse_grid(grid_text(text, "from state", o), "from state");
      return board_svg(board_, src, Bits(0));
    }
    return board_svg(board_, start_of(o), Bits(0));
  }
  Drawing draw_solution(const Options&, const SolveReport& r) const override { return solution_drawing(r); }
  std::string draw_state(const Options&, const std::string& state) const override {
    return board_svg(board_, board_.parse_grid(state, "state"), Bits(0));
  }

  // Play: a press on any cell toggles the rule's pattern around it (the move is the cell, as
  // a solution writes it). Each move carries its whole grid: boards up to kPlayCells.
  std::optional<Play> play(const Options& o, const std::string& state) const override {
    constexpr std::int64_t kPlayCells = 1024;
    if (board_.cells() > kPlayCells)
      throw InputError(
          fmt::format("{} has {} cells: play takes boards of at most {}", name_, board_.cells(), kPlayCells));
    const Bits b = state.empty() ? start_of(o) : board_.parse_grid(state, "position");
    Play p;
    p.state = board_.format_grid(b);
    p.goal = b == goal_of(o);
    for (std::int64_t c = 0; c < board_.cells(); ++c) {
      Bits next = b;
      board_.for_each_toggled(c, [&](std::int64_t q) { next.flip(static_cast<std::size_t>(q)); });
      p.moves.push_back({std::to_string(c), board_.format_grid(next), {static_cast<int>(c)}});
    }
    return p;
  }

 private:
  // Refuses a board whose per-cell cost cannot fit the budget before anything is parsed or
  // allocated: the chase's bookkeeping (deciders, equations, lanes: 25 bytes a cell), the
  // grids and the report (start, goal and the presses, as text and JSON: ~40 bytes a cell).
  void require_cells(const Options& o) const {
    require_memory(static_cast<std::uint64_t>(board_.cells()) * kBytesPerCell, o.memory,
                   fmt::format("{} ({} cells)", name_, board_.cells()));
  }
  Bits start_of(const Options& o) const {
    if (o.start) return board_.parse_grid(grid_text(*o.start, "start", o), "start");
    Bits b(static_cast<std::size_t>(board_.cells()));
    b.fill(true);
    return b;
  }
  Bits goal_of(const Options& o) const {
    if (o.goal) return board_.parse_grid(grid_text(*o.goal, "goal", o), "goal");
    return Bits(static_cast<std::size_t>(board_.cells()));
  }
  // The start and goal of a solve, into the report and its typed solution (draw_solution).
  PressSolution& instance(const Options& o, SolveReport& r) const {
    auto s = std::make_shared<PressSolution>(board_, start_of(o), goal_of(o));
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
    require_cells(o);
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
      throw LimitError(fmt::format("nullity {}: counting the minimal press sets needs all 2^{} coset members (limit 2^{})",
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
        if (static_cast<std::int64_t>(s.count()) != m.weight) throw std::logic_error("flip: a listed solution is not minimal");
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
    r.states = s.states;
    r.depth = s.depth;
    r.histogram = s.histogram;
    r.farthest_count = s.farthest_count;
    for (auto f : s.farthest) r.farthest.push_back(board_.format_grid(from_word(f, static_cast<std::size_t>(n))));
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
    r.states = res.states;
    r.depth = res.depth;
    r.histogram = res.histogram;
    r.farthest_count = res.farthest_count;
    for (auto f : res.farthest) r.farthest.push_back(board_.format_grid(from_word(f, static_cast<std::size_t>(n))));
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
    const FlipPuzzle& p;
    const Options& o;
    SolveReport& r;
    SolveKeys& k;
  };
  struct ExploreJob {
    const FlipPuzzle& p;
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
  std::string name_;
  Board board_;
};

std::unique_ptr<Puzzle> make(const std::string& variant, const Options& o) {
  if (variant.empty()) throw InputError("flip needs a size: flip:RxC (e.g. flip:4x4)");
  auto [rows, cols] = parse_dims(variant, "flip size");
  if (rows < 1 || cols < 1) throw InputError(fmt::format("flip:{}: rows and columns must be at least 1", variant));
  if (static_cast<std::int64_t>(rows) * cols > kMaxCells)
    throw InputError(fmt::format("flip:{}: at most {} cells are supported", variant, kMaxCells));
  const Settings& s = o.settings<Settings>();
  return std::make_unique<FlipPuzzle>(fmt::format("flip:{}x{}", rows, cols),
                                      Board(rows, cols, s.torus, parse_rule(s.rule)));
}

}  // namespace

Family family() {
  Family f;
  f.prefix = "flip";
  f.summary = "press a cell to toggle a pattern (8-flip, Lights Out, any 3x3 mask); solved by GF(2) algebra";
  f.builtins = {{"flip:4x4",
                 "8-flip (--rule eight, the default: a press toggles the 8 surrounding cells): all on -> all off in 6 "
                 "presses, 4 ways"},
                {"flip:4x6", "8-flip, 4 rows x 6 columns: 2^24 configurations, farthest 24 presses"},
                {"flip:5x5", "8-flip 5x5: all on cannot be cleared; with --rule lights-out: 15 presses"},
                {"flip:RxC", "any R x C board; --rule eight | lights-out | 3x3 mask such as 010/111/010; --torus"}};
  f.options = {
      opt::start(kShow | kSolve, "start grid: R rows of 0/1 (or '@FILE'); default all on"),
      opt::goal(kAllCommands, "goal grid (default all off; explore: the source when --from is not given)"),
      opt::from(kExplore, "source grid of the explore (default all off)"),
      opt::all(),
      opt::count(),
      opt::farthest(),
      opt::defaults_to("eight", opt::text(&Settings::rule, "rule", "RULE",
                                          "eight (the 8 surrounding cells, not the cell; default) | lights-out | a 3x3 "
                                          "mask such as 010/111/010")),
      opt::flag(&Settings::torus, "torus", "wrap the pattern around the edges")};
  f.settings = opt::settings<Settings>();
  f.solvers = merge_specs(solver_specs(FlipPuzzle::solve_table()), solver_specs(FlipPuzzle::explore_table()));
  f.notation = "a grid of 0/1 (1 = on), rows separated by '/' or newlines or spaces, e.g. --start 1111/1111/1111/1111;\n"
               "  '@FILE' reads the grid from a file";
  f.examples = {"tansaku solve flip:4x4 --all", "tansaku solve flip:5x5 --rule lights-out",
                "tansaku solve flip:1000x1000 --rule lights-out --quiet", "tansaku explore flip:4x6 --farthest 3",
                "tansaku random flip:5x5 --rule lights-out"};
  f.bench = {{kSolve, "flip:4x4", "", ""}, {kSolve, "flip:200x200", "", ""}, {kExplore, "flip:5x5", "", ""},
             {kExplore, "flip:4x4", "", "bfs"}};
  f.make = make;
  return f;
}

}  // namespace tansaku::flip
