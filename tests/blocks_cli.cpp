// The blocks family through the command line: the JSON contract, agreement with the sliding
// family on boards of 1x1 pieces, counts against listings, exit codes and bad input.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <regex>
#include <set>

#include "cli_util.h"

namespace {

std::string temp_file(const std::string& text) {
  char name[] = "/tmp/tansaku-blocks-XXXXXX";
  int fd = mkstemp(name);
  close(fd);
  std::ofstream(name) << text;
  return name;
}

const std::string kData = std::string(TANSAKU_DATA_DIR) + "/blocks/";

}  // namespace

TEST(BlocksCli, ListShowAndAliases) {
  CliResult r = run_cli("list");
  ASSERT_EQ(r.code, 0);
  for (const char* name : {"blocks:klotski", "blocks:pennant", "blocks:ma", "blocks:century"})
    EXPECT_NE(r.out.find(name), std::string::npos) << name;
  r = run_cli("show hakoiri-musume --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["puzzle"], "blocks:klotski");
  EXPECT_EQ(j["start"], "BAAC/BAAC/DEEF/DGHF/I..J");
  EXPECT_EQ(j["goal"], "..../..../..../.AA./.AA.");
  EXPECT_EQ(j["pieces"], 10);
  EXPECT_EQ(j["code_bits"], 50);
  EXPECT_EQ(j["goal_fixes_every_piece"], false);
  int alike = 0;
  for (const auto& k : j["kinds"])
    if (k["alike"] == true) {
      ++alike;
      EXPECT_TRUE(k["pieces"] == "BCDF" || k["pieces"] == "GHIJ") << k;
    }
  EXPECT_EQ(alike, 2);
  r = run_cli("show blocks:klotski");
  EXPECT_NE(r.out.find("alike"), std::string::npos);
}

TEST(BlocksCli, SolveKlotskiJsonAndText) {
  CliResult r = run_cli("solve blocks:klotski --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["length"], 81);
  EXPECT_EQ(j["moves"].size(), 81u);
  EXPECT_EQ(j["optimal"], true);
  EXPECT_EQ(j["metric"], "path");
  const std::regex move("[A-J][udlr]+");
  for (const auto& m : j["moves"]) EXPECT_TRUE(std::regex_match(m.get<std::string>(), move)) << m;
  r = run_cli("solve blocks:klotski --metric line");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("move 90:"), std::string::npos);
  EXPECT_NE(r.out.find("BAAC\nBAAC\nDEEF\nDGHF\nI..J\n"), std::string::npos);
}

TEST(BlocksCli, AgreesWithTheSlidingFamily) {
  // The 8-puzzle seed drawn as blocks: the same length as the sliding family.
  CliResult s = run_cli("solve 8-puzzle --json");
  CliResult b = run_cli("solve blocks:" + kData + "eight.txt --json");
  ASSERT_EQ(s.code, 0);
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(s.json()["length"], b.json()["length"]);
  for (const char* algo : {"bfs", "idastar"})
    EXPECT_EQ(run_cli("solve blocks:" + kData + "eight.txt --json --algorithm " + std::string(algo)).json()["length"],
              s.json()["length"]);
  // Whole spaces from the goal: 3x3 and 2x3, histograms equal.
  s = run_cli("explore 8-puzzle --json");
  b = run_cli("explore blocks:" + kData + "eight.txt --from 123/456/78. --json");
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(s.json()["states"], b.json()["states"]);
  EXPECT_EQ(s.json()["histogram"], b.json()["histogram"]);
  EXPECT_EQ(s.json()["farthest_count"], b.json()["farthest_count"]);
  const std::string two = temp_file("distinct: yes\nmetric: step\nstart:\n1 2 3\n4 5 .\n");
  s = run_cli("explore sliding:2x3 --json");
  b = run_cli("explore blocks:" + two + " --json");
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(s.json()["states"], b.json()["states"]);
  EXPECT_EQ(s.json()["depth"], b.json()["depth"]);
  EXPECT_EQ(s.json()["histogram"], b.json()["histogram"]);
  // Alike pieces: every tile identical in the sliding family, every 1x1 block alike.
  s = run_cli("explore sliding:2x3 --from \"1 1 1 1 1 0\" --json");
  const std::string alike = temp_file("metric: step\nstart:\n1 2 3\n4 5 .\n");
  b = run_cli("explore blocks:" + alike + " --json");
  ASSERT_EQ(s.code, 0) << s.err;
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(s.json()["states"], b.json()["states"]);
  EXPECT_EQ(s.json()["histogram"], b.json()["histogram"]);
  std::remove(alike.c_str());
  std::remove(two.c_str());
}

TEST(BlocksCli, CountMatchesTheListing) {
  CliResult c = run_cli("solve blocks:klotski --count --json");
  CliResult a = run_cli("solve blocks:klotski --all --json");
  ASSERT_EQ(c.code, 0) << c.err;
  ASSERT_EQ(a.code, 0) << a.err;
  const auto n = c.json()["count"].get<std::uint64_t>();
  ASSERT_LE(n, 10000u);
  const auto all = a.json();
  EXPECT_EQ(all["solutions"].size(), n);
  EXPECT_GE(n, 1u);
  std::set<std::string> distinct;
  for (const auto& sol : all["solutions"]) distinct.insert(sol.dump());
  EXPECT_EQ(distinct.size(), n);
}

TEST(BlocksCli, StartGoalAndFromPictures) {
  // The Klotski goal moved: the daughter at the bottom left, from a shifted start.
  CliResult r = run_cli("solve blocks:klotski --goal ..../..../..../AA../AA.. --json");
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_cli("solve blocks:klotski --start BAAC/BAAC/DEEF/DGHF/IJ.. --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string f = temp_file("; a start picture\nBAAC\nBAAC\nDEEF\nD.HF\nIG.J\n");
  r = run_cli("explore blocks:klotski --from " + f + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["states"], 25955);
  std::remove(f.c_str());
  // A goal that fixes every piece: bidirectional search by default.
  r = run_cli("solve blocks:" + kData + "knuth-example.txt --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["algorithm"], "bibfs");
}

TEST(BlocksCli, UnsolvableExitsOne) {
  // Three distinct tiles on a 4-cycle keep their cyclic order.
  const std::string f = temp_file("distinct: yes\nstart:\nAB\nC.\ngoal:\nBA\nC.\n");
  CliResult r = run_cli("solve blocks:" + f + " --json");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.json()["solvable"], false);
  std::remove(f.c_str());
}

TEST(BlocksCli, BadInput) {
  const std::string ragged = temp_file("start:\nAB\nABC\n");
  expect_refused("solve blocks:" + ragged, ragged + " line 3: ragged row");
  std::remove(ragged.c_str());
  const std::string split = temp_file("start:\nA.A\ngoal:\n...\n");
  expect_refused("solve blocks:" + split, split + " line 2: piece 'A' is in two separate places");
  std::remove(split.c_str());
  const std::string nostart = temp_file("name: nothing\n");
  expect_refused("show blocks:" + nostart, "no 'start:'");
  std::remove(nostart.c_str());
  const std::string nogoal = temp_file("start:\nA.\n");
  expect_refused("solve blocks:" + nogoal, "no 'goal:'");
  std::remove(nogoal.c_str());
  expect_refused("solve blocks:nosuchpuzzle", "unknown blocks puzzle");
  expect_refused("solve blocks:klotski --metric diagonal", "--metric 'diagonal'");
  expect_refused("solve blocks:klotski --goal ..../..../..../.ZZ./.ZZ.", "goal piece 'Z' is not in the start");
  expect_refused("solve blocks:klotski --goal ..../..../..../.E../.E..", "goal piece 'E' has another shape");
  expect_refused("solve blocks:klotski --algorithm bibfs", "places every piece");
  expect_refused("solve blocks:" + kData + "knuth-example.txt --distinct", "Knuth");
  expect_refused("solve blocks:klotski --start BAAC/BAAC/DEEF/DGHF/I.JJ", "--start");
}
