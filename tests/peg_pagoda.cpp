// Pagoda functions: the exact check, the LPs (GLPK), the functions found, the proofs of
// impossibility (cross-checked by exhaustive search), and searches with pruning on and off.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdlib>
#include <random>
#include <unordered_map>

#include "cli_util.h"
#include "peg/board.h"
#include "peg/layers.h"
#include "peg/pagoda.h"
#include "peg/solver.h"
#include "peg/verify.h"

using namespace tansaku;
using namespace tansaku::peg;

namespace {

SolveParams params(const std::string& alg, int pagoda, Metric metric = Metric::Moves) {
  SolveParams p;
  p.algorithm = alg;
  p.metric = metric;
  p.pagoda = pagoda;
  return p;
}

search::Limits limits2() {
  search::Limits lim;
  lim.threads = 2;
  return lim;
}

Bits vacancy(const Board& bd, int h) { return bd.all & ~bd.bit(h); }

// Whether the goal can be reached from b: plain depth-first search with a memo (no
// symmetry, no bounds, no pagoda functions).
bool brute_reachable(const Board& bd, Bits b, const Goal& goal, std::unordered_map<Bits, bool>& memo) {
  if (goal.reached(b)) return true;
  if (std::popcount(b) <= goal.pegs_left()) return false;
  auto it = memo.find(b);
  if (it != memo.end()) return it->second;
  bool ok = false;
  for (const auto& j : bd.jumps) {
    if (!(b >> j.from & 1) || !(b >> j.over & 1) || (b >> j.to & 1)) continue;
    if (brute_reachable(bd, b ^ j.mask, goal, memo)) {
      ok = true;
      break;
    }
  }
  memo[b] = ok;
  return ok;
}
bool brute_reachable(const Board& bd, Bits b, const Goal& goal) {
  std::unordered_map<Bits, bool> memo;
  return brute_reachable(bd, b, goal, memo);
}

// Rows of the English board, top to bottom: 3, 3, 7, 7, 7, 3, 3 holes.
int english_row(int h) {
  static const int starts[] = {0, 3, 6, 13, 20, 27, 30, 33};
  int r = 0;
  while (h >= starts[r + 1]) ++r;
  return r;
}

// Lower 20 holes of the English board (rows 3-6) except hole 23; the last peg cannot reach
// hole 1 (exhaustive search agrees, below).
const char* kEnglishFar = "000000000000011111111110111111111";

int solve_moves(const Solver& s, Bits start, const Goal& g, const std::string& alg, int pagoda) {
  auto out = s.solve(start, g, params(alg, pagoda), limits2());
  return out.solvable ? out.length : -1;
}

}  // namespace

TEST(PegPagoda, ExactCheckOnHandMadeFunctions) {
  const Board en = builtin_board("english");
  ASSERT_EQ(en.n, 33);
  // Fibonacci by rows (1, 1, 2, 3, 5, 8, 13 from the top): a jump down a column lands on at
  // most the sum of the two rows above; jumps along a row or upwards lose weight.
  Weights fib(33);
  const int F[] = {1, 1, 2, 3, 5, 8, 13};
  for (int h = 0; h < 33; ++h) fib[h] = F[english_row(h)];
  EXPECT_TRUE(is_pagoda(en, fib));
  EXPECT_EQ(pagoda_value(fib, en.all), 3 * 1 + 3 * 1 + 7 * 2 + 7 * 3 + 7 * 5 + 3 * 8 + 3 * 13);
  EXPECT_EQ(pagoda_value(fib, en.bit(16) | en.bit(31)), 3 + 13);
  // Constant weights c work for c >= 0 (c <= 2c), not for c < 0.
  EXPECT_TRUE(is_pagoda(en, Weights(33, 1)));
  EXPECT_TRUE(is_pagoda(en, Weights(33, 0)));
  EXPECT_FALSE(is_pagoda(en, Weights(33, -1)));
  // Broken: the centre (row 3) raised above 4 over 9 into 16 allows (1 + 2 = 3).
  Weights broken = fib;
  broken[16] = 4;
  EXPECT_FALSE(is_pagoda(en, broken));
  broken = fib;
  broken[0] = -1;  // 0 over 3 into 8: 2 > -1 + 1
  EXPECT_FALSE(is_pagoda(en, broken));
  EXPECT_FALSE(is_pagoda(en, Weights(32, 1)));  // wrong size
  // Weight 1 on the centre alone: broken by any jump into it.
  Weights centre(33, 0);
  centre[16] = 1;
  EXPECT_FALSE(is_pagoda(en, centre));
  // The function of docs/peg.md (negative weights on the arms' ends) by hand: valid, and
  // worth 1 on the lower 20 holes but 23, 2 on hole 1.
  const Weights far = {0, 2, 0,  0, 1, 0,  -1, 1, 0, 1, 0, 1, -1,  0, 0, 0, 0, 0, 0, 0,
                       -1, 1, 0, 1, 0, 1, -1,  0, 0, 0,  0, 1, 0};
  EXPECT_TRUE(is_pagoda(en, far));
  EXPECT_EQ(pagoda_value(far, parse_position(en, kEnglishFar, "start")), 1);
  EXPECT_EQ(pagoda_value(far, en.bit(1)), 2);
  Weights far_broken = far;
  far_broken[4] = 2;  // 16 over 9 into 4: 2 > 0 + 1
  EXPECT_FALSE(is_pagoda(en, far_broken));
  // The goal's value: its sum, or the least weight of a possible last hole.
  Solver s(en);
  EXPECT_EQ(pagoda_goal_value(fib, s.at(31)), 13);
  EXPECT_EQ(pagoda_goal_value(fib, s.anywhere(vacancy(en, 16))), 1);  // finishers 1, 13, 16, 19, 31
}

TEST(PegPagoda, SimplexOnSmallPrograms) {
  {  // max 3x + 2y: x + y <= 4, x + 3y <= 6, x <= 3 -> (3, 1), 11
    LinearProgram lp;
    lp.vars = 2;
    lp.c = {3, 2};
    lp.upper = {3, 10};
    lp.rows = {{{0, 1.0}, {1, 1.0}}, {{0, 1.0}, {1, 3.0}}};
    lp.rhs = {4, 6};
    auto s = solve_lp(lp);
    ASSERT_TRUE(s.optimal);
    EXPECT_NEAR(s.value, 11.0, 1e-9);
    EXPECT_NEAR(s.x[0], 3.0, 1e-9);
    EXPECT_NEAR(s.x[1], 1.0, 1e-9);
  }
  {  // max x1 + x2 + x3 on [0, 1]^3: x1 + x2 <= 1.5, x2 + x3 <= 1.5 -> 2.5
    LinearProgram lp;
    lp.vars = 3;
    lp.c = {1, 1, 1};
    lp.upper = {1, 1, 1};
    lp.rows = {{{0, 1.0}, {1, 1.0}}, {{1, 1.0}, {2, 1.0}}};
    lp.rhs = {1.5, 1.5};
    auto s = solve_lp(lp);
    ASSERT_TRUE(s.optimal);
    EXPECT_NEAR(s.value, 2.5, 1e-9);
  }
  {  // bounds only: max x + y - z, x <= 2, y <= 3 -> 5 at (2, 3, 0)
    LinearProgram lp;
    lp.vars = 3;
    lp.c = {1, 1, -1};
    lp.upper = {2, 3, 4};
    auto s = solve_lp(lp);
    ASSERT_TRUE(s.optimal);
    EXPECT_NEAR(s.value, 5.0, 1e-9);
    EXPECT_EQ(s.x, (std::vector<double>{2, 3, 0}));
  }
  {  // the same with a slack row, through GLPK: bound flips only
    LinearProgram lp;
    lp.vars = 3;
    lp.c = {1, 1, -1};
    lp.upper = {2, 3, 4};
    lp.rows = {{{0, 1.0}, {1, 1.0}, {2, 1.0}}};
    lp.rhs = {10};
    auto s = solve_lp(lp);
    ASSERT_TRUE(s.optimal);
    EXPECT_NEAR(s.value, 5.0, 1e-9);
  }
  {  // degenerate: max x + y with x - y <= 0 (three copies), x + y <= 0 -> 0
    LinearProgram lp;
    lp.vars = 2;
    lp.c = {1, 1};
    lp.upper = {5, 5};
    for (int k = 0; k < 3; ++k) lp.rows.push_back({{0, 1.0}, {1, -1.0}}), lp.rhs.push_back(0);
    lp.rows.push_back({{0, 1.0}, {1, 1.0}});
    lp.rhs.push_back(0);
    auto s = solve_lp(lp);
    ASSERT_TRUE(s.optimal);
    EXPECT_NEAR(s.value, 0.0, 1e-9);
  }
  {  // unbounded: max x - y with x - y <= 1 on [0, inf)^2 ... bounded; max x + y is not
    LinearProgram lp;
    lp.vars = 2;
    lp.c = {1, 1};
    lp.upper = {INFINITY, INFINITY};
    lp.rows = {{{0, 1.0}, {1, -1.0}}};
    lp.rhs = {1};
    EXPECT_FALSE(solve_lp(lp).optimal);
  }
}

TEST(PegPagoda, FoundFunctionsPassTheExactCheck) {
  struct Case {
    const char* board;
    int empty, finish;  // finish -1: anywhere
  };
  for (const Case& c : {Case{"english", 16, 16}, Case{"trytry", 11, 11}, Case{"trytry", 11, -1},
                        Case{"triangle6", 4, -1}, Case{"triangle5", 12, 12}, Case{"french", 0, -1}}) {
    Solver s(builtin_board(c.board));
    const Board& bd = s.board();
    const Bits start = vacancy(bd, c.empty);
    const Goal g = c.finish < 0 ? s.anywhere(start) : s.at(c.finish);
    const PagodaSet set = find_pagodas(bd, s.group(), start, g);
    SCOPED_TRACE(c.board);
    EXPECT_FALSE(set.proof);
    ASSERT_FALSE(set.functions.empty());
    EXPECT_LE(set.functions.size(), 8u);
    EXPECT_LE(set.lanes.size(), 64u);
    EXPECT_GT(set.refuted, 0);
    for (const auto& w : set.lanes) {
      EXPECT_TRUE(is_pagoda(bd, w)) << format_weights(w);
      EXPECT_GE(pagoda_value(w, start), pagoda_goal_value(w, g)) << format_weights(w);
    }
    // The fast test agrees with the definition, from scratch and after a jump.
    const PagodaPrune prune = PagodaPrune::for_search(bd, set, g, {s.group()[0]});
    ASSERT_TRUE(prune.active());
    std::mt19937_64 rng(7);
    PagodaPrune::Block lanes[PagodaPrune::kMaxBlocks], after[PagodaPrune::kMaxBlocks];
    for (int k = 0; k < 2000; ++k) {
      const Bits b = rng() & rng() & bd.all;  // about a quarter of the holes
      bool dead = false;
      for (const auto& w : set.lanes) dead = dead || pagoda_value(w, b) < pagoda_goal_value(w, g);
      EXPECT_EQ(prune.dead(b), dead);
      prune.values(b, lanes);
      for (std::size_t j = 0; j < bd.jumps.size(); ++j) {
        const Bits m = bd.jumps[j].mask;
        if ((b & m) != (bd.bit(bd.jumps[j].from) | bd.bit(bd.jumps[j].over))) continue;
        EXPECT_EQ(prune.dead_after(lanes, static_cast<int>(j)), prune.dead(b ^ m));
        EXPECT_EQ(prune.step(lanes, static_cast<int>(j), after), prune.dead(b ^ m));
      }
    }
  }
}

TEST(PegPagoda, SolutionsAreNeverPruned) {
  // Every position on an optimal solution (found without pagoda functions) lives.
  for (auto [board, empty, finish] : {std::tuple{"trytry", 11, 11}, std::tuple{"triangle6", 4, 4}}) {
    Solver s(builtin_board(board));
    const Bits start = vacancy(s.board(), empty);
    const Goal g = s.at(finish);
    auto out = s.solve(start, g, params("idastar", 0), limits2());
    ASSERT_TRUE(out.solvable) << board;
    const PagodaSet set = find_pagodas(s.board(), s.group(), start, g);
    const PagodaPrune prune = PagodaPrune::for_search(s.board(), set, g, {s.group()[0]});
    Bits b = start;
    EXPECT_FALSE(prune.dead(b));
    for (const auto& m : out.moves) {
      for (std::size_t k = 1; k < m.size(); ++k) {
        b = replay(s.board(), b, {{m[k - 1], m[k]}}).end;
        EXPECT_FALSE(prune.dead(b)) << board << " " << format_position(s.board(), b);
      }
    }
  }
}

TEST(PegPagoda, ProofOnTheEnglishBoard) {
  Solver s(builtin_board("english"));
  const Board& bd = s.board();
  const Bits start = parse_position(bd, kEnglishFar, "--start");
  const Goal g = s.at(1);
  ASSERT_EQ(s.classes().of(start), s.classes().of(g.pegs));  // position classes allow it
  auto out = s.solve(start, g, params("", 1), limits2());
  EXPECT_FALSE(out.solvable);
  EXPECT_EQ(out.nodes, 0u);
  ASSERT_TRUE(out.pagoda_proof);
  EXPECT_NE(out.reason.find("pagoda function"), std::string::npos) << out.reason;
  EXPECT_TRUE(is_pagoda(bd, *out.pagoda_proof));
  EXPECT_LT(pagoda_value(*out.pagoda_proof, start), pagoda_goal_value(*out.pagoda_proof, g));
  // The exhaustive search agrees, and so does the count.
  auto ex = s.solve(start, g, params("idastar", 0), limits2());
  EXPECT_FALSE(ex.solvable);
  EXPECT_GT(ex.nodes, 0u);
  EXPECT_FALSE(ex.pagoda_proof);
  auto c = s.count(start, g, params("", 1), limits2());
  EXPECT_TRUE(c.count == 0);
  EXPECT_TRUE(c.pagoda_proof);
  // Known-solvable instances get no proof.
  for (int f : {1, 13, 16, 19, 31})
    EXPECT_FALSE(find_pagodas(bd, s.group(), vacancy(bd, 16), s.at(f)).proof) << f;
  EXPECT_FALSE(find_pagodas(bd, s.group(), vacancy(bd, 16), s.anywhere(vacancy(bd, 16))).proof);
}

TEST(PegPagoda, ProofsAgreeWithExhaustiveSearch) {
  // Every single vacancy -> one peg (on each hole, and anywhere) on triangle5, triangle6 and
  // Try-Try: wherever a pagoda function claims impossible, exhaustive search agrees; every
  // instance that exhaustive search solves has no proof.
  for (const char* board : {"triangle5", "triangle6", "trytry"}) {
    Solver s(builtin_board(board));
    const Board& bd = s.board();
    int claims = 0;
    for (int v = 0; v < bd.n; ++v) {
      const Bits start = vacancy(bd, v);
      std::vector<Goal> goals = {s.anywhere(start)};
      for (int f = 0; f < bd.n; ++f)
        if (s.classes().of(start) == s.classes().of(bd.bit(f))) goals.push_back(s.at(f));
      for (const Goal& g : goals) {
        const auto w = separating_pagoda(bd, start, g);
        if (!w) continue;
        ++claims;
        EXPECT_TRUE(is_pagoda(bd, *w));
        EXPECT_FALSE(brute_reachable(bd, start, g)) << board << " vacancy " << v;
      }
    }
    // (Full boards keep enough pegs everywhere: no single-vacancy problem here is refuted
    // by a pagoda function that position classes allow.)
    EXPECT_EQ(claims, 0) << board;
  }
  // Sparse random starts on triangle6: many claims, each confirmed by exhaustive search,
  // and exhaustive solutions never contradicted.
  Solver s(builtin_board("triangle6"));
  const Board& bd = s.board();
  std::mt19937_64 rng(2024);
  int claims = 0, solvable = 0;
  for (int k = 0; k < 400; ++k) {
    const Bits start = rng() & rng() & bd.all;  // about 5 pegs
    if (std::popcount(start) < 3) continue;
    const int f = static_cast<int>(rng() % bd.n);
    for (const Goal& g : {s.at(f), s.anywhere(start)}) {
      if (!g.anywhere && s.classes().of(start) != s.classes().of(g.pegs)) continue;
      if (g.anywhere && !g.finishers) continue;
      const bool reachable = brute_reachable(bd, start, g);
      solvable += reachable;
      const auto w = separating_pagoda(bd, start, g);
      if (!w) continue;
      ++claims;
      EXPECT_TRUE(is_pagoda(bd, *w));
      EXPECT_FALSE(reachable) << format_position(bd, start) << " -> " << s.describe(g);
      // The solver reports it before any search.
      auto out = s.solve(start, g, params("", 1), limits2());
      EXPECT_FALSE(out.solvable);
      EXPECT_TRUE(out.pagoda_proof);
    }
  }
  EXPECT_GT(claims, 50);
  EXPECT_GT(solvable, 10);
}

TEST(PegPagoda, ResultsUnchangedWithPruningOnAndOff) {
  {  // triangle5: every vacancy, anywhere and back in the vacancy, both searches.
    Solver s(builtin_board("triangle5"));
    for (int h = 0; h < 15; ++h) {
      const Bits start = vacancy(s.board(), h);
      for (const Goal& g : {s.anywhere(start), s.at(h)}) {
        const int want = solve_moves(s, start, g, "idastar", 0);
        EXPECT_EQ(solve_moves(s, start, g, "idastar", 1), want) << h;
        EXPECT_EQ(solve_moves(s, start, g, "layered", 1), want) << h;
        EXPECT_EQ(solve_moves(s, start, g, "layered", 0), want) << h;
        auto on = s.count(start, g, params("", 1), limits2()), off = s.count(start, g, params("", 0), limits2());
        EXPECT_TRUE(on.count == off.count) << h;
        auto jon = s.solve(start, g, params("", 1, Metric::Jumps), limits2());
        auto joff = s.solve(start, g, params("", 0, Metric::Jumps), limits2());
        EXPECT_EQ(jon.solvable, joff.solvable) << h;
        EXPECT_EQ(jon.length, joff.length) << h;
      }
    }
    // The layered engines directly, with pruning forced on (the solver skips it on boards
    // this small): every vacancy, every goal, with the goal images of the start's symmetries.
    for (int h = 0; h < 15; ++h) {
      const Bits start = vacancy(s.board(), h);
      const Symmetry H(s.board(), Symmetry::stabiliser(s.group(), start));
      std::vector<Goal> goals = {s.anywhere(start)};
      for (Bits f = s.anywhere(start).finishers; f; f &= f - 1) goals.push_back(s.at(std::countr_zero(f)));
      for (const Goal& g : goals) {
        const PagodaSet set = find_pagodas(s.board(), s.group(), start, g);
        ASSERT_FALSE(set.proof);
        const PagodaPrune prune = PagodaPrune::for_search(s.board(), set, g, H.perms());
        search::Limits plain;
        auto c0 = count_layers(s.board(), H, start, g, plain), c1 = count_layers(s.board(), H, start, g, plain, &prune);
        EXPECT_TRUE(c0.count == c1.count) << h << " " << s.describe(g);
        EXPECT_LE(c1.positions, c0.positions);
        auto m0 = min_moves_layers(s.board(), H, start, g, plain), m1 = min_moves_layers(s.board(), H, start, g, plain, &prune);
        EXPECT_EQ(m0.found, m1.found);
        EXPECT_EQ(m0.moves, m1.moves) << h << " " << s.describe(g);
      }
    }
    const Bits corner = vacancy(s.board(), 0);
    auto c = s.count(corner, s.anywhere(corner), params("", 1), limits2());
    EXPECT_EQ(tansaku::to_u64(c.count), 29760u);
    auto t = s.solve(vacancy(s.board(), 12), s.at(12), params("", 1), limits2());
    EXPECT_EQ(t.length, 9);
  }
  {  // Try-Try: 11 anywhere, 12 to the centre; counts to hole 3 with and without.
    Solver s(builtin_board("trytry"));
    const Bits start = vacancy(s.board(), 11);
    auto any = s.solve(start, s.anywhere(start), params("", 1), limits2());
    EXPECT_EQ(any.length, 11);
    EXPECT_EQ(s.solve(start, s.at(11), params("", 1), limits2()).length, 12);
    EXPECT_EQ(s.solve(start, s.at(11), params("layered", 1), limits2()).length, 12);
    auto on = s.count(start, s.at(3), params("", 1), limits2());
    EXPECT_EQ(tansaku::to_u64(on.count), 1622487499889400u);
  }
  {  // English, the lower 20 holes but 23: IDA* past its plain stage, with and without.
    Solver s(builtin_board("english"));
    const Bits start = parse_position(s.board(), kEnglishFar, "--start");
    auto on = s.solve(start, s.at(16), params("idastar", 1), limits2()), off = s.solve(start, s.at(16), params("idastar", 0), limits2());
    EXPECT_EQ(on.length, 12);
    EXPECT_EQ(off.length, 12);
    EXPECT_GT(on.pagoda_functions, 0);
    EXPECT_LT(on.nodes, off.nodes);
    EXPECT_EQ(s.solve(start, s.at(16), params("layered", 1), limits2()).length, 12);
    // Impossible to hole 31 (classes allow it): proved by the exhaustive search either way.
    on = s.solve(start, s.at(31), params("idastar", 1), limits2()), off = s.solve(start, s.at(31), params("idastar", 0), limits2());
    EXPECT_FALSE(on.solvable);
    EXPECT_FALSE(off.solvable);
    EXPECT_FALSE(on.pagoda_proof);
    auto jon = s.solve(start, s.at(13), params("", 1, Metric::Jumps), limits2());
    auto joff = s.solve(start, s.at(13), params("", 0, Metric::Jumps), limits2());
    EXPECT_TRUE(jon.solvable);
    EXPECT_EQ(jon.length, joff.length);
  }
  {  // triangle6 from hole 4 (a symmetric start) to goals off its axis: layered with groups.
    Solver s(builtin_board("triangle6"));
    const Bits start = vacancy(s.board(), 4);
    for (Bits f = s.anywhere(start).finishers; f; f &= f - 1) {
      const Goal g = s.at(std::countr_zero(f));
      auto on = s.count(start, g, params("", 1), limits2()), off = s.count(start, g, params("", 0), limits2());
      EXPECT_TRUE(on.count == off.count) << std::countr_zero(f);
      EXPECT_LE(on.positions, off.positions);
      EXPECT_EQ(solve_moves(s, start, g, "layered", 1), solve_moves(s, start, g, "layered", 0)) << std::countr_zero(f);
    }
  }
}

TEST(PegPagoda, CommandLine) {
  CliResult r = run_cli(std::string("solve peg:english --start ") + kEnglishFar + " --finish 1 --json");
  EXPECT_EQ(r.code, 1) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["solvable"], false);
  EXPECT_EQ(j["algorithm"], "pagoda function");
  ASSERT_TRUE(j.contains("pagoda_proof"));
  EXPECT_EQ(j["pagoda_proof"].size(), 33u);
  EXPECT_NE(j["reason"].get<std::string>().find("pagoda function"), std::string::npos);
  r = run_cli(std::string("solve peg:english --start ") + kEnglishFar + " --finish 1");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE((r.out + r.err).find("pagoda"), std::string::npos) << r.out << r.err;
  r = run_cli("solve peg:triangle6 --empty 4 --finish 4 --count --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["count"], 1122190756u);
  EXPECT_GT(r.json()["pagoda_functions"].get<int>(), 0);
  // TANSAKU_PEG_PAGODA=0: no functions; the search proves it instead.
  setenv("TANSAKU_PEG_PAGODA", "0", 1);
  r = run_cli(std::string("solve peg:english --start ") + kEnglishFar + " --finish 1 --json");
  EXPECT_EQ(r.code, 1);
  EXPECT_FALSE(r.json().contains("pagoda_proof"));
  EXPECT_NE(r.json()["algorithm"], "pagoda function");
  r = run_cli("solve peg:triangle6 --empty 4 --finish 4 --count --json");
  EXPECT_EQ(r.json()["count"], 1122190756u);
  EXPECT_EQ(r.json()["pagoda_functions"], 0);
  unsetenv("TANSAKU_PEG_PAGODA");
}
