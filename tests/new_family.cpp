// The worked example of docs/ARCHITECTURE.md "Write a new family": the Tower of Hanoi as a
// family, built from that walk-through alone, and checked as the CLI would drive it (options
// through the request layer, solve and explore through the family's tables). If the
// walk-through and the code drift apart, this stops compiling or fails.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "cli/request.h"
#include "tansaku/core/error.h"
#include "tansaku/puzzles/path_report.h"
#include "tansaku/puzzles/puzzle.h"
#include "tansaku/puzzles/solution.h"
#include "tansaku/puzzles/solver_table.h"
#include "tansaku/search/explore.h"

namespace hanoi {
using namespace tansaku;

// Step 1: the domain. A position is the peg (0, 1, 2) of every disc, two bits a disc, disc 0
// the smallest; a move is (from peg) * 3 + (to peg). Every disc starts on peg 0; the goal
// has every disc on peg 2.
struct Domain {
  using State = std::uint32_t;
  using Move = std::uint8_t;
  int discs = 3;

  static int peg(State s, int disc) { return static_cast<int>(s >> (2 * disc)) & 3; }
  State goal() const {
    State g = 0;
    for (int i = 0; i < discs; ++i) g |= State{2} << (2 * i);
    return g;
  }
  bool is_goal(State s) const { return s == goal(); }
  // The top disc of each peg (the smallest on it), or -1.
  std::array<int, 3> tops(State s) const {
    std::array<int, 3> top{-1, -1, -1};
    for (int i = discs - 1; i >= 0; --i) top[static_cast<std::size_t>(peg(s, i))] = i;
    return top;
  }
  template <class F>
  void for_each_move(State s, F&& f) const {
    const auto top = tops(s);
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) {
        const int d = top[static_cast<std::size_t>(a)];
        if (a == b || d < 0) continue;
        const int onto = top[static_cast<std::size_t>(b)];
        if (onto >= 0 && onto < d) continue;  // never a larger disc on a smaller one
        f(static_cast<Move>(a * 3 + b), (s & ~(State{3} << (2 * d))) | (State(b) << (2 * d)));
      }
  }
  // An admissible bound: every disc not yet on peg 2 moves at least once.
  int h(State s) const {
    int n = 0;
    for (int i = 0; i < discs; ++i) n += peg(s, i) != 2;
    return n;
  }
  // Ranks for explore: base 3, disc 0 lowest.
  std::uint64_t size() const {
    std::uint64_t n = 1;
    for (int i = 0; i < discs; ++i) n *= 3;
    return n;
  }
  std::uint64_t rank(State s) const {
    std::uint64_t r = 0;
    for (int i = discs - 1; i >= 0; --i) r = r * 3 + static_cast<std::uint64_t>(peg(s, i));
    return r;
  }
  State unrank(std::uint64_t r) const {
    State s = 0;
    for (int i = 0; i < discs; ++i, r /= 3) s |= static_cast<State>(r % 3) << (2 * i);
    return s;
  }
  bool symmetric() const { return true; }  // every move can be undone
};

// Step 2: the family's own options, typed. The request layer checks them (type, range) and
// stores them here; the family reads fields, never names.
struct Settings {
  std::optional<int> discs;  // --discs N (default 3)
};

// Step 3: the notation. A position is the peg of each disc, smallest first: "000" .. "222".
std::string format(const Domain& d, Domain::State s) {
  std::string out;
  for (int i = 0; i < d.discs; ++i) out += static_cast<char>('0' + Domain::peg(s, i));
  return out;
}
Domain::State parse(const Domain& d, const std::string& text, const std::string& what) {
  if (static_cast<int>(text.size()) != d.discs || text.find_first_not_of("012") != std::string::npos)
    throw InputError(
        fmt::format("{} '{}': give the peg (0, 1 or 2) of each of the {} discs, smallest first", what, text, d.discs));
  Domain::State s = 0;
  for (int i = 0; i < d.discs; ++i) s |= static_cast<Domain::State>(text[static_cast<std::size_t>(i)] - '0') << (2 * i);
  return s;
}
std::string move_name(Domain::Move m) { return fmt::format("{}>{}", m / 3, m % 3); }

// The rules over the family's own types (puzzles/solution.h): how a position and a move are
// written, and what a move does (nullopt: not legal there). The base verifies a solution by
// replaying it through `apply` and writes the report from it; with `frame` hooks it would
// also draw it (draw_solution_of).
struct Rules {
  using Position = Domain::State;
  using Move = Domain::Move;
  Domain d;
  std::string state(Position s) const { return format(d, s); }
  json move(Position, Move m) const { return move_name(m); }
  std::optional<Position> apply(Position s, Move m) const {
    std::optional<Position> out;
    d.for_each_move(s, [&](Move mm, Position next) {
      if (mm == m && !out) out = next;
    });
    return out;
  }
};

// Step 4: the puzzle: show, solve through a solver table, explore through an explore table.
class Puzzle final : public tansaku::Puzzle {
 public:
  explicit Puzzle(int discs) { d_.discs = discs; }
  std::string name() const override { return fmt::format("hanoi:{}", d_.discs); }

  ShowReport show(const Options&) const override {
    ShowReport r;
    r.info = {{"puzzle", name()}, {"discs", d_.discs}, {"positions", d_.size()}};
    r.text = fmt::format("Tower of Hanoi, {} discs on 3 pegs: {} positions\n", d_.discs, d_.size());
    return r;
  }

  struct Job {
    Domain d;
    Domain::State start;
    search::IdaOptions ida;
  };
  static const SolverTable<Job, PathOf<Job>>& solvers() {
    static const SolverTable<Job, PathOf<Job>> table{
        bfs_solver<Job>({"bfs", {}, "breadth-first search (the space is small: 3^N)"}),
        idastar_solver<Job>({"idastar", {"ida*"}, "IDA* with the discs-not-home bound (small N: the bound is weak)"}),
    };
    return table;
  }

  SolveReport solve(const Options& o) const override {
    const Domain::State start = o.start ? parse(d_, *o.start, "--start") : 0;
    const Job job{d_, start, ida_options(o)};
    const auto& entry = choose(solvers(), o.algorithm, job, kSolve, o.want());
    const auto res = run_with_progress(entry, job, o);
    SolveReport r;
    // The solution in the family's own types: start and goal now, the moves from the path,
    // every one replayed through the rules before anything is reported.
    Solution<Rules>& sol = *typed_solution(Rules{d_}, start, d_.goal(), r);
    r.algorithm = entry.spec.name;
    report_solution(res, o, "the goal is not reachable", sol, r);
    return r;
  }

  ExploreReport explore(const Options& o) const override { return explore_by_table(explore_table(), *this, o); }
  static const ExploreTable<Puzzle>& explore_table() {
    static const auto t =
        one_explore<Puzzle>(bfs_explore("breadth-first layers over every position's rank"), &Puzzle::explore_bfs);
    return t;
  }
  ExploreReport explore_bfs(const Options& o, const search::Limits& lim) const {
    const Domain::State from = o.origin() ? parse(d_, *o.origin(), "--from") : 0;
    const std::uint64_t r0 = d_.rank(from);
    auto res = search::explore(d_, std::span<const std::uint64_t>(&r0, 1), o.farthest, lim);
    ExploreReport r;
    r.from = format(d_, from);
    r.states = res.states;
    r.depth = res.depth;
    r.histogram = res.histogram;
    r.farthest_count = res.farthest_count;
    for (auto f : res.farthest) r.farthest.push_back(format(d_, d_.unrank(f)));
    r.nodes = res.stats.expanded;
    r.table_bytes = res.table_bytes;
    return r;
  }

 private:
  Domain d_;
};

// Step 5: the declaration (in a real family: `Family family()` in the family's folder, and
// one line in src/registry/registry.cpp).
Family family() {
  Family f;
  f.prefix = "hanoi";
  f.summary = "Tower of Hanoi: move the discs from peg 0 to peg 2, never a larger on a smaller";
  f.builtins = {{"hanoi", "3 discs (--discs N for more)"}};
  f.options = {
      opt::start(),    opt::from(),
      opt::all(),      opt::count(),
      opt::farthest(), opt::integer(&Settings::discs, "discs", "how many discs (default 3)", kAllCommands, {1, 15})};
  f.settings = opt::settings<Settings>();
  f.solvers = merge_specs(solver_specs(Puzzle::solvers()), solver_specs(Puzzle::explore_table()));
  f.notation = "a position is the peg (0, 1, 2) of each disc, smallest first: --start 000";
  f.make = [](const std::string& variant, const Options& o) -> std::unique_ptr<tansaku::Puzzle> {
    if (!variant.empty()) throw InputError("hanoi has no variants: use --discs N");
    return std::make_unique<Puzzle>(o.settings<Settings>().discs.value_or(3));
  };
  return f;
}

}  // namespace hanoi

namespace {
using namespace tansaku;

// The options as a front end hands them over: raw text, checked against the declaration.
Options request(const Family& f, unsigned command, const std::map<std::string, std::string>& given) {
  Raw raw;
  raw.puzzle = f.prefix;
  Options o;
  o.command = command;
  o.quiet = true;
  o.threads = 1;
  for (const auto& [k, v] : given) {
    raw.text[k] = v;
    o.given.insert(k);
  }
  if (given.count("algorithm")) o.given.insert("algorithm");
  family_options(f, f.prefix, command, raw, o);
  return o;
}

TEST(NewFamily, HanoiSolvesInTwoToTheNMinusOneMoves) {
  const Family f = hanoi::family();
  for (int n = 1; n <= 7; ++n) {
    const Options o = request(f, kSolve, {{"discs", std::to_string(n)}});
    EXPECT_EQ(o.settings<hanoi::Settings>().discs, n);  // typed by the request layer
    const SolveReport r = f.make("", o)->solve(o);
    ASSERT_TRUE(r.solvable);
    EXPECT_EQ(r.length, (std::int64_t{1} << n) - 1) << n << " discs";
    EXPECT_EQ(r.algorithm, "bfs");  // the first entry of the table that applies
    EXPECT_EQ(r.moves.size(), static_cast<std::size_t>(*r.length));
    // The same solution, typed: the moves the printed ones were written from, ending on the goal.
    const auto* sol = solution_of<hanoi::Rules>(r);
    ASSERT_NE(sol, nullptr);
    EXPECT_EQ(sol->moves.size(), r.moves.size());
    EXPECT_EQ(sol->positions().back(), sol->goal);
  }
}

TEST(NewFamily, HanoiSolutionsAreVerifiedByReplayingTheRules) {
  hanoi::Domain d;
  const Solution<hanoi::Rules> s(hanoi::Rules{d}, 0, d.goal());
  EXPECT_THROW(s.verify({1, 1}), std::logic_error);  // disc 1 onto disc 0: not a legal move
  EXPECT_THROW(s.verify({2}), std::logic_error);     // one move: the goal is not reached
  EXPECT_EQ(s.verify({2, 1, 7, 2, 3, 5, 2}).size(), 7u);
}

TEST(NewFamily, HanoiSolversAgreeAndCountTheOneSolution) {
  const Family f = hanoi::family();
  const Options bfs = request(f, kSolve, {{"discs", "3"}});
  const Options ida = request(f, kSolve, {{"discs", "3"}, {"algorithm", "ida*"}});
  const SolveReport a = f.make("", bfs)->solve(bfs), b = f.make("", ida)->solve(ida);
  EXPECT_EQ(b.algorithm, "idastar");  // the alias resolved by the request layer
  EXPECT_EQ(a.length, 7);
  EXPECT_EQ(a.moves, b.moves);  // the optimal solution is unique
  Options count = request(f, kSolve, {{"discs", "2"}, {"count", ""}});
  EXPECT_EQ(f.make("", count)->solve(count).count, json(1));
  EXPECT_THROW(request(f, kSolve, {{"algorithm", "greedy"}}), InputError);
}

TEST(NewFamily, HanoiExploresThreeToTheNPositions) {
  const Family f = hanoi::family();
  const Options o = request(f, kExplore, {{"discs", "6"}, {"farthest", "3"}});
  const ExploreReport r = f.make("", o)->explore(o);
  EXPECT_EQ(r.states, 729u);  // 3^6: every position is reachable
  EXPECT_EQ(r.depth, 63);     // 2^6 - 1: the other two towers are as far as anything
  EXPECT_EQ(r.algorithm, "bfs");
  EXPECT_EQ(r.threads, 1u);  // the machine figures, filled by explore_by_table
  EXPECT_TRUE(r.peak_rss_bytes.has_value());
  // The histogram against a plain breadth-first search over the same rules.
  hanoi::Domain d;
  d.discs = 6;
  std::map<hanoi::Domain::State, int> dist{{0, 0}};
  std::vector<hanoi::Domain::State> layer{0};
  std::vector<std::uint64_t> histogram{1};
  while (!layer.empty()) {
    std::vector<hanoi::Domain::State> next;
    for (auto s : layer)
      d.for_each_move(s, [&](hanoi::Domain::Move, hanoi::Domain::State t) {
        if (dist.emplace(t, dist[s] + 1).second) next.push_back(t);
      });
    if (!next.empty()) histogram.push_back(next.size());
    layer = std::move(next);
  }
  EXPECT_EQ(r.histogram, histogram);
  EXPECT_EQ(r.farthest_count, histogram.back());
  ASSERT_EQ(r.farthest.size(), 3u);
  EXPECT_EQ(r.farthest.front(), "000001");  // ranks ascending: the smallest discs vary fastest
}

TEST(NewFamily, HanoiOptionsAreCheckedByTheRequestLayer) {
  const Family f = hanoi::family();
  EXPECT_THROW(request(f, kSolve, {{"discs", "0"}}), InputError);     // below the range
  EXPECT_THROW(request(f, kSolve, {{"discs", "16"}}), InputError);    // above it
  EXPECT_THROW(request(f, kSolve, {{"discs", "x"}}), InputError);     // not a number
  EXPECT_THROW(request(f, kSolve, {{"farthest", "2"}}), InputError);  // explore's, not solve's
  const Options o = request(f, kSolve, {{"start", "00"}});
  EXPECT_THROW(f.make("", o)->solve(o), InputError);  // 3 discs need 3 pegs named
  // A start one move from the goal.
  const Options near = request(f, kSolve, {{"start", "122"}});
  EXPECT_EQ(f.make("", near)->solve(near).length, 1);
}

}  // namespace
