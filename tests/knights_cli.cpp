// The knight families through the command line: the seed results, JSON fields, exit codes
// (1 proved impossible, 2 bad input, 3 not decided), and every printed tour or swap
// solution replayed here independently.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cli_util.h"

namespace {

bool knight_move(int a, int b, int cols) {
  const int dr = std::abs(a / cols - b / cols), dc = std::abs(a % cols - b % cols);
  return (dr == 1 && dc == 2) || (dr == 2 && dc == 1);
}

void expect_tour(const nlohmann::json& moves, int rows, int cols, int from, bool closed) {
  ASSERT_EQ(static_cast<int>(moves.size()), rows * cols);
  EXPECT_EQ(moves[0].get<int>(), from);
  std::vector<char> seen(rows * cols, 0);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const int sq = moves[i].get<int>();
    ASSERT_TRUE(sq >= 0 && sq < rows * cols);
    ASSERT_FALSE(seen[sq]);
    seen[sq] = 1;
    if (i) {
      ASSERT_TRUE(knight_move(moves[i - 1].get<int>(), sq, cols)) << moves[i - 1] << " -> " << sq;
    }
  }
  if (closed) {
    EXPECT_TRUE(knight_move(moves.back().get<int>(), from, cols));
  }
}

void expect_swap(const nlohmann::json& moves, std::vector<int> board, const std::vector<int>& goal, int cols) {
  for (const auto& m : moves) {
    const int a = m[0].get<int>(), b = m[1].get<int>();
    ASSERT_NE(board[a], 0);
    ASSERT_EQ(board[b], 0);
    ASSERT_TRUE(knight_move(a, b, cols));
    std::swap(board[a], board[b]);
  }
  EXPECT_EQ(board, goal);
}

}  // namespace

TEST(KnightsCli, Listed) {
  auto r = run_cli("list");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("knight-tour:3x4"), std::string::npos);
  EXPECT_NE(r.out.find("knight-swap:4x3"), std::string::npos);
  EXPECT_NE(r.out.find("knight-swap:guarini"), std::string::npos);
}

TEST(KnightsCli, SeedTourDefault) {
  auto r = run_cli("solve knight-tour:3x4 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_TRUE(j["solvable"].get<bool>());
  EXPECT_EQ(j["length"].get<int>(), 12);
  EXPECT_EQ(j["start"], "0");
  expect_tour(j["moves"], 3, 4, 0, false);
  for (const char* f : {"puzzle", "goal", "optimal", "nodes", "seconds"}) EXPECT_TRUE(j.contains(f)) << f;
}

TEST(KnightsCli, SeedTwoToursFromZero) {
  // The seed's board: 4 rows x 3 columns; both tours as printed by the seed.
  auto r = run_cli("solve knight-tour:4x3 --all --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["count"].get<int>(), 2);
  std::set<std::vector<int>> got;
  for (const auto& s : j["solutions"]) {
    expect_tour(s, 4, 3, 0, false);
    got.insert(s.get<std::vector<int>>());
  }
  std::set<std::vector<int>> seed = {{0, 7, 2, 3, 10, 5, 6, 1, 8, 9, 4, 11}, {0, 7, 2, 3, 10, 5, 6, 11, 4, 9, 8, 1}};
  EXPECT_EQ(got, seed);
  // DESIGN's 3 rows x 4 columns: also 2 tours from 0, by listing and by counting.
  auto k = run_cli("solve knight-tour:3x4 --all --json").json();
  EXPECT_EQ(k["count"].get<int>(), 2);
  for (const auto& s : k["solutions"]) expect_tour(s, 3, 4, 0, false);
  EXPECT_EQ(run_cli("solve knight-tour:3x4 --count --from 0 --json").json()["count"].get<int>(), 2);
  EXPECT_EQ(run_cli("solve knight-tour:4x3 --count --from 0 --json").json()["count"].get<int>(), 2);
}

TEST(KnightsCli, CountFiveByFive) {
  auto r = run_cli("solve knight-tour:5x5 --count --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["count"].get<int>(), 1728);  // OEIS A165134
  EXPECT_EQ(j["undirected"].get<int>(), 864);
  // Backtracking counts the same.
  auto d = run_cli("solve knight-tour:5x5 --count --algorithm dfs --json").json();
  EXPECT_EQ(d["count"].get<int>(), 1728);
  EXPECT_EQ(run_cli("solve knight-tour:5x5 --count --from 0 --json").json()["count"].get<int>(), 304);
  EXPECT_EQ(run_cli("solve knight-tour:6x6 --count --closed --json").json()["count"].get<int>(), 9862);
}

// The split count: the same counts as the dp, closed and open, its refusals, its checkpoint.
TEST(KnightsCli, SplitCount) {
  auto r = run_cli("solve knight-tour:6x6 --count --closed --algorithm split --threads 2 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["count"].get<int>(), 9862);  // OEIS A001230
  EXPECT_EQ(r.json()["algorithm"], "split");
  EXPECT_EQ(r.json()["widest_step"].get<int>(), 147050);
  const auto dir = std::filesystem::temp_directory_path() / "tansaku-split-cli";
  auto c = run_cli("solve knight-tour:8x5 --count --closed --algorithm split --checkpoint " + dir.string() + " --json");
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(c.json()["count"].get<int>(), 44202);
  EXPECT_TRUE(std::filesystem::is_empty(dir));  // the checkpoint goes when the count is done
  std::filesystem::remove_all(dir);
  // Open tours too, as cycles through a hub square: from every square and from one.
  auto o = run_cli("solve knight-tour:5x5 --count --algorithm split --json");
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.json()["count"].get<int>(), 1728);  // OEIS A165134
  EXPECT_EQ(o.json()["undirected"].get<int>(), 864);
  EXPECT_EQ(run_cli("solve knight-tour:5x5 --count --from 0 --algorithm split --json").json()["count"].get<int>(), 304);
  expect_refused("solve knight-tour:6x6 --closed --algorithm split", "only counts tours");
  // 7x7 open tours need far more than 1G: refused before starting.
  EXPECT_TRUE(refused_cleanly(run_cli("solve knight-tour:7x7 --count --memory 1G"),
                              "open tours of a board 7 squares wide by the split frontier dp (estimate) needs"));
  // --timeout stops it (exit 3) and says so.
  expect_clean(run_cli("solve knight-tour:7x8 --count --closed --algorithm split --timeout 0.5"), 3, "time limit");
  // 8x8 closed needs about 14 GiB: refused before it starts under 12G, unless a checkpoint
  // directory takes what does not fit (then only a budget below its 80% is refused).
  EXPECT_TRUE(refused_cleanly(run_cli("solve knight-tour:8x8 --count --closed --memory 12G"),
                              "--checkpoint DIR keeps what does not fit on disk"));
  EXPECT_TRUE(
      refused_cleanly(run_cli("solve knight-tour:8x8 --count --closed --memory 4G --checkpoint " + dir.string()),
                      "by the split frontier dp (estimate) needs"));
  expect_clean(
      run_cli("solve knight-tour:8x8 --count --closed --algorithm split --memory 16G --timeout 1 --checkpoint " +
              dir.string()),
      3, "time limit");
  std::filesystem::remove_all(dir);
}

TEST(KnightsCli, ClosedAndFrom) {
  auto r = run_cli("solve knight-tour:8x8 --closed --from 27 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  expect_tour(r.json()["moves"], 8, 8, 27, true);
  auto s = run_cli("solve knight-tour:6x6 --closed --from 7 --algorithm dfs --json");
  ASSERT_EQ(s.code, 0) << s.err;
  expect_tour(s.json()["moves"], 6, 6, 7, true);
  auto t = run_cli("solve knight-tour:3x10 --closed --algorithm dp --json");
  ASSERT_EQ(t.code, 0) << t.err;
  expect_tour(t.json()["moves"], 3, 10, 0, true);
  auto one = run_cli("solve knight-tour:1x1 --json");
  EXPECT_EQ(one.code, 0);
  EXPECT_EQ(one.json()["length"].get<int>(), 1);
}

TEST(KnightsCli, BigBoardWarnsdorff) {
  auto r = run_cli("solve knight-tour:1000x1000 --algorithm warnsdorff --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  expect_tour(j["moves"], 1000, 1000, 0, false);
  EXPECT_GE(j["seconds"].get<double>(), 0.0);  // its speed: bench/knights.sh, not a unit test
  auto c = run_cli("solve knight-tour:200x300 --closed --from 777 --json");
  ASSERT_EQ(c.code, 0) << c.err;
  expect_tour(c.json()["moves"], 200, 300, 777, true);
}

TEST(KnightsCli, NoTourIsProved) {
  for (const char* args : {"knight-tour:3x3", "knight-tour:4x4", "knight-tour:4x4 --closed", "knight-tour:5x5 --closed",
                           "knight-tour:5x5 --from 1", "knight-tour:1x1 --closed", "knight-tour:3x5",
                           "knight-tour:4x30 --closed", "knight-tour:2x50", "knight-tour:3x4 --from 1"}) {
    auto r = run_cli(std::string("solve ") + args + " --json");
    EXPECT_EQ(r.code, 1) << args << ": " << r.err;
    if (r.code == 1) {
      auto j = r.json();
      EXPECT_FALSE(j["solvable"].get<bool>());
      EXPECT_FALSE(j["reason"].get<std::string>().empty());
    }
  }
  auto c = run_cli("solve knight-tour:4x4 --count --json");
  EXPECT_EQ(c.code, 1);
  EXPECT_EQ(c.json()["count"].get<int>(), 0);
}

TEST(KnightsCli, HeuristicFailureIsNotAProof) {
  // 4x4 has no tour, but Warnsdorff alone cannot prove it: exit 3, not 1.
  auto r = run_cli("solve knight-tour:4x4 --algorithm warnsdorff");
  EXPECT_EQ(r.code, 3);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("not"), std::string::npos);
}

TEST(KnightsCli, TourExploreDistances) {
  auto r = run_cli("explore knight-tour:8x8 --from 0 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["states"].get<int>(), 64);
  EXPECT_EQ(j["depth"].get<int>(), 6);  // the far corner
  EXPECT_EQ(j["histogram"][1].get<int>(), 2);
  EXPECT_EQ(j["farthest"][0], "63");
}

TEST(KnightsCli, SeedSwap) {
  auto r = run_cli("solve knight-swap:4x3 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["length"].get<int>(), 16);
  EXPECT_EQ(j["start"], "1 1 1 0 0 0 0 0 0 2 2 2");
  EXPECT_EQ(j["goal"], "2 2 2 0 0 0 0 0 0 1 1 1");
  ASSERT_EQ(j["moves"].size(), 16u);
  expect_swap(j["moves"], {1, 1, 1, 0, 0, 0, 0, 0, 0, 2, 2, 2}, {2, 2, 2, 0, 0, 0, 0, 0, 0, 1, 1, 1}, 3);
  // Explicit start and goal, compact form.
  auto e = run_cli("solve knight-swap:4x3 --start 111000000222 --goal 222000000111 --algorithm bfs --json");
  ASSERT_EQ(e.code, 0) << e.err;
  EXPECT_EQ(e.json()["length"].get<int>(), 16);
  auto x = run_cli("explore knight-swap:4x3 --json");
  ASSERT_EQ(x.code, 0) << x.err;
  EXPECT_EQ(x.json()["states"].get<int>(), 18480);
  auto c = run_cli("solve knight-swap:4x3 --count --json");
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(c.json()["length"].get<int>(), 16);
  EXPECT_GT(c.json()["count"].get<std::uint64_t>(), 1u);
  expect_swap(c.json()["moves"], {1, 1, 1, 0, 0, 0, 0, 0, 0, 2, 2, 2}, {2, 2, 2, 0, 0, 0, 0, 0, 0, 1, 1, 1}, 3);
}

TEST(KnightsCli, Guarini) {
  for (const char* name : {"guarini", "knight-swap:guarini"}) {
    auto r = run_cli(std::string("solve ") + name + " --json");
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = r.json();
    EXPECT_EQ(j["length"].get<int>(), 16);
    expect_swap(j["moves"], {1, 0, 1, 0, 0, 0, 2, 0, 2}, {2, 0, 2, 0, 0, 0, 1, 0, 1}, 3);
  }
  auto i = run_cli("solve knight-swap:3x3 --start \"1 0 1 0 0 0 2 0 2\" --algorithm idastar --json");
  ASSERT_EQ(i.code, 0) << i.err;  // the goal defaults to the two armies exchanged
  EXPECT_EQ(i.json()["length"].get<int>(), 16);
}

TEST(KnightsCli, SwapAnyPieces) {
  // Three distinct knights rotate places on the seed board.
  auto r = run_cli("solve knight-swap:4x3 --start \"a b c 0 0 0 0 0 0 0 0 0\" --goal \"c a b 0 0 0 0 0 0 0 0 0\" --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_GT(j["length"].get<int>(), 0);
  // A knight on the 3x3 centre can never move: proved unsolvable.
  auto u = run_cli("solve knight-swap:3x3 --start \"1 0 0 0 2 0 0 0 0\" --goal \"2 0 0 0 1 0 0 0 0\" --json");
  EXPECT_EQ(u.code, 1) << u.err;
  EXPECT_FALSE(u.json()["solvable"].get<bool>());
  // A full board cannot move: the start is the goal, or the goal is out of reach.
  auto full = run_cli("solve knight-swap:1x2 --start \"1 2\" --goal \"1 2\" --json");
  EXPECT_EQ(full.code, 0);
  EXPECT_EQ(full.json()["length"].get<int>(), 0);
  EXPECT_EQ(run_cli("solve knight-swap:1x2 --start \"1 2\" --json").code, 1);
}

TEST(KnightsCli, BadInput) {
  for (const char* args :
       {"solve knight-tour:0x4", "solve knight-tour:3x0", "solve knight-tour:3x4 --from 12", "solve knight-tour:3x4 --from -1",
        "solve knight-tour:3x4 --from x", "solve knight-tour:3x4 --algorithm nosuch", "solve knight-tour:abc",
        "solve knight-tour:3x4 --colors 3", "solve knight-swap:0x3", "solve knight-swap:9x9",
        "solve knight-swap:4x3 --start \"1 1 1\"", "solve knight-swap:4x3 --start \"1 1 1 0 0 0 0 0 0 2 2 3\"",
        "solve knight-swap:1x5", "explore knight-swap:4x3 --from \"1 2\"", "solve knight-swap:4x3 --closed",
        "explore knight-tour:3x4 --from 99"}) {
    expect_refused(args);
  }
  // a short start is reported as such, not as a missing goal
  auto r = run_cli("solve knight-swap:4x3 --start \"1 1 1\"");
  EXPECT_NE(r.err.find("start has 3 tokens"), std::string::npos) << r.err;
}

TEST(KnightsCli, Show) {
  auto t = run_cli("show knight-tour:3x4 --json");
  ASSERT_EQ(t.code, 0);
  EXPECT_EQ(t.json()["squares"].get<int>(), 12);
  auto s = run_cli("show knight-swap:4x3 --json");
  ASSERT_EQ(s.code, 0);
  EXPECT_EQ(s.json()["states"], "18480");
  EXPECT_EQ(s.json()["adjacency"][0], nlohmann::json::array({5, 7}));  // the seed's list
}


TEST(KnightsCli, TourEachAlgorithm) {
  // One tour by each solver (and an alias of each): verified, `algorithm` is the solver.
  for (const auto& [a, name] : std::vector<std::pair<std::string, std::string>>{
           {"warnsdorff", "warnsdorff"}, {"heuristic", "warnsdorff"}, {"dfs", "dfs"}, {"backtracking", "dfs"},
           {"dp", "dp"}, {"frontier", "dp"}}) {
    for (bool closed : {false, true}) {
      auto r = run_cli("solve knight-tour:5x6 --algorithm " + a + (closed ? " --closed" : "") + " --json --quiet");
      ASSERT_EQ(r.code, 0) << a << ": " << r.err;
      auto j = r.json();
      expect_tour(j["moves"], 5, 6, 0, closed);
      EXPECT_EQ(j["algorithm"], name) << a;
      EXPECT_TRUE(j["method"].is_string()) << a;
      EXPECT_GT(j["nodes"].get<std::uint64_t>(), 0u) << a;
    }
  }
  // The exhaustive ones prove that there is none; their counts agree.
  for (const char* a : {"dfs", "dp"}) {
    auto none = run_cli(std::string("solve knight-tour:4x4 --algorithm ") + a + " --json");
    EXPECT_EQ(none.code, 1) << a << ": " << none.err;
    EXPECT_EQ(none.json()["algorithm"], a);
    auto c = run_cli(std::string("solve knight-tour:3x8 --count --algorithm ") + a + " --json");
    ASSERT_EQ(c.code, 0) << a << ": " << c.err;
    EXPECT_EQ(c.json()["algorithm"], a);
    EXPECT_EQ(c.json()["count"], run_cli("solve knight-tour:3x8 --count --json").json()["count"]) << a;
  }
  // --all lists by backtracking, named or not.
  for (const char* args : {"", " --algorithm dfs"}) {
    auto all = run_cli(std::string("solve knight-tour:4x3 --all --json") + args);
    ASSERT_EQ(all.code, 0) << all.err;
    EXPECT_EQ(all.json()["algorithm"], "dfs");
    EXPECT_EQ(all.json()["count"], 2);
  }
}

TEST(KnightsCli, TourAutomaticChoiceHandsOver) {
  // Warnsdorff finds none on 4x4 and hands over to the frontier dp, which proves it.
  auto a = run_cli("solve knight-tour:4x4 --json");
  EXPECT_EQ(a.code, 1) << a.err;
  EXPECT_EQ(a.json()["algorithm"], "dp");
  // A counting argument needs no search: the first solver reports it.
  auto b = run_cli("solve knight-tour:5x5 --closed --json");
  EXPECT_EQ(b.code, 1) << b.err;
  EXPECT_EQ(b.json()["algorithm"], "warnsdorff");
  EXPECT_EQ(b.json()["method"], "counting argument");
  // --count: backtracking on boards at least 5 wide, the dp on narrower ones.
  EXPECT_EQ(run_cli("solve knight-tour:5x5 --count --json").json()["algorithm"], "dfs");
  auto narrow = run_cli("solve knight-tour:3x8 --count --json").json();
  EXPECT_EQ(narrow["algorithm"], "dp");
  EXPECT_GT(narrow["table_bytes"].get<std::uint64_t>(), 0u);  // a typed figure now
}

TEST(KnightsCli, ASolverThatCannotCountOrListIsRefused) {
  expect_refused("solve knight-tour:5x5 --count --algorithm warnsdorff", "algorithm warnsdorff does not take --count");
  expect_refused("solve knight-tour:3x4 --all --algorithm warnsdorff", "algorithm warnsdorff does not take --all");
  expect_refused("solve knight-tour:3x4 --all --algorithm dp", "algorithm dp does not take --all");
  expect_refused("solve knight-swap:4x3 --count --algorithm bibfs", "algorithm bibfs does not take --count");
  expect_refused("solve guarini --all --algorithm bibfs", "algorithm bibfs does not take --all");
}

TEST(KnightsCli, TypedFigures) {
  // Explore's nodes are a typed figure (states expanded), not a family key.
  auto t = run_cli("explore knight-tour:8x8 --json").json();
  EXPECT_EQ(t["nodes"], t["states"]);
  auto s = run_cli("explore knight-swap:4x3 --json").json();
  EXPECT_EQ(s["nodes"], 18480);
  EXPECT_GT(s["table_bytes"].get<std::uint64_t>(), 0u);
  // knight-swap: `algorithm` is the solver's name, IDA*'s bound in `heuristic`.
  auto i = run_cli("solve guarini --algorithm 'ida*' --json").json();
  EXPECT_EQ(i["algorithm"], "idastar");
  EXPECT_EQ(i["heuristic"], "knight distances to the nearest goal square");
  EXPECT_EQ(run_cli("solve knight-swap:4x3 --count --json").json()["algorithm"], "bfs");
}
