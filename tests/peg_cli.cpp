// The peg family through the command line: JSON contract, exit codes, bad input.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "cli_util.h"

namespace {

std::string temp_file(const std::string& text) {
  char name[] = "/tmp/tansaku-peg-XXXXXX";
  int fd = mkstemp(name);
  close(fd);
  std::ofstream(name) << text;
  return name;
}

}  // namespace

TEST(PegCli, ListAndShow) {
  CliResult r = run_cli("list");
  EXPECT_EQ(r.code, 0);
  for (const char* name : {"peg:triangle5", "peg:trytry", "peg:english", "peg:french"})
    EXPECT_NE(r.out.find(name), std::string::npos) << name;
  r = run_cli("show peg:english --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["holes"], 33);
  EXPECT_EQ(j["jumps"], 76);
  EXPECT_EQ(j["symmetries"], 8);
  EXPECT_EQ(j["empty"], "16");
  EXPECT_EQ(j["finishers"], "1,13,16,19,31");
  r = run_cli("show peg:trytry");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("14  15  16  17  18  19"), std::string::npos) << r.out;
}

TEST(PegCli, SolveTriangle5Json) {
  CliResult r = run_cli("solve peg:triangle5 --finish 12 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  for (const char* k : {"puzzle", "start", "goal", "solvable", "optimal", "length", "moves", "nodes", "seconds"})
    EXPECT_TRUE(j.contains(k)) << k;
  EXPECT_EQ(j["puzzle"], "peg:triangle5");
  EXPECT_EQ(j["start"], "111111111111011");
  EXPECT_EQ(j["goal"], "000000000000100");
  EXPECT_EQ(j["solvable"], true);
  EXPECT_EQ(j["optimal"], true);
  EXPECT_EQ(j["length"], 9);
  ASSERT_EQ(j["moves"].size(), 9u);
  for (const auto& m : j["moves"]) EXPECT_GE(m.size(), 2u);
  EXPECT_EQ(j["moves"].back().back(), 12);
  EXPECT_EQ(j["jumps"], 13);
  // Default: hole 12 empty, finish anywhere: also 9.
  r = run_cli("solve peg:triangle5 --json");
  ASSERT_EQ(r.code, 0);
  EXPECT_EQ(r.json()["length"], 9);
  EXPECT_EQ(r.json()["goal"], "one peg anywhere");
}

TEST(PegCli, SolveTryTry) {
  CliResult r = run_cli("solve peg:trytry --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["length"], 11);
  r = run_cli("solve peg:trytry --finish 11 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["length"], 12);
  r = run_cli("solve peg:trytry --finish 11 --metric jumps --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["length"], 23);
  EXPECT_EQ(r.json()["metric"], "jumps");
}

TEST(PegCli, Unsolvable) {
  CliResult r = run_cli("solve peg:french --json");
  EXPECT_EQ(r.code, 1) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["solvable"], false);
  EXPECT_TRUE(j["length"].is_null());
  EXPECT_NE(j["reason"].get<std::string>().find("position classes"), std::string::npos);
  r = run_cli("solve peg:triangle4 --empty 0");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("no solution"), std::string::npos);
  r = run_cli("solve peg:triangle4 --empty 0 --count --json");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.json()["count"], 0);
}

TEST(PegCli, Count) {
  CliResult r = run_cli("solve peg:triangle5 --empty 0 --count --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["count"], 29760);
  r = run_cli("solve peg:triangle5 --empty 0 --count");
  EXPECT_NE(r.out.find("count:     29760"), std::string::npos) << r.out;
}

TEST(PegCli, Explore) {
  CliResult r = run_cli("explore peg:triangle5 --empty 0 --finish 12 --json --farthest 3");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  for (const char* k : {"puzzle", "from", "states", "depth", "histogram", "farthest", "farthest_count", "seconds",
                        "histogram_symmetry_reduced", "states_symmetry_reduced", "can_finish", "can_finish_at"})
    EXPECT_TRUE(j.contains(k)) << k;
  EXPECT_EQ(j["from"], "011111111111111");
  EXPECT_EQ(j["depth"], 13);
  std::uint64_t sum = 0;
  for (const auto& v : j["histogram"]) sum += v.get<std::uint64_t>();
  EXPECT_EQ(j["states"], sum);
  EXPECT_EQ(j["histogram"][0], 1);
  EXPECT_LE(j["farthest"].size(), 3u);
  EXPECT_EQ(j["farthest"][0].get<std::string>().size(), 15u);
  EXPECT_GT(j["can_finish"].get<int>(), j["can_finish_at"].get<int>());
}

TEST(PegCli, BoardFile) {
  std::string f = temp_file("lattice: triangular\n    o\n   o o\n  o o o\n o o o o\no o . o o\n");
  CliResult r = run_cli("solve peg:" + f + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["length"], 9);
  r = run_cli("solve peg --file " + f + " --finish 12 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["length"], 9);
  std::remove(f.c_str());
  r = run_cli("show peg:" TANSAKU_DATA_DIR "/peg/wiegleb.txt --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["holes"], 45);
}

TEST(PegCli, BadInput) {
  expect_refused("solve peg:triangle5 --empty 15", "hole 15 is not on peg:triangle5");
  expect_refused("solve peg:english --empty 16,40", "hole 40 is not on");
  expect_refused("solve peg:english --finish 33", "--finish: hole 33 is not on");
  expect_refused("solve peg:english --finish x", "--finish");
  expect_refused("solve peg:english --finish 1,2", "one hole");
  expect_refused("solve peg:triangle5 --metric pegs", "--metric");
  expect_refused("solve peg:triangle5 --start 1111", "15");
  expect_refused("solve peg:triangle5 --start 111111111111011 --empty 3", "not both");
  expect_refused("solve peg:triangle5 --all", "--all");
  expect_refused("solve peg:triangle12", "N must be 4..10");
  expect_refused("solve peg:hexagon", "unknown peg board");
  expect_refused("solve peg", "needs a board");
  expect_refused("solve peg:triangle5 --rule eight", "--rule");
  expect_refused("solve peg:/nonexistent/board.txt", "cannot read");
  std::string f = temp_file("lattice: square\no o o\no q o\n");
  expect_refused("solve peg:" + f, "unexpected character 'q'");
  std::remove(f.c_str());
  f = temp_file("o o o\n");
  expect_refused("show peg --file " + f, "lattice");
  std::remove(f.c_str());
  f = temp_file("lattice: square\no oo\n");
  expect_refused("explore peg:" + f, "between two cells");
  std::remove(f.c_str());
}

TEST(PegCli, TimeoutStopsTheSearch) {
  CliResult r = run_cli("solve peg:english --finish 16 --algorithm idastar --timeout 0.3 --quiet");
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_TRUE(r.out.empty());
  r = run_cli("explore peg:english --timeout 0.3 --quiet");
  EXPECT_EQ(r.code, 3) << r.err;
  expect_refused("solve peg:trytry --algorithm bfs2", "unknown algorithm");
}

TEST(PegCli, MemoryLimitStopsExplore) {
  CliResult r = run_cli("explore peg:trytry --memory 2M --quiet");
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("memory"), std::string::npos);
}
