// sliding:RxC — parsing the instance, deciding solvability, choosing the algorithm,
// verifying the solution, and the reports.
#include <fmt/format.h>

#include "sliding/board.h"
#include "sliding/domain.h"
#include "sliding/draw.h"
#include "sliding/move_fsm.h"
#include "sliding/pdb.h"
#include "sliding/pdb_cli.h"
#include "sliding/pdb_solve.h"
#include "sliding/settings.h"
#include "tansaku/core/count.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/random.h"
#include "tansaku/core/tokens.h"
#include "tansaku/puzzles/explore_report.h"
#include "tansaku/puzzles/path_report.h"
#include "tansaku/puzzles/sliding.h"
#include "tansaku/puzzles/solution.h"
#include "tansaku/puzzles/solver_table.h"
#include "tansaku/search/distance_table.h"
#include "tansaku/search/explore.h"

namespace tansaku::sliding {
namespace {

std::string default_goal(int n) {
  std::string s;
  for (int i = 1; i < n; ++i) s += std::to_string(i) + " ";
  return s + "0";
}

const char* default_start(int rows, int cols) {
  if (rows == 3 && cols == 3) return "8 6 7 2 5 4 3 0 1";         // seed 003: 31 slides
  if (rows == 3 && cols == 4) return "0 3 2 1 8 7 6 5 4 11 10 9";  // seed 002: 53 slides
  return nullptr;
}

// Largest state space for which the default solver is bidirectional BFS.
constexpr std::uint64_t kBfsLimit = std::uint64_t{1} << 22;

// One solve: the instance, its domain, the solution mode, the options and the report the
// solver fills.
template <class C>
struct Job {
  const Instance& inst;
  const Domain<C>& d;
  typename Domain<C>::State start;
  search::IdaOptions ida;
  const Options& o;
  Solution<Rules>& sol;
  SolveReport& r;
  bool small() const { return d.size() != 0 && d.size() <= kBfsLimit; }
};

// Verifies an engine path and fills the report (solvability by parity was decided before,
// so an exhausted search means a genuinely disconnected instance).
template <class C>
void report(const Job<C>& j, const search::PathResult<std::uint8_t>& res, std::string algorithm,
            std::string heuristic = "") {
  SolveReport& r = j.r;
  r.algorithm = std::move(algorithm);
  r.heuristic = std::move(heuristic);
  report_solution(res, j.o, "the goal is not reachable from the start", j.sol, r);
  if (r.solvable) solved_text(j.sol, j.o.template settings<Settings>().steps, r);
}

// The solvers in the order of the automatic choice: bidirectional BFS for one solution on a
// space of at most kBfsLimit states, pattern databases for distinct tiles beyond it, IDA*.
template <class C>
const SolverTable<Job<C>, void>& solvers() {
  using J = Job<C>;
  using Path = search::PathResult<std::uint8_t>;
  static const SolverTable<J, void> table = [] {
    const auto as = [](std::string name) { return [name](const J& j, Path res) { report(j, res, name); }; };
    auto bibfs = then(bibfs_solver<J>({"bibfs", {"bidirectional", "bidirectional-bfs", "bi-bfs"},
                                       "bidirectional BFS: the default up to 2^22 states"}),
                      as("bibfs"));
    bibfs.automatic = [](const J& j) { return j.small(); };
    SolverEntry<J, void> pdb{
        {"pdb",
         {"idastar-pdb", "pdb-idastar", "ida*-pdb"},
         "IDA* over additive pattern databases (disk, else built in memory): the default for distinct tiles"},
        [](const J& j) { return pdb::refuses(j.inst); },
        [](const J& j) { return !j.small(); },
        [](const J& j, const search::Limits& lim) { pdb::solve(j.inst, pdb::prune_depth(j.o), lim, j.sol, j.r); }};
    auto idastar = then(idastar_solver<J>({"idastar", {"ida*", "ida-star", "ida"},
                                           "IDA* with Manhattan distance + linear conflict (--all, --count)"}),
                        [](const J& j, Path res) {
                          report(j, res, "idastar",
                                 j.d.uses_linear_conflict() ? "manhattan + linear conflict" : "manhattan to nearest same label");
                        });
    SolverTable<J, void> t{
        bibfs, pdb, idastar, then(bfs_solver<J>({"bfs", {"breadth-first"}, "breadth-first search"}), as("bfs")),
        then(iddfs_solver<J>(
                 {"iddfs", {"id", "iterative-deepening"}, "iterative deepening depth-first search (--all, --count)"}),
             as("iddfs"))};
    // The non-optimal searches over the same bound as idastar (never the automatic choice).
    for (auto& e : heuristic_solvers<J>("Manhattan distance + linear conflict")) {
      const std::string name = e.spec.name;
      t.push_back(then(std::move(e), [name](const J& j, Path res) {
        report(j, res, name,
               j.d.uses_linear_conflict() ? "manhattan + linear conflict" : "manhattan to nearest same label");
      }));
    }
    return t;
  }();
  return table;
}

class SlidingPuzzle final : public Puzzle {
 public:
  SlidingPuzzle(std::string name, int rows, int cols) : name_(std::move(name)), geo_(rows, cols) {}
  std::string name() const override { return name_; }

  ShowReport show(const Options& o) const override {
    Instance inst = instance(o, /*need_start=*/false);
    ShowReport r;
    const bool distinct = inst.labels.distinct();
    std::string states = state_count(inst);
    r.info = {{"puzzle", name_}, {"rows", geo_.rows}, {"cols", geo_.cols}, {"cells", geo_.n},
              {"goal", format_cells(inst.labels, inst.goal)}, {"states", states}, {"identical_pieces", !distinct}};
    if (!inst.start.empty()) {
      r.info["start"] = format_cells(inst.labels, inst.start);
      // Cheap to decide: the permutation-parity invariant (identical pieces: always).
      r.info["solvable"] = !distinct || parity_invariant(geo_, inst.start) == parity_invariant(geo_, inst.goal);
    }
    r.text = fmt::format("{}: {} rows x {} columns; a tile next to the blank (0) slides into it.\n", name_, geo_.rows,
                         geo_.cols);
    r.text += "cells:\n" + numbering(geo_);
    if (!inst.start.empty()) r.text += "start:\n" + picture(geo_, inst.labels, inst.start);
    r.text += "goal:\n" + picture(geo_, inst.labels, inst.goal);
    r.text += fmt::format("reachable states: {}{}\n", states,
                          distinct ? " (half of all arrangements: permutation parity)" : " (every arrangement)");
    if (r.info.contains("solvable"))
      r.text += r.info["solvable"].get<bool>() ? "the start reaches the goal (same permutation-parity class)\n"
                                               : "the start cannot reach the goal (other permutation-parity class)\n";
    return r;
  }

  SolveReport solve(const Options& o) const override {
    if (o.settings<Settings>().batch) return pdb::solve_batch(*this, geo_.n, o);  // --batch FILE (pdb_batch.cpp)
    Instance inst = instance(o, /*need_start=*/true);
    SolveReport r;
    Solution<Rules>& sol = *typed_solution(Rules{geo_, inst.labels}, inst.start, inst.goal, r);
    if (inst.labels.distinct() && parity_invariant(geo_, inst.start) != parity_invariant(geo_, inst.goal)) {
      r.solvable = false;
      r.reason = "start and goal lie in different permutation-parity classes";
      r.algorithm = "parity";
      return r;
    }
    if (geo_.n <= Nibbles::kMaxCells && inst.labels.names.size() <= Nibbles::kMaxLabels) run<Nibbles>(inst, o, sol, r);
    else run<Bytes>(inst, o, sol, r);
    return r;
  }

  // Uniform over the positions that can reach the goal: a uniform arrangement of the goal's
  // pieces, with two tiles swapped when its permutation parity is the wrong one (distinct
  // tiles; with identical pieces every arrangement is reachable).
  std::vector<std::string> random(const Options& o, std::uint64_t seed, std::size_t count) const override {
    Options g = o;
    g.start.reset();
    Instance inst = instance(g, /*need_start=*/false);
    // The lines kept until printed: a string of up to 3 characters a cell and its overhead.
    require_memory(static_cast<std::uint64_t>(count) * (96 + 4 * static_cast<std::uint64_t>(geo_.n)), o.memory,
                   "the random positions");
    SplitMix64 rng{seed};
    std::vector<std::string> out;
    for (std::size_t k = 0; k < count; ++k) {
      o.deadline.check();
      Cells c = inst.goal;
      rng.shuffle(c);
      if (inst.labels.distinct() && parity_invariant(geo_, c) != parity_invariant(geo_, inst.goal)) {
        int a = -1, b = -1;
        for (int i = 0; i < geo_.n && b < 0; ++i)
          if (c[i] != 0) (a < 0 ? a : b) = i;
        std::swap(c[a], c[b]);
      }
      out.push_back(format_cells(inst.labels, c));
    }
    return out;
  }

  ExploreReport explore(const Options& o) const override { return explore_by_table(explore_table(), *this, o); }

  // One explore: the engine's layered BFS over the ranked board (search/explore.h).
  static const ExploreTable<SlidingPuzzle>& explore_table() {
    static const auto t = one_explore<SlidingPuzzle>(
        bfs_explore("breadth-first layers over every arrangement's rank (2 bits each)"), &SlidingPuzzle::explore_bfs);
    return t;
  }

  ExploreReport explore_bfs(const Options& o, const search::Limits& lim) const {
    if (geo_.n <= Nibbles::kMaxCells) {
      Instance inst = explore_instance(o);
      if (inst.labels.names.size() <= Nibbles::kMaxLabels) return explore_with<Nibbles>(inst, o, lim);
      return explore_with<Bytes>(inst, o, lim);
    }
    return explore_with<Bytes>(explore_instance(o), o, lim);
  }

  std::shared_ptr<const DepthTable> depth_table(const Options& o) const override {
    Instance inst = explore_instance(o);
    if (geo_.n <= Nibbles::kMaxCells && inst.labels.names.size() <= Nibbles::kMaxLabels) return table_with<Nibbles>(inst, o);
    return table_with<Bytes>(inst, o);
  }

  // Pictures (sliding/draw.h).
  std::string draw(const Options& o) const override {
    const Instance inst = o.command == kExplore ? explore_instance(o) : instance(o, /*need_start=*/false);
    return board_svg(geo_, inst.labels, inst.start.empty() ? inst.goal : inst.start);
  }
  Drawing draw_solution(const Options&, const SolveReport& r) const override { return draw_solution_of<Rules>(r); }
  std::string draw_state(const Options&, const std::string& state) const override {
    const Labels labels = make_labels(split_state(state, static_cast<std::size_t>(geo_.n)), "state");
    return board_svg(geo_, labels, parse_cells(geo_, labels, state, "state"));
  }

  // Play: a tile next to the blank slides into it (the move is the tile's label, as a
  // solution writes it; a click on the tile makes it).
  std::optional<Play> play(const Options& o, const std::string& state) const override {
    const Instance inst = instance(o, /*need_start=*/false);
    const Cells b = !state.empty()       ? parse_cells(geo_, inst.labels, state, "position")
                    : inst.start.empty() ? inst.goal
                                         : inst.start;
    Play p;
    p.state = format_cells(inst.labels, b);
    p.goal = b == inst.goal;
    const int blank = static_cast<int>(std::find(b.begin(), b.end(), 0) - b.begin());
    for (int c : geo_.adj[blank]) {
      Cells next = b;
      std::swap(next[c], next[blank]);
      p.moves.push_back({inst.labels.names[b[c]], format_cells(inst.labels, next), {c}});
    }
    return p;
  }

 private:
  Instance instance(const Options& o, bool need_start) const {
    Instance inst;
    inst.geo = geo_;
    std::string goal = o.goal ? *o.goal : default_goal(geo_.n);
    auto goal_tokens = split_state(goal, static_cast<std::size_t>(geo_.n));
    if (static_cast<int>(goal_tokens.size()) != geo_.n)
      throw InputError(fmt::format("goal has {} tokens; a {}x{} board needs {}", goal_tokens.size(), geo_.rows,
                                   geo_.cols, geo_.n));
    inst.labels = make_labels(goal_tokens, "goal");
    inst.goal = parse_cells(geo_, inst.labels, goal, "goal");
    const char* def = default_start(geo_.rows, geo_.cols);
    if (o.start) inst.start = parse_cells(geo_, inst.labels, *o.start, "start");
    else if (def && !o.goal) inst.start = parse_cells(geo_, inst.labels, def, "start");
    else if (need_start) throw InputError(fmt::format("{} has no default start: give --start", name_));
    return inst;
  }

  Instance explore_instance(const Options& o) const {
    Instance inst;
    inst.geo = geo_;
    std::string from = o.origin().value_or(default_goal(geo_.n));
    auto tokens = split_state(from, static_cast<std::size_t>(geo_.n));
    if (static_cast<int>(tokens.size()) != geo_.n)
      throw InputError(fmt::format("from state has {} tokens; a {}x{} board needs {}", tokens.size(), geo_.rows,
                                   geo_.cols, geo_.n));
    inst.labels = make_labels(tokens, "from state");
    inst.goal = inst.start = parse_cells(geo_, inst.labels, from, "from state");
    return inst;
  }

  std::string state_count(const Instance& inst) const {
    mpz_class total = 1, b;
    unsigned long left = static_cast<unsigned long>(geo_.n);
    for (int c : inst.labels.counts) {  // the multinomial, one binomial C(left, c) at a time
      mpz_bin_uiui(b.get_mpz_t(), left, static_cast<unsigned long>(c));
      total *= b;
      left -= static_cast<unsigned long>(c);
    }
    if (inst.labels.distinct()) total /= 2;
    return to_string(total);
  }

  template <class C>
  void run(const Instance& inst, const Options& o, Solution<Rules>& sol, SolveReport& r) const {
    Domain<C> d(inst, /*linear_conflict=*/true);
    // The grid is bipartite: every solution has the parity of the blank's distance.
    const Job<C> job{inst, d, d.make(inst.start), ida_options(o, 2), o, sol, r};
    run_with_progress(choose(solvers<C>(), o.algorithm, job, kSolve, o.want()), job, o);
  }

  template <class C>
  ExploreReport explore_with(const Instance& inst, const Options& o, const search::Limits& lim) const {
    Domain<C> d(inst, false);
    if (d.size() == 0)
      throw InputError(fmt::format("the state space of {} is too large to enumerate", name_));
    const std::uint64_t src = d.rank(d.make(inst.start));
    auto res = search::explore(d, std::span<const std::uint64_t>(&src, 1), o.farthest, lim);
    ExploreReport r;
    r.from = format_cells(inst.labels, inst.start);
    report_layers(
        res, [&](std::uint64_t f) { return format_cells(inst.labels, d.cells_of(d.unrank(f))); }, r);
    r.nodes = res.stats.expanded;
    r.table_bytes = res.table_bytes;
    return r;
  }

  // explore's space as a byte per rank; the domain lives as long as the table's rank/unrank.
  template <class C>
  std::shared_ptr<const DepthTable> table_with(const Instance& inst, const Options& o) const {
    auto d = std::make_shared<const Domain<C>>(inst, false);
    if (d->size() == 0) throw InputError(fmt::format("the state space of {} is too large to enumerate", name_));
    Progress progress(o.progress());
    const std::uint64_t src = d->rank(d->make(inst.start));
    auto t = search::distance_table(*d, std::span<const std::uint64_t>(&src, 1), true, o.limits(&progress));
    progress.done();
    auto out = std::make_shared<DepthTable>();
    out->from = format_cells(inst.labels, inst.start);
    out->depth = std::move(t.dist);
    out->histogram = std::move(t.histogram);
    out->symmetric = true;
    out->rank = [d, geo = geo_](const std::string& s) {
      const Cells c = parse_cells(geo, d->labels(), s, "state");
      const std::uint64_t r = d->rank(d->make(c));
      return r < d->size() && d->cells_of(d->unrank(r)) == c ? r : UINT64_MAX;  // the other parity: not held
    };
    out->unrank = [d](std::uint64_t r) { return format_cells(d->labels(), d->cells_of(d->unrank(r))); };
    return out;
  }

  std::string name_;
  Geometry geo_;
};

std::unique_ptr<Puzzle> make(const std::string& variant, const Options&) {
  if (variant.empty()) throw InputError("sliding needs a size: sliding:RxC (e.g. sliding:3x3)");
  auto [rows, cols] = parse_dims(variant, "sliding size");
  if (rows < 2 || cols < 2) throw InputError(fmt::format("sliding:{}: rows and columns must be at least 2", variant));
  if (rows * cols > 64) throw InputError(fmt::format("sliding:{}: at most 64 cells are supported", variant));
  return std::make_unique<SlidingPuzzle>(fmt::format("sliding:{}x{}", rows, cols), rows, cols);
}

}  // namespace

Family family() {
  Family f;
  f.prefix = "sliding";
  f.summary = "sliding-tile puzzles on R x C boards; repeated labels are identical pieces";
  f.builtins = {
      {"sliding:3x3",
       "8-puzzle (alias 8-puzzle); default start 8 6 7 2 5 4 3 0 1 (from M. Hiroi's Scheme pages), 31 slides"},
      {"sliding:3x4",
       "11-puzzle, 3 rows x 4 columns (alias 11-puzzle); default start 0 3 2 1 8 7 6 5 4 11 10 9, 53 slides"},
      {"sliding:4x4", "15-puzzle (alias 15-puzzle)"},
      {"sliding:5x5", "24-puzzle (alias 24-puzzle)"},
      {"sliding:RxC", "any R x C board, R, C >= 2"}};
  f.aliases = {{"8-puzzle", "sliding:3x3"}, {"11-puzzle", "sliding:3x4"}, {"15-puzzle", "sliding:4x4"},
               {"24-puzzle", "sliding:5x5"}};
  f.options = {
      opt::start(),
      opt::goal(kAllCommands, "goal state (explore: the source when --from is not given)"),
      opt::from(),
      opt::all(),
      opt::count(),
      opt::farthest(),
      opt::spill(),
      opt::batch(opt::reads(opt::text(&Settings::batch, "batch", "FILE",
                                      "solve every instance of FILE (one start state a line; JSON Lines with --json)",
                                      kSolve))),
      opt::flag(&Settings::steps, "steps", "draw the board after every move of the solution", kSolve),
      opt::weight(),
      opt::beam_width(),
      opt::integer(&Settings::prune_depth, "prune-depth",
                   "pdb: never play a move string of up to N moves that an earlier one of no greater length "
                   "does the same as (default 16, reached in steps as a search grows; 2: only the inverse of the last "
                   "move, as Korf & Felner)",
                   kSolve, {2, MoveFsm::kMaxDepth})};
  f.options.back().default_value = "16";  // --prune-depth
  f.settings = opt::settings<Settings>();
  f.solvers = merge_specs(solver_specs(solvers<Nibbles>()), solver_specs(SlidingPuzzle::explore_table()));
  f.notation =
      "tiles in cell order (cells numbered row-major from 0), separated by spaces or commas; 0 is the blank,\n"
      "  repeated labels are identical pieces; single-character labels also take the compact form 867254301.\n"
      "  Example: --start \"8 6 7 2 5 4 3 0 1\" (the 8-puzzle's default start)";
  f.examples = {"tansaku solve 8-puzzle --start \"8 6 7 2 5 4 3 0 1\"", "tansaku solve 15-puzzle --batch data/sliding/korf100.txt --quiet",
                "tansaku explore sliding:4x4 --from \"1 1 2 2 1 1 2 2 1 3 3 2 3 3 3 0\"", "tansaku random 15-puzzle --seed 7 --count 3",
                "tansaku pdb build 15-puzzle --groups 7-8"};
  f.tools = pdb::tools();
  f.table_kinds = {pdb::table_kind()};
  f.data_dirs = [] { return std::vector<std::string>{pdb::default_dir().string()}; };  // the pattern databases
  f.bench = {{kSolve, "8-puzzle", "", "bfs"}, {kSolve, "8-puzzle", "", "bibfs"}, {kSolve, "8-puzzle", "", "idastar"},
             {kSolve, "11-puzzle", "", "idastar"}, {kExplore, "8-puzzle", "", ""},
             {kExplore, "sliding:4x4", "1 2 3 4 6 6 6 6 6 6 6 6 5 6 6 0", ""}};
  f.make = make;
  return f;
}

}  // namespace tansaku::sliding
