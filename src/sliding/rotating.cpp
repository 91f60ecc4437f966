// rotating-slide (seed 000): a 3x3 board of nine distinct pieces; each of the 8 moves turns
// three pieces along a line through the centre: with pattern (x y z) the piece on y goes
// to x, the piece on z to y and the piece on x to z. Moves are even permutations, so half
// of the 9! arrangements are reachable.
#include <array>
#include <optional>

#include <fmt/format.h>

#include "sliding/board.h"
#include "sliding/draw.h"
#include "tansaku/core/count.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/random.h"
#include "tansaku/core/ranking.h"
#include "tansaku/core/tokens.h"
#include "tansaku/puzzles/path_report.h"
#include "tansaku/puzzles/sliding.h"
#include "tansaku/puzzles/solution.h"
#include "tansaku/render/svg.h"
#include "tansaku/search/explore.h"

namespace tansaku::sliding {
namespace {

constexpr std::array<std::array<int, 3>, 8> kPatterns = {
    {{8, 4, 0}, {6, 4, 2}, {7, 4, 1}, {5, 4, 3}, {0, 4, 8}, {2, 4, 6}, {1, 4, 7}, {3, 4, 5}}};
// Pattern i undoes pattern i ^ 4 (the same three cells turned the other way).

class RotatingDomain {
 public:
  using State = std::uint64_t;  // nibble per cell: piece index 0..8
  using Move = std::uint8_t;    // pattern index

  explicit RotatingDomain(const Cells& goal) : goal_(pack(goal)), perm_(9) {
    for (int i = 0; i < 9; ++i) goal_cell_[goal[i]] = i;
    std::array<std::uint8_t, 9> g;
    for (int i = 0; i < 9; ++i) g[i] = goal[i];
    parity_ = PermutationRanker::parity(g.data(), 9);
  }
  static State pack(const Cells& c) {
    State s = 0;
    for (int i = 0; i < 9; ++i) s |= State(c[i]) << (4 * i);
    return s;
  }
  static int at(State s, int i) { return static_cast<int>((s >> (4 * i)) & 15); }
  static State apply(State s, int p) {
    const auto& [x, y, z] = kPatterns[p];
    State t = s;
    auto put = [&](int cell, int v) { t = (t & ~(State{15} << (4 * cell))) | (State(v) << (4 * cell)); };
    put(x, at(s, y));
    put(y, at(s, z));
    put(z, at(s, x));
    return t;
  }
  bool is_goal(State s) const { return s == goal_; }
  State goal() const { return goal_; }
  template <class F>
  void for_each_move(State s, F&& f) const {
    for (int p = 0; p < 8; ++p) f(static_cast<Move>(p), apply(s, p));
  }
  template <class F>
  void for_each_predecessor(State s, F&& f) const {
    for (int p = 0; p < 8; ++p) f(static_cast<Move>(p), apply(s, p ^ 4));
  }
  // A move displaces three pieces: ceil(misplaced / 3) more moves are needed at least.
  int h(State s) const {
    int wrong = 0;
    for (int i = 0; i < 9; ++i) wrong += at(s, i) != at(goal_, i);
    return (wrong + 2) / 3;
  }
  std::uint64_t size() const { return perm_.half_size(); }
  std::uint64_t rank(State s) const {
    std::array<std::uint8_t, 9> p;
    for (int i = 0; i < 9; ++i) p[i] = static_cast<std::uint8_t>(at(s, i));
    return perm_.rank_half(p.data());
  }
  State unrank(std::uint64_t r) const {
    std::array<std::uint8_t, 9> p;
    perm_.unrank_half(r, parity_, p.data());
    State s = 0;
    for (int i = 0; i < 9; ++i) s |= State(p[i]) << (4 * i);
    return s;
  }

 private:
  State goal_;
  PermutationRanker perm_;
  std::array<int, 9> goal_cell_{};
  int parity_ = 0;
};

Cells unpack(std::uint64_t s) {
  Cells c(9);
  for (int i = 0; i < 9; ++i) c[i] = static_cast<std::uint8_t>(RotatingDomain::at(s, i));
  return c;
}

// Labels of the nine pieces, in index order (no blank in this puzzle).
struct Pieces {
  std::vector<std::string> names;
  Cells parse(const std::string& text, const std::string& what) const {
    auto t = split_state(text, 9);
    if (t.size() != 9) throw InputError(fmt::format("{} has {} tokens; rotating-slide needs 9", what, t.size()));
    Cells c(9);
    std::vector<int> seen(9, 0);
    for (int i = 0; i < 9; ++i) {
      auto it = std::find(names.begin(), names.end(), t[i]);
      if (it == names.end()) throw InputError(fmt::format("{}: piece '{}' does not occur in the goal", what, t[i]));
      c[i] = static_cast<std::uint8_t>(it - names.begin());
      if (seen[c[i]]++) throw InputError(fmt::format("{}: piece '{}' occurs twice", what, t[i]));
    }
    return c;
  }
  std::string format(const Cells& c) const {
    std::string s;
    for (int i = 0; i < 9; ++i) s += (i ? " " : "") + names[c[i]];
    return s;
  }
};

Pieces pieces_of(const std::string& text, const std::string& what) {
  auto t = split_state(text, 9);
  if (t.size() != 9) throw InputError(fmt::format("{} has {} tokens; rotating-slide needs 9", what, t.size()));
  std::vector<std::string> sorted = t;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    throw InputError(fmt::format("{}: the nine pieces must be distinct", what));
  return Pieces{t};
}

// The nine pieces drawn (sliding/draw.h), coloured by their place in the goal; `marked`
// rings the pieces a step turned.
std::string picture(const Pieces& p, const Cells& c, const std::vector<int>& marked = {}) {
  std::vector<std::string> text(9), colour(9);
  for (int i = 0; i < 9; ++i) {
    text[i] = p.names[c[i]];
    colour[i] = std::string(render::palette(c[i]));
  }
  return tiles_svg(3, 3, text, colour, marked);
}

// The rules over the family's own types (puzzles/solution.h): a move is a pattern's index,
// written as the pattern.
struct RotatingRules {
  using Position = Cells;
  using Move = std::uint8_t;
  Pieces pieces;
  std::string state(const Cells& c) const { return pieces.format(c); }
  json move(const Cells&, Move m) const { return kPatterns[m]; }
  std::optional<Cells> apply(const Cells& c, Move m) const {
    if (m >= 8) return std::nullopt;
    return unpack(RotatingDomain::apply(RotatingDomain::pack(c), m));
  }
  std::string frame(const Cells& c) const { return picture(pieces, c); }
  std::string frame(const Cells&, Move m, const Cells& after) const {
    return picture(pieces, after, {kPatterns[m][0], kPatterns[m][1], kPatterns[m][2]});
  }
};

// One solve: the domain, the start, the solution mode.
struct RotatingJob {
  const RotatingDomain& d;
  RotatingDomain::State start;
  search::IdaOptions ida;
};

// In the order of the automatic choice: bidirectional BFS for one solution, else IDA*.
const SolverTable<RotatingJob, search::PathResult<std::uint8_t>>& solvers() {
  static const SolverTable<RotatingJob, search::PathResult<std::uint8_t>> table = [] {
    SolverTable<RotatingJob, search::PathResult<std::uint8_t>> t = {
        bibfs_solver<RotatingJob>({"bibfs",
                                   {"bidirectional", "bidirectional-bfs", "bi-bfs"},
                                   "bidirectional BFS: the default for one solution"}),
        idastar_solver<RotatingJob>(
            {"idastar", {"ida*", "ida-star", "ida"}, "IDA* (misplaced pieces / 3): the default for --all and --count"}),
        bfs_solver<RotatingJob>({"bfs", {"breadth-first"}, "breadth-first search"}),
        iddfs_solver<RotatingJob>({"iddfs", {"id", "iterative-deepening"}, "iterative deepening depth-first search"}),
    };
    for (auto& e : heuristic_solvers<RotatingJob>("misplaced pieces / 3")) t.push_back(std::move(e));
    return t;
  }();
  return table;
}

class RotatingPuzzle final : public Puzzle {
 public:
  std::string name() const override { return "rotating-slide"; }

  ShowReport show(const Options& o) const override {
    auto [pieces, start, goal] = instance(o);
    ShowReport r;
    r.info = {{"puzzle", name()}, {"rows", 3}, {"cols", 3}, {"start", pieces.format(start)},
              {"goal", pieces.format(goal)}, {"states", 181440}};
    json pats = json::array();
    for (const auto& p : kPatterns) pats.push_back(p);
    r.info["moves"] = pats;
    Geometry g(3, 3);
    r.text = "rotating-slide: 3x3, nine pieces; a move turns three pieces along a line through the centre:\n"
             "  pattern (x y z): the piece on y goes to x, z to y, x to z.\ncells:\n" +
             numbering(g) + "moves: ";
    for (const auto& p : kPatterns) r.text += fmt::format("({} {} {}) ", p[0], p[1], p[2]);
    r.text += "\nreachable states: 181440 (the even permutations)\n";
    const bool solvable = PermutationRanker::parity(start.data(), 9) == PermutationRanker::parity(goal.data(), 9);
    r.info["solvable"] = solvable;
    r.text += fmt::format("start: {}\n{}\n", pieces.format(start),
                          solvable ? "the start reaches the goal (both even, or both odd)" : "the start cannot reach the goal (odd permutation apart)");
    return r;
  }

  SolveReport solve(const Options& o) const override {
    auto [pieces, start, goal] = instance(o);
    SolveReport r;
    Solution<RotatingRules>& sol = *typed_solution(RotatingRules{pieces}, start, goal, r);
    RotatingDomain d(goal);
    std::array<std::uint8_t, 9> s;
    for (int i = 0; i < 9; ++i) s[i] = start[i];
    std::array<std::uint8_t, 9> g;
    for (int i = 0; i < 9; ++i) g[i] = goal[i];
    if (PermutationRanker::parity(s.data(), 9) != PermutationRanker::parity(g.data(), 9)) {
      r.solvable = false;
      r.reason = "every move is an even permutation; start and goal differ by an odd one";
      r.algorithm = "parity";
      return r;
    }
    const RotatingJob job{d, RotatingDomain::pack(start), ida_options(o)};
    const auto& solver = choose(solvers(), o.algorithm, job, kSolve, o.want());
    auto res = run_with_progress(solver, job, o);
    r.algorithm = solver.spec.name;
    report_solution(res, o, "the goal is not reachable from the start", sol, r);
    if (!r.solvable) return r;
    r.text = "positions:\n";
    const std::vector<Cells> boards = sol.positions();
    for (std::size_t i = 1; i < boards.size(); ++i) r.text += "  " + pieces.format(boards[i]) + "\n";
    return r;
  }

  // Uniform over the positions that reach the goal: every move is an even permutation and
  // the even ones are all reachable (181,440), so a uniform shuffle with its parity fixed.
  std::vector<std::string> random(const Options& o, std::uint64_t seed, std::size_t count) const override {
    const std::string goal = o.goal ? *o.goal : "1 2 3 4 5 6 7 8 9";
    Pieces p = pieces_of(goal, "goal");
    Cells g = p.parse(goal, "goal");
    require_memory(static_cast<std::uint64_t>(count) * (96 + 4 * 9), o.memory, "the random positions");
    SplitMix64 rng{seed};
    std::vector<std::string> out;
    for (std::size_t k = 0; k < count; ++k) {
      o.deadline.check();
      Cells c = g;
      rng.shuffle(c);
      if (PermutationRanker::parity(c.data(), 9) != PermutationRanker::parity(g.data(), 9)) std::swap(c[0], c[1]);
      out.push_back(p.format(c));
    }
    return out;
  }

  ExploreReport explore(const Options& o) const override { return explore_by_table(explore_table(), *this, o); }

  // One explore: the engine's layered BFS over the ranked positions (search/explore.h).
  static const ExploreTable<RotatingPuzzle>& explore_table() {
    static const auto t = one_explore<RotatingPuzzle>(
        bfs_explore("breadth-first layers over every position's rank (2 bits each)"), &RotatingPuzzle::explore_bfs);
    return t;
  }

  ExploreReport explore_bfs(const Options& o, const search::Limits& lim) const {
    std::string from = o.origin().value_or("1 2 3 4 5 6 7 8 9");
    Pieces pieces = pieces_of(from, "from state");
    Cells src = pieces.parse(from, "from state");
    RotatingDomain d(src);
    const std::uint64_t r0 = d.rank(RotatingDomain::pack(src));
    auto res = search::explore(d, std::span<const std::uint64_t>(&r0, 1), o.farthest, lim);
    ExploreReport r;
    r.from = pieces.format(src);
    r.states = res.states;
    r.depth = res.depth;
    r.histogram = res.histogram;
    r.farthest_count = res.farthest_count;
    for (auto f : res.farthest) r.farthest.push_back(pieces.format(unpack(d.unrank(f))));
    r.nodes = res.stats.expanded;
    r.table_bytes = res.table_bytes;
    return r;
  }

  // Pictures: the nine pieces (sliding/draw.h), coloured by their place in the goal; a
  // step rings the three pieces it turned.
  std::string draw(const Options& o) const override {
    if (o.command == kExplore) {
      const std::string from = o.origin().value_or("1 2 3 4 5 6 7 8 9");
      const Pieces p = pieces_of(from, "from state");
      return picture(p, p.parse(from, "from state"));
    }
    auto [pieces, start, goal] = instance(o);
    (void)goal;
    return picture(pieces, start);
  }
  Drawing draw_solution(const Options&, const SolveReport& r) const override {
    return draw_solution_of<RotatingRules>(r);
  }
  std::string draw_state(const Options& o, const std::string& state) const override {
    // Pieces named as in the goal (explore: the source): the colours follow the pieces.
    const std::string ref =
        o.command == kExplore ? (o.origin().value_or("1 2 3 4 5 6 7 8 9")) : (o.goal ? *o.goal : "1 2 3 4 5 6 7 8 9");
    const Pieces pieces = pieces_of(ref, "goal");
    return picture(pieces, pieces.parse(state, "state"));
  }

  // Play: one of the 8 turns (the move [x,4,z] as a solution writes it: the piece on z goes
  // to the centre, the centre's to x, x's to z; a click on z, then on x, makes it).
  std::optional<Play> play(const Options& o, const std::string& state) const override {
    auto [pieces, start, goal] = instance(o);
    const Cells b = state.empty() ? start : pieces.parse(state, "position");
    Play p;
    p.state = pieces.format(b);
    p.goal = b == goal;
    for (int i = 0; i < 8; ++i)
      p.moves.push_back({json(kPatterns[i]).dump(),
                         pieces.format(unpack(RotatingDomain::apply(RotatingDomain::pack(b), i))),
                         {kPatterns[i][2], kPatterns[i][0]}});
    return p;
  }

 private:
  std::tuple<Pieces, Cells, Cells> instance(const Options& o) const {
    std::string goal = o.goal ? *o.goal : "1 2 3 4 5 6 7 8 9";
    Pieces p = pieces_of(goal, "goal");
    Cells g = p.parse(goal, "goal");
    Cells s = p.parse(o.start ? *o.start : (o.goal ? goal : std::string("9 8 7 6 5 4 3 2 1")), "start");
    return {p, s, g};
  }
};

}  // namespace

Family rotating_family() {
  Family f;
  f.prefix = "rotating-slide";
  f.summary = "3x3 rotating slide: each move turns three pieces through the centre (from M. Hiroi's Scheme pages)";
  f.builtins = {
      {"rotating-slide", "3x3, 8 three-cycles through the centre; default start 9 8 7 6 5 4 3 2 1, 12 moves"}};
  f.options = {opt::start(), opt::goal(kAllCommands, "goal state (explore: the source when --from is not given)"),
               opt::from(), opt::all(), opt::count(), opt::farthest(), opt::spill()};
  for (auto& s : opt::heuristic_search()) f.options.push_back(std::move(s));  // --weight, --beam-width
  f.solvers = merge_specs(solver_specs(solvers()), solver_specs(RotatingPuzzle::explore_table()));
  f.notation = "the nine pieces in cell order (row-major from 0), e.g. --start \"9 8 7 6 5 4 3 2 1\" or 987654321";
  f.examples = {"tansaku solve rotating-slide --start 987654321", "tansaku explore rotating-slide --farthest 13",
                "tansaku random rotating-slide --count 5"};
  f.bench = {{kExplore, "rotating-slide", "", ""}};
  f.make = [](const std::string& variant, const Options&) -> std::unique_ptr<Puzzle> {
    if (!variant.empty()) throw InputError(fmt::format("rotating-slide has no variant '{}'", variant));
    return std::make_unique<RotatingPuzzle>();
  };
  return f;
}

}  // namespace tansaku::sliding
