// CLI tests of square-sum: the seed's results, counts, JSON fields, exit codes, bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "cli_util.h"

namespace {
bool square(long long x) {
  auto r = static_cast<long long>(std::llround(std::sqrt(static_cast<double>(x))));
  return r * r == x;
}
void expect_valid(const nlohmann::json& moves, int n, bool ring) {
  ASSERT_EQ(moves.size(), static_cast<std::size_t>(n));
  std::vector<char> seen(static_cast<std::size_t>(n) + 1, 0);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    int x = moves[i];
    ASSERT_GE(x, 1);
    ASSERT_LE(x, n);
    ASSERT_FALSE(seen[x]);
    seen[x] = 1;
    if (i) {
      ASSERT_TRUE(square(moves[i - 1].get<long long>() + x)) << i;
    }
  }
  if (ring) {
    ASSERT_TRUE(square(moves.front().get<long long>() + moves.back().get<long long>()));
  }
}
std::string fmt_args(const char* algorithm, int n, bool ring) {
  return "solve square-sum --n " + std::to_string(n) + (ring ? " --ring" : "") + " --algorithm '" + algorithm +
         "' --json";
}
}  // namespace

TEST(SquareSumCli, SmallestRowIsTheSeeds) {
  auto r = run_cli("solve square-sum --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["puzzle"], "square-sum");
  EXPECT_TRUE(j["solvable"]);
  EXPECT_EQ(j["length"], 15);
  EXPECT_EQ(j["n"], 15);
  EXPECT_EQ(j["moves"], parse_json("[8,1,15,10,6,3,13,12,4,5,11,14,2,7,9]"));
  std::vector<int> none;
  for (int n = 2; n < 15; ++n) none.push_back(n);
  EXPECT_EQ(j["none_for"], nlohmann::json(none));
  EXPECT_EQ(run_cli("solve square-sum --smallest --json").json()["moves"], j["moves"]);
  auto t = run_cli("solve square-sum");
  EXPECT_NE(t.out.find("8 1 15 10 6 3 13 12 4 5 11 14 2 7 9"), std::string::npos);
}

TEST(SquareSumCli, SmallestRingIsThirtyTwo) {
  auto r = run_cli("solve square-sum --ring --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["length"], 32);
  EXPECT_TRUE(j["ring"]);
  expect_valid(j["moves"], 32, true);
  EXPECT_EQ(j["none_for"].size(), 29u);  // 3..31
  EXPECT_EQ(j["moves"][0], 1);
}

TEST(SquareSumCli, CountsAndLists) {
  const std::vector<int> expected = {1, 1, 1, 0, 0, 0, 0, 0, 3};  // A071983, N = 15..23
  for (int n = 15; n <= 23; ++n) {
    auto r = run_cli("solve square-sum --n " + std::to_string(n) + " --count --json");
    EXPECT_EQ(r.code, expected[n - 15] ? 0 : 1) << n;
    EXPECT_EQ(r.json()["count"], expected[n - 15]) << n;
  }
  auto all = run_cli("solve square-sum --n 23 --all --json").json();
  ASSERT_EQ(all["solutions"].size(), 3u);
  for (const auto& s : all["solutions"]) expect_valid(s, 23, false);
  EXPECT_EQ(run_cli("solve square-sum --ring --count --json").json()["count"], 1);  // at N = 32
}

TEST(SquareSumCli, NoRowIsExitOne) {
  auto r = run_cli("solve square-sum --n 20 --json");
  EXPECT_EQ(r.code, 1);
  EXPECT_FALSE(r.json()["solvable"]);
  EXPECT_EQ(run_cli("solve square-sum --n 31 --ring").code, 1);
  EXPECT_EQ(run_cli("solve square-sum --n 1 --json").json()["moves"], parse_json("[1]"));
}

TEST(SquareSumCli, LargeN) {
  auto r = run_cli("solve square-sum --n 100000 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  expect_valid(r.json()["moves"], 100000, false);
  auto ring = run_cli("solve square-sum --n 20000 --ring --json");
  ASSERT_EQ(ring.code, 0) << ring.err;
  expect_valid(ring.json()["moves"], 20000, true);
}

TEST(SquareSumCli, ShowListsPartners) {
  auto r = run_cli("show square-sum --n 15 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["degree_one"], parse_json("[8,9]"));
  EXPECT_EQ(j["partners"]["1"], parse_json("[3,8,15]"));
}

TEST(SquareSumCli, BadInputExitsTwo) {
  for (std::string args : {"solve square-sum --n 0", "solve square-sum --n -3", "solve square-sum --n x",
                           "solve square-sum --n 2 --ring", "solve square-sum --n 5 --smallest",
                           "solve square-sum:7", "explore square-sum", "solve square-sum --colors 3",
                           "solve square-sum --n 1000000000", "solve square-sum --start 1",
                           "solve square-sum --n 100000 --memory 1K"}) {
    expect_refused(args);
  }
}

TEST(SquareSumCli, TimeoutExitsThree) {
  // Counting the rows of 1..60 takes far longer than the limit.
  auto r = run_cli("solve square-sum --n 60 --count --timeout 0.2 --quiet");
  EXPECT_EQ(r.code, 3);
  EXPECT_TRUE(r.out.empty());
}


TEST(SquareSumCli, EachAlgorithmGivesAVerifiedAnswer) {
  // Every solver, by name and alias, on a row and a ring; `algorithm` names the solver that
  // found it (the default's is one of the others).
  for (const char* a : {"auto", "dfs", "exact", "warnsdorff+posa", "posa"})
    for (bool ring : {false, true}) {
      const int n = ring ? 40 : 35;
      auto r = run_cli(fmt_args(a, n, ring));
      ASSERT_EQ(r.code, 0) << a << " " << r.err;
      auto j = r.json();
      expect_valid(j["moves"], n, ring);
      const std::string alg = j["algorithm"];
      EXPECT_TRUE(alg == "dfs" || alg == "warnsdorff+posa") << alg;
      if (std::string(a) == "dfs" || std::string(a) == "exact") {
        EXPECT_EQ(alg, "dfs");
      }
      if (std::string(a).find("posa") != std::string::npos) {
        EXPECT_EQ(alg, "warnsdorff+posa");
      }
    }
  // The exact search also proves none and finds the least N, counts and lists.
  auto none = run_cli("solve square-sum --n 20 --algorithm dfs --json");
  EXPECT_EQ(none.code, 1) << none.err;
  EXPECT_EQ(none.json()["algorithm"], "dfs");
  auto least = run_cli("solve square-sum --ring --algorithm dfs --json");
  ASSERT_EQ(least.code, 0) << least.err;
  EXPECT_EQ(least.json()["length"], 32);
  auto count = run_cli("solve square-sum --n 23 --algorithm dfs --count --json");
  ASSERT_EQ(count.code, 0) << count.err;
  EXPECT_EQ(count.json()["count"], 3);
  // The heuristic on a large N, where it is the default's first choice too.
  auto big = run_cli("solve square-sum --n 50000 --algorithm posa --json --quiet");
  ASSERT_EQ(big.code, 0) << big.err;
  expect_valid(big.json()["moves"], 50000, false);
  // Its failure is not a proof: exit 3.
  auto gave_up = run_cli("solve square-sum --n 20 --algorithm posa --json");
  EXPECT_EQ(gave_up.code, 3) << gave_up.err;
  EXPECT_FALSE(gave_up.json()["complete"].get<bool>());  // with --json a limit prints what it is
}

TEST(SquareSumCli, ASolverThatDoesNotApplyIsRefused) {
  // The heuristic cannot prove that smaller N have none (the least N), nor count or list.
  expect_refused("solve square-sum --algorithm posa", "does not apply to this instance");
  expect_refused("solve square-sum --ring --algorithm warnsdorff+posa", "give --n");
  expect_refused("solve square-sum --n 23 --count --algorithm posa", "algorithm warnsdorff+posa does not take --count");
  expect_refused("solve square-sum --n 23 --all --algorithm heuristic", "does not take --all");
  expect_refused("solve square-sum --n 23 --algorithm nosuch", "unknown algorithm");
  // The help lists them.
  auto h = run_cli("help square-sum");
  ASSERT_EQ(h.code, 0);
  for (const char* s : {"auto", "dfs", "warnsdorff+posa"}) EXPECT_NE(h.out.find(s), std::string::npos) << s;
}
