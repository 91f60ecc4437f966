// Sliding-tile family: seed results (8-puzzle, 11-puzzle, rotating slide, seed 004 variants),
// small-board God's numbers, agreement of the algorithms, and the CLI contract.
#include <gtest/gtest.h>

#include <random>

#include "cli_util.h"
#include "sliding/board.h"
#include "sliding/domain.h"
#include "tansaku/core/tokens.h"
#include "tansaku/search/bfs.h"
#include "tansaku/search/bidirectional_bfs.h"
#include "tansaku/search/explore.h"
#include "tansaku/search/ida_star.h"

using namespace tansaku;
using namespace tansaku::sliding;

namespace {
Instance make_instance(int r, int c, const std::string& start, const std::string& goal) {
  Instance inst;
  inst.geo = Geometry(r, c);
  inst.labels = make_labels(split_state(goal, r * c), "goal");
  inst.goal = parse_cells(inst.geo, inst.labels, goal, "goal");
  inst.start = parse_cells(inst.geo, inst.labels, start, "start");
  return inst;
}
std::string standard_goal(int n) {
  std::string s;
  for (int i = 1; i < n; ++i) s += std::to_string(i) + " ";
  return s + "0";
}
}  // namespace

TEST(Sliding, EightPuzzleSeedAllAlgorithms) {
  auto inst = make_instance(3, 3, "8 6 7 2 5 4 3 0 1", standard_goal(9));
  Domain<Nibbles> d(inst, true);
  auto s = d.make(inst.start);
  auto a = search::bfs(d, s);
  auto b = search::bidirectional_bfs(d, s);
  search::IdaOptions o;
  o.step = 2;
  auto c = search::ida_star(d, s, o);
  EXPECT_EQ(a.cost, 31);
  EXPECT_EQ(b.cost, 31);
  EXPECT_EQ(c.cost, 31);
  // bidirectional search stores far fewer states than the 181,440 of plain BFS (seed: ~16 k)
  EXPECT_LT(b.stats.stored, 30000u);
  EXPECT_GT(a.stats.stored, 150000u);
}

TEST(Sliding, HeuristicIsAdmissibleAndConsistentOnRandomWalks) {
  auto inst = make_instance(3, 4, "1 2 3 4 5 6 7 8 9 10 11 0", standard_goal(12));
  Domain<Nibbles> d(inst, true);
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    auto s = d.goal();
    for (int k = 0; k < 30; ++k) {
      std::vector<Domain<Nibbles>::State> next;
      d.for_each_move(s, [&](auto, const auto& t) { next.push_back(t); });
      auto t = next[rng() % next.size()];
      ASSERT_EQ(t.h, d.full_h(t.cells)) << "incremental h drifted";
      ASSERT_LE(std::abs(t.h - s.h), 3);
      s = t;
    }
    auto exact = search::bidirectional_bfs(d, s);
    ASSERT_TRUE(exact.found);
    ASSERT_LE(s.h, exact.cost);
  }
}

TEST(Sliding, IdaStarMatchesBfsOnRandom8Puzzles) {
  auto goal = standard_goal(9);
  auto inst = make_instance(3, 3, goal, goal);
  Domain<Nibbles> d(inst, true);
  std::mt19937 rng(11);
  for (int trial = 0; trial < 30; ++trial) {
    auto s = d.unrank(rng() % d.size());
    search::IdaOptions o;
    o.step = 2;
    EXPECT_EQ(search::ida_star(d, s, o).cost, search::bfs(d, s).cost);
  }
}

namespace {
search::ExploreResult explore_from(int r, int c, const std::string& from) {
  auto inst = make_instance(r, c, from, from);
  Domain<Nibbles> d(inst, false);
  std::uint64_t src = d.rank(d.make(inst.start));
  search::Limits lim;
  lim.threads = 2;
  return search::explore(d, std::span<const std::uint64_t>(&src, 1), 20, lim);
}
}  // namespace

TEST(Sliding, EightPuzzleGodsNumberAndHistogram) {
  auto r = explore_from(3, 3, standard_goal(9));
  // OEIS A089473
  std::vector<std::uint64_t> a089473 = {1,     2,     4,     8,     16,    20,    39,    62,    116,   152,   286,
                                        396,   748,   1024,  1893,  2512,  4485,  5638,  9529,  10878, 16993, 17110,
                                        23952, 20224, 24047, 15578, 14560, 6274,  3910,  760,   221,   2};
  EXPECT_EQ(r.histogram, a089473);
  EXPECT_EQ(r.states, 181440u);
  EXPECT_EQ(r.depth, 31);
  EXPECT_EQ(r.farthest_count, 2u);
}

TEST(Sliding, SmallBoards) {
  struct Case {
    int r, c;
    std::uint64_t states;
    int depth;
  };
  for (auto k : {Case{2, 2, 12, 6}, Case{2, 3, 360, 21}, Case{3, 2, 360, 21}, Case{2, 4, 20160, 36}}) {
    auto res = explore_from(k.r, k.c, standard_goal(k.r * k.c));
    EXPECT_EQ(res.states, k.states) << k.r << "x" << k.c;
    EXPECT_EQ(res.depth, k.depth) << k.r << "x" << k.c;
  }
}

TEST(Sliding, Seed004Variants) {
  auto a = explore_from(4, 4, "1 2 3 4 6 6 6 6 6 6 6 6 5 6 6 0");
  EXPECT_EQ(a.states, 5765760u);
  EXPECT_EQ(a.depth, 58);
  EXPECT_EQ(a.farthest_count, 1u);
  auto b = explore_from(4, 4, "1 1 2 2 1 1 2 2 1 3 3 2 3 3 3 0");
  EXPECT_EQ(b.states, 12108096u);
  EXPECT_EQ(b.depth, 57);
  EXPECT_EQ(b.farthest_count, 2u);
}

TEST(SlidingCli, SolveSeedInstancesJson) {
  auto r = run_cli("solve 8-puzzle --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["length"], 31);
  EXPECT_EQ(j["solvable"], true);
  EXPECT_EQ(j["optimal"], true);
  EXPECT_EQ(j["moves"].size(), 31u);
  for (auto key : {"puzzle", "start", "goal", "nodes", "seconds"}) EXPECT_TRUE(j.contains(key)) << key;
  for (auto alg : {"bfs", "bibfs", "idastar"}) {
    auto k = run_cli(std::string("solve 8-puzzle --json --algorithm ") + alg).json();
    EXPECT_EQ(k["length"], 31) << alg;
  }
  auto e = run_cli("solve 11-puzzle --json --quiet");
  ASSERT_EQ(e.code, 0) << e.err;
  EXPECT_EQ(e.json()["length"], 53);
}

TEST(SlidingCli, RotatingSlide) {
  auto r = run_cli("solve rotating-slide --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["length"], 12);
  auto e = run_cli("explore rotating-slide --json");
  ASSERT_EQ(e.code, 0) << e.err;
  auto j = e.json();
  EXPECT_EQ(j["states"], 181440);
  EXPECT_EQ(j["depth"], 12);
  EXPECT_EQ(j["farthest_count"], 13);
  bool has_seed_start = false;
  for (auto& f : j["farthest"]) has_seed_start |= f == "9 8 7 6 5 4 3 2 1";
  EXPECT_TRUE(has_seed_start);
}

TEST(SlidingCli, ExploreEightPuzzleJson) {  // labels: tsan
  auto r = run_cli("explore 8-puzzle --json --farthest 5");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["states"], 181440);
  EXPECT_EQ(j["depth"], 31);
  EXPECT_EQ(j["farthest_count"], 2);
  EXPECT_EQ(j["histogram"].size(), 32u);
  std::set<std::string> far(j["farthest"].begin(), j["farthest"].end());
  EXPECT_EQ(far, (std::set<std::string>{"8 6 7 2 5 4 3 0 1", "6 4 7 8 5 0 3 2 1"}));
  for (auto key : {"puzzle", "from", "seconds"}) EXPECT_TRUE(j.contains(key)) << key;
}

TEST(SlidingCli, IdenticalPiecesSolve) {
  auto r = run_cli("solve sliding:2x3 --start '1 1 2 2 0 3' --goal '3 2 1 0 2 1' --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_TRUE(j["solvable"]);
  // cross-check with BFS
  auto b = run_cli("solve sliding:2x3 --start '1 1 2 2 0 3' --goal '3 2 1 0 2 1' --json --algorithm bfs").json();
  auto i = run_cli("solve sliding:2x3 --start '1 1 2 2 0 3' --goal '3 2 1 0 2 1' --json --algorithm idastar").json();
  EXPECT_EQ(j["length"], b["length"]);
  EXPECT_EQ(j["length"], i["length"]);
}

TEST(SlidingCli, UnsolvableIsExitOne) {
  auto r = run_cli("solve 8-puzzle --start '1 2 3 4 5 6 8 7 0' --json");
  EXPECT_EQ(r.code, 1);
  auto j = r.json();
  EXPECT_EQ(j["solvable"], false);
  EXPECT_TRUE(j["length"].is_null());
}

TEST(SlidingCli, AllAndCount) {
  auto r = run_cli("solve sliding:2x3 --start '4 1 2 5 0 3' --goal '1 2 3 4 5 0' --all --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["solutions"].size(), j["count"].get<std::size_t>());
  auto c = run_cli("solve sliding:2x3 --start '4 1 2 5 0 3' --goal '1 2 3 4 5 0' --count --json").json();
  EXPECT_EQ(c["count"], j["count"]);
  EXPECT_EQ(c["length"], j["length"]);
}

TEST(SlidingCli, BadInputExitsTwoWithOneLine) {
  const char* cases[] = {
      "solve 8-puzzle --start '1 2 3'",                            // wrong number of tokens
      "solve 8-puzzle --start '1 2 3 4 5 6 7 7 0'",                // label multiset differs
      "solve 8-puzzle --start '1 2 3 4 5 6 7 8 9' --goal '1 2 3 4 5 6 7 8 9'",  // no blank
      "solve no-such-puzzle",                                       // unknown puzzle
      "explore sliding:4x4 --memory 1M",                            // too large for the budget
      "explore sliding:5x5",                                        // too large to rank
      "solve sliding:1x5 --start '1 2 3 4 0'",                     // bad size
      "solve 8-puzzle --rule eight",                                // option of another family
      "solve 8-puzzle --algorithm magic",                           // unknown algorithm
      "solve 8-puzzle --no-such-option",                            // CLI parse error
      "explore 8-puzzle --farthest -1",                             // negative count
      "solve 8-puzzle --threads two",                               // not a number
      "solve 8-puzzle --memory 0",                                  // no budget at all
      "solve 8-puzzle --memory 12Q",                                // bad size suffix
      "solve 8-puzzle --timeout -1",                                // negative time
      "frobnicate 8-puzzle",                                        // unknown command
  };
  for (const char* c : cases) {
    expect_refused(c);
  }
}

TEST(SlidingCli, ListAndShow) {
  auto l = run_cli("list --json");
  ASSERT_EQ(l.code, 0);
  bool found = false;
  auto list = l.json();
  for (auto& p : list["puzzles"]) found |= p["name"] == "sliding:3x3";
  EXPECT_TRUE(found);
  auto s = run_cli("show 8-puzzle --json");
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_EQ(s.json()["states"], "181440");
}

// The explore fast path (neighbour ranks without building states) agrees with unrank /
// for_each_move / rank, and rank(unrank(r)) == r, for distinct tiles and identical pieces.
TEST(Sliding, RankedNeighboursAgreeWithMoves) {
  struct Case {
    int r, c;
    std::string goal;
  };
  for (const auto& k : {Case{2, 3, "1 2 3 4 5 0"}, Case{3, 3, "1 2 3 4 5 6 7 8 0"}, Case{2, 4, "1 1 2 2 1 2 3 0"},
                        Case{3, 3, "1 1 1 2 2 2 3 3 0"}, Case{4, 4, "1 1 2 2 1 1 2 2 1 3 3 2 3 3 3 0"},
                        Case{3, 4, "1 2 3 4 5 5 5 5 5 5 5 0"}}) {
    auto inst = make_instance(k.r, k.c, k.goal, k.goal);
    Domain<Nibbles> d(inst, false);
    const std::uint64_t n = d.size();
    const std::uint64_t step = std::max<std::uint64_t>(1, n / 20000);
    for (std::uint64_t r = 0; r < n; r += step) {
      const auto s = d.unrank(r);
      ASSERT_EQ(d.rank(s), r) << k.goal;
      std::vector<std::uint64_t> slow, fast;
      d.for_each_move(s, [&](const auto&, const auto& t) { slow.push_back(d.rank(t)); });
      d.for_each_neighbor_rank(r, [&](std::uint64_t t) { fast.push_back(t); });
      std::sort(slow.begin(), slow.end());
      std::sort(fast.begin(), fast.end());
      ASSERT_EQ(slow, fast) << k.goal << " rank " << r;
    }
  }
}

// 2x5: 1,814,400 states, God's number 55 with 2 farthest positions.
TEST(Sliding, TwoByFiveGodsNumber) {
  auto res = run_cli("explore sliding:2x5 --json --farthest 4");
  ASSERT_EQ(res.code, 0) << res.err;
  auto j = res.json();
  EXPECT_EQ(j["states"], 1814400);
  EXPECT_EQ(j["depth"], 55);
  EXPECT_EQ(j["farthest_count"], 2);
  EXPECT_EQ(j["farthest"].size(), 2u);
}

// Seed 004's printed results: the first and last layers and the farthest positions. (The
// seed prints 3 at "1 move": its first count includes the start, 1 + 2.)
TEST(SlidingCli, Seed004FarthestPositionsAndLayers) {
  auto a = run_cli("explore sliding:4x4 --from '1 2 3 4 6 6 6 6 6 6 6 6 5 6 6 0' --json --quiet");
  ASSERT_EQ(a.code, 0) << a.err;
  auto ja = a.json();
  const auto& ha = ja["histogram"];
  EXPECT_EQ(ha[0].get<int>() + ha[1].get<int>(), 3);
  EXPECT_EQ(ha[2], 3);
  EXPECT_EQ(ha[3], 4);
  EXPECT_EQ(ha[56], 22);
  EXPECT_EQ(ha[57], 3);
  EXPECT_EQ(ha[58], 1);
  EXPECT_EQ(ja["farthest"], nlohmann::json::array({"0 6 6 5 6 6 6 6 6 6 6 6 4 2 3 1"}));

  auto b = run_cli("explore sliding:4x4 --from '1 1 2 2 1 1 2 2 1 3 3 2 3 3 3 0' --json --quiet");
  ASSERT_EQ(b.code, 0) << b.err;
  auto jb = b.json();
  const auto& hb = jb["histogram"];
  EXPECT_EQ(hb[0].get<int>() + hb[1].get<int>(), 3);
  EXPECT_EQ(hb[2], 4);
  EXPECT_EQ(hb[3], 9);
  EXPECT_EQ(hb[55], 119);
  EXPECT_EQ(hb[56], 27);
  EXPECT_EQ(hb[57], 2);
  EXPECT_EQ(jb["farthest"], nlohmann::json::array({"3 0 3 3 2 3 3 1 2 2 1 1 2 2 1 1", "3 3 3 3 2 2 3 1 2 2 1 1 0 2 1 1"}));
}
