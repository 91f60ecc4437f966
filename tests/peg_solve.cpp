// Peg solitaire searches: the seeds' answers, and every algorithm (IDA* with a table, the
// layered programme, counts, explore with symmetry) checked against plain brute force
// (no symmetry, no bounds) on boards small enough for it.
#include <gtest/gtest.h>

#include <bit>
#include <deque>
#include <unordered_map>
#include <unordered_set>

#include "peg/board.h"
#include "peg/layers.h"
#include "peg/solver.h"
#include "peg/verify.h"

using namespace tansaku;
using namespace tansaku::peg;

namespace {

SolveParams params(const std::string& alg, Metric metric = Metric::Moves) {
  SolveParams p;
  p.algorithm = alg;
  p.metric = metric;
  return p;
}

search::Limits limits2() {
  search::Limits lim;
  lim.threads = 2;
  return lim;
}

Bits vacancy(const Board& bd, int h) { return bd.all & ~bd.bit(h); }

// Least moves by 0-1 breadth-first search over (position, hole the last jump landed on).
int brute_moves(const Board& bd, Bits start, const Goal& goal) {
  std::unordered_map<Bits, int> dist;  // key: position * 64 + last hole (+1)
  // Positions have at most 21 holes here, so (position, last + 1) packs into one word.
  auto key = [](Bits b, int last) { return b << 6 | static_cast<Bits>(last + 1); };
  std::deque<std::pair<Bits, int>> q;
  dist[key(start, -1)] = 0;
  q.push_back({start, -1});
  while (!q.empty()) {
    auto [b, last] = q.front();
    q.pop_front();
    const int d = dist[key(b, last)];
    if (goal.reached(b)) return d;
    for (const auto& j : bd.jumps) {
      if (!(b >> j.from & 1) || !(b >> j.over & 1) || (b >> j.to & 1)) continue;
      const int c = j.from == last ? 0 : 1;
      std::pair<Bits, int> t{b ^ j.mask, j.to};
      auto it = dist.find(key(t.first, t.second));
      if (it != dist.end() && it->second <= d + c) continue;
      dist[key(t.first, t.second)] = d + c;
      if (c == 0) q.push_front(t);
      else q.push_back(t);
    }
  }
  return -1;
}

// Jump sequences from b to the goal, memoised on exact positions.
unsigned __int128 brute_count(const Board& bd, Bits b, const Goal& goal, std::unordered_map<Bits, unsigned __int128>& memo) {
  if (goal.reached(b)) return 1;
  if (auto it = memo.find(b); it != memo.end()) return it->second;
  unsigned __int128 n = 0;
  for (const auto& j : bd.jumps)
    if ((b >> j.from & 1) && (b >> j.over & 1) && !(b >> j.to & 1)) n += brute_count(bd, b ^ j.mask, goal, memo);
  memo[b] = n;
  return n;
}

struct BruteExplore {
  std::vector<std::uint64_t> layers;
  std::uint64_t can_finish = 0, can_finish_at = 0;
};

// Whether one peg can be left from b (on `at` when at >= 0).
bool brute_finish(const Board& bd, Bits b, int at, std::unordered_map<Bits, bool>& memo) {
  if (std::has_single_bit(b)) return at < 0 || b == bd.bit(at);
  if (auto it = memo.find(b); it != memo.end()) return it->second;
  bool ok = false;
  for (const auto& j : bd.jumps)
    if (!ok && (b >> j.from & 1) && (b >> j.over & 1) && !(b >> j.to & 1)) ok = brute_finish(bd, b ^ j.mask, at, memo);
  memo[b] = ok;
  return ok;
}

BruteExplore brute_explore(const Board& bd, Bits start, int at) {
  BruteExplore r;
  std::unordered_set<Bits> cur = {start};
  std::unordered_map<Bits, bool> any, fixed;
  while (!cur.empty()) {
    r.layers.push_back(cur.size());
    std::unordered_set<Bits> next;
    for (Bits b : cur) {
      r.can_finish += brute_finish(bd, b, -1, any);
      r.can_finish_at += brute_finish(bd, b, at, fixed);
      for (const auto& j : bd.jumps)
        if ((b >> j.from & 1) && (b >> j.over & 1) && !(b >> j.to & 1)) next.insert(b ^ j.mask);
    }
    cur = std::move(next);
  }
  return r;
}

int solve_moves(const Solver& s, Bits start, const Goal& g, const std::string& alg) {
  auto out = s.solve(start, g, params(alg), limits2());
  if (!out.solvable) return -1;
  // The reported moves replay to the goal in exactly `length` moves.
  Replay r = replay(s.board(), start, out.moves);
  EXPECT_TRUE(g.reached(r.end));
  EXPECT_EQ(r.moves, out.length);
  return out.length;
}

}  // namespace

TEST(PegSolve, Seed000Triangle5) {
  Solver s(builtin_board("triangle5"));
  const Bits start = vacancy(s.board(), 12);
  for (const char* alg : {"idastar", "layered"}) {
    EXPECT_EQ(solve_moves(s, start, s.at(12), alg), 9) << alg;
    EXPECT_EQ(solve_moves(s, start, s.anywhere(start), alg), 9) << alg;
  }
  // The seed's own 9-move answer replays.
  Replay r = replay(s.board(), start, {{10, 12}, {13, 11}, {3, 10, 12, 3}, {1, 6}, {5, 3}, {6, 1}, {14, 5}, {2, 9, 7}, {0, 3, 12}});
  EXPECT_EQ(r.end, s.board().bit(12));
  EXPECT_EQ(r.moves, 9);
  EXPECT_EQ(r.jumps, 13);
}

TEST(PegSolve, Seed001TryTry) {
  Solver s(builtin_board("trytry"));
  const Bits start = vacancy(s.board(), 11);
  EXPECT_EQ(solve_moves(s, start, s.anywhere(start), "idastar"), 11);
  EXPECT_EQ(solve_moves(s, start, s.at(11), "idastar"), 12);
  EXPECT_EQ(solve_moves(s, start, s.at(11), "layered"), 12);
  // The seed's answers replay.
  Replay any = replay(s.board(), start,
                      {{2, 11}, {1, 6}, {10, 3}, {8, 1, 6}, {22, 10, 3}, {19, 8, 6}, {0, 7, 16}, {20, 22, 10}, {24, 22},
                       {9, 2, 11, 13, 23, 21, 9}, {14, 5, 16, 18}});
  EXPECT_EQ(std::popcount(any.end), 1);
  EXPECT_EQ(any.moves, 11);
  Replay centre = replay(s.board(), start,
                         {{2, 11}, {1, 6}, {9, 2}, {0, 5}, {10, 3}, {20, 10}, {8, 6, 15}, {22, 10}, {14, 16, 7},
                          {19, 8, 6, 15}, {24, 22, 20, 10}, {4, 2, 9, 11, 13, 23, 11}});
  EXPECT_EQ(centre.end, s.board().bit(11));
  EXPECT_EQ(centre.moves, 12);
}

TEST(PegSolve, Triangle5EveryVacancyAgainstBruteForce) {
  Solver s(builtin_board("triangle5"));
  const Board& bd = s.board();
  for (int h = 0; h < bd.n; ++h) {
    const Bits start = vacancy(bd, h);
    const Goal any = s.anywhere(start);
    const int want = brute_moves(bd, start, any);
    EXPECT_EQ(solve_moves(s, start, any, "idastar"), want) << "vacancy " << h;
    EXPECT_EQ(solve_moves(s, start, any, "layered"), want) << "vacancy " << h;
    for (int f = 0; f < bd.n; ++f) {
      const Goal at = s.at(f);
      const int w = brute_moves(bd, start, at);
      EXPECT_EQ(solve_moves(s, start, at, "idastar"), w) << "vacancy " << h << " finish " << f;
      EXPECT_EQ(solve_moves(s, start, at, "layered"), w) << "vacancy " << h << " finish " << f;
    }
  }
}

TEST(PegSolve, OtherBoardsAgainstBruteForce) {
  for (const char* name : {"triangle4", "triangle6"}) {
    Solver s(builtin_board(name));
    const Board& bd = s.board();
    for (int h : {1, 4}) {
      const Bits start = vacancy(bd, h);
      const Goal any = s.anywhere(start);
      const int want = brute_moves(bd, start, any);
      EXPECT_EQ(solve_moves(s, start, any, "idastar"), want) << name << " vacancy " << h;
      EXPECT_EQ(solve_moves(s, start, any, "layered"), want) << name << " vacancy " << h;
    }
  }
  // Diagonal jumps: a 4x4 square, every vacancy, finishing anywhere and in the vacancy.
  Solver d(parse_board("lattice: square-diagonal\no o o o\no o o o\no o o o\no o o o\n", "4x4"));
  for (int h = 0; h < d.board().n; ++h) {
    const Bits start = vacancy(d.board(), h);
    for (const Goal& g : {d.anywhere(start), d.at(h)}) {
      const int want = brute_moves(d.board(), start, g);
      EXPECT_EQ(solve_moves(d, start, g, "idastar"), want) << "vacancy " << h;
      EXPECT_EQ(solve_moves(d, start, g, "layered"), want) << "vacancy " << h;
    }
  }
}

TEST(PegSolve, ImpossibleIsProved) {
  // French board, central vacancy: position classes, no search.
  Solver fr(builtin_board("french"));
  auto out = fr.solve(vacancy(fr.board(), 18), fr.anywhere(vacancy(fr.board(), 18)), params(""), limits2());
  EXPECT_FALSE(out.solvable);
  EXPECT_NE(out.reason.find("position classes"), std::string::npos);
  EXPECT_EQ(out.nodes, 0u);
  // English: from the centre the last peg cannot end in a corner.
  Solver en(builtin_board("english"));
  out = en.solve(vacancy(en.board(), 16), en.at(0), params(""), limits2());
  EXPECT_FALSE(out.solvable);
  // Triangle 4 from a corner: ruled out by position classes; brute force agrees.
  Solver t4(builtin_board("triangle4"));
  const Bits start = vacancy(t4.board(), 0);
  EXPECT_EQ(brute_moves(t4.board(), start, t4.anywhere(start)), -1);
  out = t4.solve(start, t4.anywhere(start), params(""), limits2());
  EXPECT_FALSE(out.solvable);
  // The 19-hole hexagon from a corner: the classes allow it, the exhaustive searches refute it.
  Solver hex(load_board_file(TANSAKU_DATA_DIR "/peg/hexagon19.txt"));
  const Bits hs = vacancy(hex.board(), 0);
  ASSERT_NE(hex.anywhere(hs).finishers, 0u);
  for (const char* alg : {"idastar", "layered"}) {
    out = hex.solve(hs, hex.anywhere(hs), params(alg), limits2());
    EXPECT_FALSE(out.solvable) << alg;
    EXPECT_NE(out.reason.find("exhaustive"), std::string::npos) << alg;
  }
  out = hex.solve(hs, hex.anywhere(hs), params("", Metric::Jumps), limits2());
  EXPECT_FALSE(out.solvable);
  EXPECT_NE(out.reason.find("exhaustive"), std::string::npos);
  // A goal with more pegs than the start.
  out = t4.solve(t4.board().bit(3), t4.exactly(t4.board().bit(1) | t4.board().bit(2)), params(""), limits2());
  EXPECT_FALSE(out.solvable);
}

TEST(PegSolve, JumpsMetric) {
  Solver s(builtin_board("triangle5"));
  const Bits start = vacancy(s.board(), 12);
  auto out = s.solve(start, s.at(12), params("", Metric::Jumps), limits2());
  ASSERT_TRUE(out.solvable);
  EXPECT_EQ(out.length, 13);
  EXPECT_EQ(replay(s.board(), start, out.moves).end, s.board().bit(12));
}

TEST(PegSolve, StartIsGoal) {
  Solver s(builtin_board("triangle5"));
  auto out = s.solve(s.board().bit(4), s.at(4), params(""), limits2());
  EXPECT_TRUE(out.solvable);
  EXPECT_EQ(out.length, 0);
  EXPECT_TRUE(out.moves.empty());
}

TEST(PegSolve, EnglishEndgameFromAnOptimalSolution) {
  // Positions along an optimal 18-move solution of the central game need exactly the rest.
  Solver s(builtin_board("english"));
  const std::vector<std::vector<int>> sol = {{4, 16}, {7, 9}, {0, 8}, {15, 3}, {10, 8}, {12, 10}, {27, 15}, {20, 22},
                                             {23, 21}, {6, 20, 22}, {25, 23, 21, 7, 9, 11}, {2, 0, 8, 22}, {26, 12, 10},
                                             {32, 24}, {17, 29}, {30, 32, 24}, {5, 17, 15, 27, 29, 17}, {18, 16}};
  const Bits start = vacancy(s.board(), 16);
  Replay full = replay(s.board(), start, sol);
  ASSERT_EQ(full.end, s.board().bit(16));
  ASSERT_EQ(full.moves, 18);
  for (int k : {10, 12}) {
    Bits b = replay(s.board(), start, std::vector<std::vector<int>>(sol.begin(), sol.begin() + k)).end;
    EXPECT_EQ(solve_moves(s, b, s.at(16), "idastar"), 18 - k) << "after " << k;
    EXPECT_EQ(solve_moves(s, b, s.at(16), "layered"), 18 - k) << "after " << k;
  }
}

TEST(PegCount, DurangoBillTriangle5) {
  Solver s(builtin_board("triangle5"));
  const Board& bd = s.board();
  // From a corner hole, 29,760 jump sequences end with one peg.
  EXPECT_EQ(tansaku::to_u64(s.count(vacancy(bd, 0), s.anywhere(vacancy(bd, 0)), params(""), limits2()).count), 29760u);
  for (int h = 0; h < bd.n; ++h) {
    const Bits start = vacancy(bd, h);
    std::unordered_map<Bits, unsigned __int128> memo;
    EXPECT_TRUE(s.count(start, s.anywhere(start), params(""), limits2()).count == tansaku::to_mpz(brute_count(bd, start, s.anywhere(start), memo)))
        << "vacancy " << h;
    for (int f : {0, 3, 12}) {
      std::unordered_map<Bits, unsigned __int128> m2;
      EXPECT_TRUE(s.count(start, s.at(f), params(""), limits2()).count == tansaku::to_mpz(brute_count(bd, start, s.at(f), m2)))
          << "vacancy " << h << " finish " << f;
    }
  }
}

TEST(PegCount, SymmetryReductionDoesNotChangeCounts) {
  // The stabiliser of the start against the trivial group: Try-Try to a hole off every
  // axis of symmetry, and triangle 6 to several goals.
  {
    Solver s(builtin_board("trytry"));
    const Bits start = vacancy(s.board(), 11);
    const Symmetry full(s.board(), Symmetry::stabiliser(s.group(), start));
    const Symmetry none(s.board(), {s.group()[0]});
    EXPECT_EQ(full.order(), 6);
    search::Limits lim;
    lim.threads = 2;
    auto a = count_layers(s.board(), full, start, s.at(3), lim);
    auto b = count_layers(s.board(), none, start, s.at(3), lim);
    EXPECT_TRUE(a.count == b.count);
    EXPECT_EQ(tansaku::to_u64(a.count), 1622487499889400u);
    EXPECT_LT(a.positions, b.positions);
  }
  Solver s(builtin_board("triangle6"));
  const Bits start = vacancy(s.board(), 4);
  const Symmetry full(s.board(), Symmetry::stabiliser(s.group(), start));
  const Symmetry none(s.board(), {s.group()[0]});
  EXPECT_EQ(full.order(), 2);
  std::vector<Goal> goals = {s.anywhere(start)};
  for (Bits f = s.anywhere(start).finishers; f; f &= f - 1) goals.push_back(s.at(std::countr_zero(f)));
  ASSERT_GT(goals.size(), 3u);
  for (const Goal& g : goals) {
    auto a = count_layers(s.board(), full, start, g, {});
    auto b = count_layers(s.board(), none, start, g, {});
    EXPECT_TRUE(a.count == b.count);
    EXPECT_GT(tansaku::to_u64(a.count), 0u);
  }
}

TEST(PegExplore, Triangle5AgainstBruteForce) {  // labels: tsan
  Solver s(builtin_board("triangle5"));
  const Board& bd = s.board();
  for (int h : {0, 3, 4, 12}) {
    const Bits start = vacancy(bd, h);
    auto e = s.explore(start, 12, 100, limits2());
    auto want = brute_explore(bd, start, 12);
    EXPECT_EQ(e.full, want.layers) << "vacancy " << h;
    std::uint64_t any = 0, at = 0;
    for (auto v : e.finish_any_full) any += v;
    for (auto v : e.finish_at_full) at += v;
    EXPECT_EQ(any, want.can_finish) << "vacancy " << h;
    EXPECT_EQ(at, want.can_finish_at) << "vacancy " << h;
    EXPECT_LE(e.reduced.size(), e.full.size());
  }
}

TEST(PegExplore, TryTryWithAndWithoutSymmetry) {
  Solver s(builtin_board("trytry"));
  const Board& bd = s.board();
  const Bits start = vacancy(bd, 11);
  const Symmetry full(bd, Symmetry::stabiliser(s.group(), start));
  const Symmetry none(bd, {s.group()[0]});
  search::Limits lim;
  lim.threads = 2;
  auto a = explore_layers(bd, full, start, 3, true, 10, lim);
  auto b = explore_layers(bd, none, start, 3, true, 10, lim);
  EXPECT_EQ(a.full, b.full);
  EXPECT_EQ(b.full, b.reduced);
  EXPECT_EQ(a.finish_any_full, b.finish_any_full);
  EXPECT_EQ(a.finish_at_full, b.finish_at_full);
  std::uint64_t total = 0, reduced = 0;
  for (auto v : a.full) total += v;
  for (auto v : a.reduced) reduced += v;
  EXPECT_EQ(a.full.size(), 24u);  // 24 pegs: at most 23 jumps
  EXPECT_GT(total, 5 * reduced);  // most classes have 6 members
}

TEST(PegExplore, EnglishFirstLayersAndCanonicalForms) {
  // OEIS A112737 / Bell: 1, 4, 12, 60, 296, 1338 positions after 0..5 jumps, and up to
  // symmetry 1, 1, 2, 8, 39, 171 (brute force here; the whole game is a benchmark).
  Solver s(builtin_board("english"));
  const Bits start = vacancy(s.board(), 16);
  const Symmetry H(s.board(), Symmetry::stabiliser(s.group(), start));
  std::unordered_set<Bits> cur = {start};
  const std::vector<std::uint64_t> want = {1, 4, 12, 60, 296, 1338}, reduced = {1, 1, 2, 8, 39, 171};
  for (std::size_t k = 0; k < want.size(); ++k) {
    EXPECT_EQ(cur.size(), want[k]);
    std::unordered_set<Bits> next, canon;
    for (Bits b : cur) canon.insert(H.canonical(b));
    EXPECT_EQ(canon.size(), reduced[k]);
    for (Bits b : cur)
      for (const auto& j : s.board().jumps)
        if ((b >> j.from & 1) && (b >> j.over & 1) && !(b >> j.to & 1)) next.insert(b ^ j.mask);
    cur = std::move(next);
  }
}

TEST(PegExplore, EnglishEndgameAgainstBruteForce) {
  // A symmetric 19-peg midgame position of the English board, explored by the engine and
  // by brute force.
  Solver s(builtin_board("english"));
  const Board& bd = s.board();
  Bits start = 0;
  for (int h : {3, 4, 5, 7, 8, 9, 10, 11, 14, 16, 18, 21, 22, 23, 24, 25, 27, 28, 29}) start |= bd.bit(h);
  auto e = s.explore(start, 16, 10, limits2());
  auto want = brute_explore(bd, start, 16);
  EXPECT_EQ(e.full, want.layers);
  std::uint64_t any = 0, at = 0;
  for (auto v : e.finish_any_full) any += v;
  for (auto v : e.finish_at_full) at += v;
  EXPECT_EQ(any, want.can_finish);
  EXPECT_EQ(at, want.can_finish_at);
  EXPECT_EQ(Symmetry::stabiliser(s.group(), start).size(), 4u);  // both reflections and the half turn
}
