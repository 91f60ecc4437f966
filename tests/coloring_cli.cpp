// CLI tests of coloring: JSON fields, exit codes, the seed's results, bad input -> 2.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>

#include "cli_util.h"

namespace {

const std::string kData = std::string(TANSAKU_DATA_DIR) + "/coloring/";

// Writes `text` to a temporary .col file and returns its path.
std::string temp_col(const std::string& text) {
  char tmpl[] = "/tmp/tansaku-col-XXXXXX";
  int fd = mkstemp(tmpl);
  close(fd);
  std::string path = std::string(tmpl) + ".col";
  std::rename(tmpl, path.c_str());
  std::ofstream(path) << text;
  return path;
}

const std::vector<std::vector<int>> kMap = {{1, 2, 3, 5, 10, 11}, {0, 3, 4, 8, 11}, {0, 3, 5, 6},    {0, 1, 2, 4, 6, 7},
                                            {1, 3, 7, 8},         {0, 2, 6, 9, 10}, {2, 3, 5, 7, 9}, {3, 4, 6, 8, 9},
                                            {1, 4, 7, 9, 11},     {5, 6, 7, 8, 10, 11}, {0, 5, 9, 11}, {0, 1, 8, 9, 10}};

void expect_proper_map_colouring(const nlohmann::json& moves, int K) {
  ASSERT_EQ(moves.size(), 12u);
  for (int v = 0; v < 12; ++v) {
    EXPECT_GE(moves[v].get<int>(), 1);
    EXPECT_LE(moves[v].get<int>(), K);
    for (int u : kMap[v]) EXPECT_NE(moves[v], moves[u]) << v << " " << u;
  }
}

}  // namespace

TEST(ColoringCli, Map12NeedsFourColours) {
  auto r = run_cli("solve coloring:map12 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["puzzle"], "coloring:map12");
  EXPECT_TRUE(j["solvable"]);
  EXPECT_TRUE(j["optimal"]);
  EXPECT_EQ(j["length"], 4);
  EXPECT_EQ(j["chromatic_number"], 4);
  EXPECT_EQ(j["lower_bound"], 4);
  expect_proper_map_colouring(j["moves"], 4);
  for (const char* f : {"start", "goal", "nodes", "seconds", "clique", "steps"}) EXPECT_TRUE(j.contains(f)) << f;
}

TEST(ColoringCli, Map12ThreeColoursIsUnsolvable) {
  auto r = run_cli("solve coloring:map12 --colors 3 --json");
  EXPECT_EQ(r.code, 1) << r.err;
  auto j = r.json();
  EXPECT_FALSE(j["solvable"]);
  EXPECT_TRUE(j["length"].is_null());
  EXPECT_FALSE(j["reason"].get<std::string>().empty());
  auto t = run_cli("solve coloring:map12 --colors 3");
  EXPECT_EQ(t.code, 1);
  EXPECT_NE(t.out.find("no solution"), std::string::npos);
}

TEST(ColoringCli, Map12Counts) {
  auto r = run_cli("solve coloring:map12 --colors 4 --count --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["count"], 216);
  EXPECT_EQ(j["count_first_fixed"], 54);  // the seed's 54 with region A = colour 1
  EXPECT_TRUE(j["optimal"]);  // 3 colours refuted on the side
  EXPECT_EQ(j["lower_bound"], 4);
  expect_proper_map_colouring(j["moves"], 4);
  auto d = run_cli("solve coloring:map12 --count --json").json();  // K = chromatic number
  EXPECT_EQ(d["count"], 216);
  EXPECT_EQ(d["count_first_fixed"], 54);
  auto five = run_cli("solve coloring:map12 --colors 5 --count --json").json();
  EXPECT_EQ(five["count_first_fixed"].get<std::uint64_t>() * 5, five["count"].get<std::uint64_t>());
  auto many = run_cli("solve coloring:map12 --colors 13 --count --json").json();  // more colours than regions
  EXPECT_EQ(many["length"], 4);
  EXPECT_EQ(many["count_first_fixed"].get<std::uint64_t>() * 13, many["count"].get<std::uint64_t>());
  auto none = run_cli("solve coloring:map12 --colors 3 --count --json");
  EXPECT_EQ(none.code, 1);
  EXPECT_EQ(none.json()["count"], 0);
}

TEST(ColoringCli, Map12AllColourings) {
  auto r = run_cli("solve coloring:map12 --all --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  ASSERT_EQ(j["solutions"].size(), 216u);
  std::set<std::string> distinct;
  int a1 = 0;
  for (const auto& s : j["solutions"]) {
    expect_proper_map_colouring(s, 4);
    distinct.insert(s.dump());
    a1 += s[0] == 1;
  }
  EXPECT_EQ(distinct.size(), 216u);
  EXPECT_EQ(a1, 54);
}

TEST(ColoringCli, DimacsChromaticNumbers) {
  for (auto [name, chi] : std::vector<std::pair<std::string, int>>{{"myciel3", 4}, {"myciel4", 5}, {"queen5_5", 5}}) {
    auto r = run_cli("solve coloring:" + name + " --json");
    ASSERT_EQ(r.code, 0) << name << r.err;
    auto j = r.json();
    EXPECT_EQ(j["length"], chi) << name;
    EXPECT_TRUE(j["optimal"]) << name;
    auto below = run_cli("solve coloring:" + name + " --colors " + std::to_string(chi - 1));
    EXPECT_EQ(below.code, 1) << name;
  }
  // The same instance by path, by file name, and by --file.
  for (std::string how : std::vector<std::string>{"coloring:" + kData + "myciel3.col", "coloring:myciel3.col",
                                                   "coloring --file " + kData + "myciel3.col"}) {
    auto r = run_cli("solve " + how + " --json");
    ASSERT_EQ(r.code, 0) << how << r.err;
    EXPECT_EQ(r.json()["length"], 4) << how;
    EXPECT_EQ(r.json()["moves"].size(), 11u);
  }
}

TEST(ColoringCli, TinyGraphs) {
  std::string empty = temp_col("p edge 0 0\n"), one = temp_col("p edge 1 0\n"), edge = temp_col("p edge 2 1\ne 2 1\n");
  auto e = run_cli("solve coloring:" + empty + " --count --json");
  ASSERT_EQ(e.code, 0) << e.err;
  EXPECT_EQ(e.json()["length"], 0);
  EXPECT_EQ(e.json()["count"], 1);
  auto o = run_cli("solve coloring:" + one + " --colors 3 --count --json");
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.json()["count"], 3);
  EXPECT_EQ(o.json()["count_first_fixed"], 1);
  auto k1 = run_cli("solve coloring:" + edge + " --colors 1 --json");
  EXPECT_EQ(k1.code, 1);
  EXPECT_EQ(k1.json()["proof"], "clique");
  auto big = run_cli("solve coloring:" + edge + " --colors 1000000 --count --json");
  ASSERT_EQ(big.code, 0) << big.err;
  EXPECT_EQ(big.json()["count"], 999999000000ULL);  // K (K - 1)
  for (const auto& f : {empty, one, edge}) std::remove(f.c_str());
}

TEST(ColoringCli, ShowAndList) {
  auto r = run_cli("show coloring:map12 --json");
  ASSERT_EQ(r.code, 0);
  auto j = r.json();
  EXPECT_EQ(j["vertices"], 12);
  EXPECT_EQ(j["edges"], 30);
  auto q = run_cli("show coloring:queen5_5 --json").json();
  EXPECT_EQ(q["edges"], 160);
  EXPECT_EQ(q["edge_lines"], 320);
  auto l = run_cli("list");
  EXPECT_NE(l.out.find("coloring:map12"), std::string::npos);
  EXPECT_NE(l.out.find("coloring:myciel3"), std::string::npos);
}

TEST(ColoringCli, SatAlgorithm) {
  auto r = run_cli("solve coloring:myciel4 --algorithm sat --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["length"], 5);
  EXPECT_EQ(r.json()["lower_bound_by"], "cadical");
  EXPECT_EQ(run_cli("solve coloring:myciel4 --algorithm sat --colors 4").code, 1);
}

TEST(ColoringCli, FormulaBeyondMemoryMeansFallbackOrRefusal) {
  // A formula that does not fit --memory is not built: auto falls back to DSATUR, sat refuses.
  // (12K: room for the graph, its copies and DSATUR's tables, which are counted too, not the CNF.)
  auto fb = run_cli("solve coloring:myciel4 --memory 12K --json");
  auto refused = run_cli("solve coloring:myciel4 --algorithm sat --memory 12K");
  ASSERT_EQ(fb.code, 0) << fb.err;
  EXPECT_EQ(fb.json()["length"], 5);
  EXPECT_EQ(refused.code, 2);
}

TEST(ColoringCli, BadInputExitsTwo) {
  std::vector<std::string> files = {
      temp_col("p edge 3 1\ne 1 4\n"),        // vertex out of range
      temp_col("p edge 3 1\ne 1\n"),          // malformed edge line
      temp_col("e 1 2\n"),                    // no p line
      temp_col("p edge 3 1\nq 1 2\n"),        // unknown line
      temp_col("p edge 3 1\ne 1 two\n"),      // not a number
  };
  for (const auto& f : files) {
    expect_refused("solve coloring:" + f);
    expect_refused("show --file " + f + " coloring");
    std::remove(f.c_str());
  }
  for (std::string args : {"solve coloring:no-such-graph", "solve coloring", "solve coloring:map12 --colors 0",
                           "solve coloring:map12 --colors -2", "solve coloring:map12 --algorithm magic",
                           "solve coloring:map12 --start 1", "explore coloring:map12", "solve coloring:map12 --n 3",
                           "solve coloring:map12 --file x.col", "solve coloring:map12 --colors 99999999"}) {
    expect_refused(args);
  }
}

TEST(ColoringCli, TimeoutExitsThree) {
  auto r = run_cli("solve coloring:myciel6 --algorithm dsatur --timeout 0.2 --quiet");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.err.find("chromatic number"), std::string::npos) << r.err;
  // CaDiCaL is stopped by its terminator (myciel6's 6-colour refutation takes many seconds).
  auto s = run_cli("solve coloring:myciel6 --algorithm sat --timeout 0.3 --quiet");
  EXPECT_EQ(s.code, 3) << s.out;
  EXPECT_NE(s.err.find("time limit"), std::string::npos) << s.err;
}
