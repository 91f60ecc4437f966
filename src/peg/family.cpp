// peg:* — the family's glue: the options, reading the instance (board, --empty/--start,
// --finish/--goal, --metric), show, random, pictures and play. The solve and explore
// reports are reports.cpp's.
#include <bit>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <glpk.h>

#include "peg/board.h"
#include "peg/draw.h"
#include "peg/random_positions.h"
#include "peg/reports.h"
#include "peg/solver.h"
#include "peg/verify.h"
#include "tansaku/core/count.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/memory.h"
#include "tansaku/puzzles/path_report.h"
#include "tansaku/puzzles/peg.h"
#include "tansaku/puzzles/report_keys.h"
#include "tansaku/puzzles/solution.h"
#include "tansaku/puzzles/solver_table.h"

namespace tansaku::peg {
namespace {

// The family's own options (declared in family() below).
struct Settings {
  std::optional<std::string> empty;   // --empty H[,H...]: holes that start empty
  std::optional<std::string> finish;  // --finish H: the hole the last peg ends in
  std::optional<std::string> metric;  // --metric moves | jumps
  std::optional<std::string> file;    // --file FILE: the board, instead of peg:FILE
  std::optional<int> pegs;            // random --pegs K
};

class PegPuzzle final : public Puzzle {
 public:
  PegPuzzle(std::string name, Board bd) : name_(std::move(name)), solver_(std::move(bd)) {}
  std::string name() const override { return name_; }

  ShowReport show(const Options& o) const override {
    const Board& bd = solver_.board();
    const Bits start = start_of(o, false);
    const Goal goal = goal_of(o, start);
    const DemandBound dem(bd, goal.anywhere ? 0 : goal.pegs, goal.anywhere, goal.finishers);
    ShowReport r;
    r.info = {{"puzzle", name_},
              {"board", bd.name},
              {"lattice", lattice_name(bd.lattice)},
              {"holes", bd.n},
              {"jumps", bd.jumps.size()},
              {"symmetries", solver_.group().size()},
              {"start", format_position(bd, start)},
              {"empty", holes_text(bd.all & ~start)},
              {"goal", solver_.describe(goal)},
              {"position_class_invariants", solver_.classes().dimension()},
              {"corners", holes_text(dem.corners())},
              {"lower_bound", solver_.lower_bound(start, goal)},
              {"states_upper_bound", std::string(bd.n >= 64 ? "18446744073709551616" : std::to_string(Bits{1} << bd.n))}};
    if (goal.anywhere) r.info["finishers"] = holes_text(goal.finishers);
    r.text = fmt::format("{}: peg solitaire, {} holes on a {} lattice, {} jumps, {} symmetries\n", name_, bd.n,
                         lattice_name(bd.lattice), bd.jumps.size(), solver_.group().size());
    r.text += "A peg jumps over a neighbour into the empty hole beyond, removing it; a run of jumps by one peg is one "
              "move.\nholes:\n" +
              render_numbers(bd);
    r.text += fmt::format("start (empty: {}; as --start: {}):\n{}", holes_text(bd.all & ~start), format_position(bd, start),
                          render_position(bd, start));
    r.text += fmt::format("goal: {}{}\n", solver_.describe(goal),
                          goal.anywhere ? fmt::format(" (possible last holes by position class: {})",
                                                      goal.finishers ? holes_text(goal.finishers) : "none")
                                        : "");
    r.text += fmt::format("corners (never jumped over): {}\nlower bound on moves: {}\n", holes_text(dem.corners()),
                          solver_.lower_bound(start, goal));
    return r;
  }
  SolveReport solve(const Options& o) const override {
    if (o.all) throw InputError("peg: --all is not supported; --count counts every solution");
    const Bits start = start_of(o, false);
    const Goal goal = goal_of(o, start);
    return solve_report(solver_, start, goal, params(o), o);
  }

  ExploreReport explore(const Options& o) const override { return explore_by_table(explore_table(), *this, o); }

  // One explore: the layers of positions by pegs left, from the start.
  static const ExploreTable<PegPuzzle>& explore_table() {
    static const auto t = one_explore<PegPuzzle>(
        {"layered", {}, "exhaustive layers of positions by pegs left, up to the board's symmetries", kExplore},
        &PegPuzzle::explore_layers);
    return t;
  }
  ExploreReport explore_layers(const Options& o, const search::Limits& lim) const {
    const Bits start = start_of(o, true);
    std::optional<int> finish;
    if (const auto& f = o.settings<Settings>().finish) finish = finish_hole(*f);
    if (o.goal) throw InputError("explore takes --finish H (the hole to count finishes on), not --goal");
    return explore_report(solver_, start, finish, o, lim);
  }

  // Pictures: src/peg/draw.cpp.
  std::string draw(const Options& o) const override { return draw_position(solver_.board(), start_of(o, false)); }
  Drawing draw_solution(const Options&, const SolveReport& r) const override { return draw_solution_of<Rules>(r); }
  std::string draw_state(const Options&, const std::string& state) const override {
    return draw_position(solver_.board(), parse_position(solver_.board(), state, "state"));
  }

  // Play: one jump, a peg over a neighbour into the empty hole beyond (the move "from-to";
  // a click on the peg, then on the hole, makes it).
  std::optional<Play> play(const Options& o, const std::string& state) const override {
    const Board& bd = solver_.board();
    const Bits start = start_of(o, false);
    const Bits b = state.empty() ? start : parse_position(bd, state, "position");
    Play p;
    p.state = format_position(bd, b);
    p.goal = goal_of(o, start).reached(b);
    for (const Jump& j : bd.jumps)
      if ((b & bd.bit(j.from)) && (b & bd.bit(j.over)) && !(b & bd.bit(j.to)))
        p.moves.push_back({fmt::format("{}-{}", j.from, j.to), format_position(bd, b ^ j.mask), {j.from, j.to}});
    return p;
  }

  // Uniform over the positions from which the goal (as solve takes it: --goal, --finish, the
  // board's standard finish, else one peg anywhere) can be reached, with --pegs K pegs or any
  // number; each is a copyable --start (peg/random_positions.h).
  std::vector<std::string> random(const Options& o, std::uint64_t seed, std::size_t count) const override {
    const Board& bd = solver_.board();
    const Goal goal = goal_of(o, bd.all & ~bd.standard_empty);
    const std::optional<int> pegs = o.settings<Settings>().pegs;
    // The picks and their lines, kept until printed.
    require_memory(static_cast<std::uint64_t>(count) * (112 + 4 * static_cast<std::uint64_t>(bd.n)), o.memory,
                   "the random positions");
    Progress progress(o.progress());
    auto picks = random_solvable(bd, goal, pegs, seed, count, o.limits(&progress));
    progress.done();
    std::vector<std::string> out;
    for (Bits b : picks) {
      o.deadline.poll();
      out.push_back(format_position(bd, b));
    }
    return out;
  }

 private:
  SolveParams params(const Options& o) const {
    SolveParams p;
    if (const auto& m = o.settings<Settings>().metric) {
      if (*m == "moves") p.metric = Metric::Moves;
      else if (*m == "jumps") p.metric = Metric::Jumps;
      else throw InputError(fmt::format("--metric '{}': use moves or jumps", *m));
    }
    p.algorithm = o.algorithm;
    p.weight_num = o.weight_num, p.weight_den = o.weight_den;
    p.beam_width = o.beam_width;
    return p;
  }

  int finish_hole(const std::string& text) const {
    auto f = parse_holes(solver_.board(), text, "--finish");
    if (f.size() != 1) throw InputError("--finish takes one hole");
    return f[0];
  }

  Bits start_of(const Options& o, bool explore) const {
    const Board& bd = solver_.board();
    std::optional<std::string> text = o.start;
    std::string what = "--start";
    if (explore && o.from) text = o.from, what = "--from";
    const std::optional<std::string>& empty = o.settings<Settings>().empty;
    if (text && empty) throw InputError(fmt::format("give either --empty or {}, not both", what));
    if (text) return parse_position(bd, *text, what);
    if (empty) {
      Bits b = bd.all;
      for (int h : parse_holes(bd, *empty, "--empty")) b &= ~bd.bit(h);
      return b;
    }
    return bd.all & ~bd.standard_empty;
  }

  Goal goal_of(const Options& o, Bits start) const {
    const Board& bd = solver_.board();
    const std::optional<std::string>& finish = o.settings<Settings>().finish;
    if (o.goal && finish) throw InputError("give either --finish or --goal, not both");
    if (o.goal) return solver_.exactly(parse_position(bd, *o.goal, "--goal"));
    if (finish) return solver_.at(finish_hole(*finish));
    if (bd.standard_finish) return solver_.at(*bd.standard_finish);
    return solver_.anywhere(start);
  }

  std::string name_;
  Solver solver_;
};

bool is_builtin(const std::string& v) {
  return v.rfind("triangle", 0) == 0 || v == "trytry" || v == "english" || v == "french";
}

std::unique_ptr<Puzzle> make(const std::string& variant, const Options& o) {
  const std::optional<std::string>& file = o.settings<Settings>().file;
  if (variant.empty()) {
    if (!file)
      throw InputError(
          "peg needs a board: peg:triangle5, peg:trytry, peg:english, peg:french, peg:FILE or --file FILE");
    Board bd = load_board_file(*file, o.memory, &o.deadline);
    return std::make_unique<PegPuzzle>("peg:" + *file, std::move(bd));
  }
  if (file) throw InputError("give the board either as peg:NAME or with --file, not both");
  if (is_builtin(variant)) return std::make_unique<PegPuzzle>("peg:" + variant, builtin_board(variant));
  if (variant.find('/') != std::string::npos || variant.find('.') != std::string::npos || path_present(variant))
    return std::make_unique<PegPuzzle>("peg:" + variant, load_board_file(variant, o.memory, &o.deadline));
  builtin_board(variant);  // throws the list of builtins
  return nullptr;
}

}  // namespace

Family family() {
  Family f;
  f.prefix = "peg";
  f.file_extension = ".txt";
  f.file_kind = "a peg board: an ASCII picture of the holes, and the lattice (docs/peg.md)";
  f.summary = "peg solitaire on any board: least moves, proofs of impossibility, solution counts, enumeration";
  for (auto& [name, summary] : builtin_list()) f.builtins.push_back({name, summary});
  f.options = {
      opt::start(kAllCommands, "start position: one 0/1 per hole in hole order (explore starts here)"),
      opt::goal(kShow | kSolve | kRandom, "the exact final position (0/1 per hole), instead of --finish"),
      opt::from(kExplore, "the position to explore from (same as --start)"),
      opt::count(),
      opt::farthest(),
      opt::weight(),
      opt::beam_width(),
      opt::text(&Settings::empty, "empty", "H[,H...]",
                "holes that start empty (default: the board's standard vacancy)"),
      opt::text(&Settings::finish, "finish", "H", "hole the last peg must finish in (default: anywhere)", kAllCommands),
      opt::defaults_to("moves", opt::text(&Settings::metric, "metric", "METRIC",
                                          "moves (a run of jumps by one peg is one move, default) | jumps")),
      opt::reads(opt::text(&Settings::file, "file", "FILE",
                           "board file (an ASCII picture of the holes: docs/peg.md), instead of peg:FILE",
                           kAllCommands)),
      opt::integer(&Settings::pegs, "pegs", "random: only positions with this many pegs (default: any number)",
                   kRandom)};
  f.settings = opt::settings<Settings>();
  f.solvers = merge_specs(Solver::solvers(), solver_specs(PegPuzzle::explore_table()));
  f.notation = "a position is one 0/1 per hole in hole order (1 = peg), e.g. --start 111111111111011 for triangle5\n"
               "  with hole 11 empty; 'tansaku show PUZZLE' prints the hole numbers and a copyable start";
  f.examples = {"tansaku solve peg:english --finish 16", "tansaku solve peg:triangle5 --empty 0 --count",
                "tansaku solve peg:french --quiet", "tansaku explore peg:trytry", "tansaku random peg:english --pegs 6 --count 3", "tansaku show peg:data/peg/wiegleb.txt"};
  f.thread_cleanup = [] { glp_free_env(); };  // GLPK (the pagoda LPs) keeps an environment per thread
  f.bench = {{kSolve, "peg:triangle5", "", ""}, {kSolve, "peg:trytry", "", ""}, {kSolve, "peg:triangle6", "", "layered"},
             {kExplore, "peg:triangle6", "", ""}};
  f.make = make;
  return f;
}

}  // namespace tansaku::peg
