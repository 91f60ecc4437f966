// Typed reports: the core keys of `solve --json` / `explore --json` are the CLI's (a family's
// `extra` adds keys, never replaces one), the search figures appear under their documented
// keys, `puzzle` and `seconds` are filled by the caller, and every documented key is there for
// one instance of each of the peg, blocks, flip, sliding and perm families.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli_util.h"
// The printing layer is the CLI's (not in the library): compiled in here to test it directly.
#include "../src/cli/output.cpp"

using namespace tansaku;

namespace {

const std::string kEight = std::string("blocks:") + TANSAKU_DATA_DIR + "/blocks/eight.txt";

const std::vector<std::string> kSolveKeys = {"puzzle", "start", "goal", "solvable", "optimal",
                                             "length", "moves", "nodes", "seconds", "algorithm"};
const std::vector<std::string> kExploreKeys = {"puzzle", "from", "states", "depth", "histogram",
                                               "farthest", "farthest_count", "seconds"};

void expect_keys(const nlohmann::json& j, const std::vector<std::string>& keys, const std::string& what) {
  for (const auto& k : keys) EXPECT_TRUE(j.contains(k)) << what << " lacks \"" << k << "\": " << j.dump();
}

}  // namespace

TEST(Reports, ExtraNeverReplacesACoreKey) {
  SolveReport r;
  r.puzzle = "p";
  r.start = "s";
  r.goal = "g";
  r.length = 3;
  r.nodes = 7;
  r.seconds = 0.5;
  r.algorithm = "bfs";
  r.generated = 11;
  r.heuristic = "h";
  for (const char* k : {"puzzle", "start", "goal", "solvable", "optimal", "length", "moves", "nodes", "seconds",
                        "algorithm", "generated", "heuristic"})
    r.extra[k] = "replaced";
  r.extra["own"] = 1;
  const json j = solve_json(r);
  EXPECT_EQ(j["puzzle"], "p");
  EXPECT_EQ(j["start"], "s");
  EXPECT_EQ(j["goal"], "g");
  EXPECT_EQ(j["solvable"], true);
  EXPECT_EQ(j["optimal"], true);
  EXPECT_EQ(j["length"], 3);
  EXPECT_TRUE(j["moves"].is_array());
  EXPECT_EQ(j["nodes"], 7);
  EXPECT_EQ(j["seconds"], 0.5);
  EXPECT_EQ(j["algorithm"], "bfs");
  EXPECT_EQ(j["generated"], 11);
  EXPECT_EQ(j["heuristic"], "h");
  EXPECT_EQ(j["own"], 1);  // an extra key of the family's own is added

  ExploreReport e;
  e.puzzle = "p";
  e.from = "f";
  e.states = 5;
  e.depth = 2;
  e.histogram = {1, 3, 1};
  e.farthest_count = 1;
  e.nodes = 4;
  e.table_bytes = 64;
  for (const char* k : {"puzzle", "from", "states", "depth", "histogram", "farthest", "farthest_count", "seconds",
                        "nodes", "table_bytes"})
    e.extra[k] = "replaced";
  const json x = explore_json(e);
  EXPECT_EQ(x["puzzle"], "p");
  EXPECT_EQ(x["from"], "f");
  EXPECT_EQ(x["states"], 5);
  EXPECT_EQ(x["depth"], 2);
  EXPECT_EQ(x["histogram"], json({1, 3, 1}));
  EXPECT_TRUE(x["farthest"].is_array());
  EXPECT_EQ(x["farthest_count"], 1);
  EXPECT_EQ(x["seconds"], 0.0);
  EXPECT_EQ(x["nodes"], 4);
  EXPECT_EQ(x["table_bytes"], 64);
}

TEST(Reports, ExploreNodesOnlyWhenCounted) {
  ExploreReport e;
  EXPECT_FALSE(explore_json(e).contains("nodes"));
  EXPECT_FALSE(explore_json(e).contains("generated"));
  EXPECT_FALSE(explore_json(e).contains("table_bytes"));
  EXPECT_FALSE(explore_json(e).contains("heuristic"));
}

TEST(Reports, SolveHasEveryDocumentedKey) {
  struct Case {
    std::string args, algorithm;
  };
  const std::vector<Case> cases = {
      {"solve peg:triangle5 --empty 0 --finish 12", ""},
      {"solve peg:triangle5 --empty 0 --count", "layered"},
      {"solve " + kEight, ""},
      {"solve " + kEight + " --count", "layered"},
      {"solve flip:4x4", "chase"},
      {"solve 8-puzzle", ""},
      {"solve 8-puzzle --algorithm idastar", "idastar"},
      {"solve perm:2x2x2 --scramble R", ""},
  };
  for (const auto& c : cases) {
    auto r = run_cli(c.args + " --json --quiet");
    ASSERT_EQ(r.code, 0) << c.args << ": " << r.err;
    const auto j = r.json();
    expect_keys(j, kSolveKeys, c.args);
    EXPECT_GT(j["seconds"].get<double>(), -1.0) << c.args;
    EXPECT_FALSE(j["puzzle"].get<std::string>().empty()) << c.args;
    if (!c.algorithm.empty()) {
      EXPECT_EQ(j["algorithm"], c.algorithm) << c.args;
    }
  }
  // The heuristic has its own key; `algorithm` is the solver's name.
  auto i = run_cli("solve 8-puzzle --algorithm idastar --json --quiet").json();
  EXPECT_EQ(i["heuristic"], "manhattan + linear conflict");
}

TEST(Reports, ExploreHasEveryDocumentedKey) {
  for (const std::string& args : std::vector<std::string>{"explore peg:triangle5", "explore " + kEight, "explore flip:3x3",
                                                         "explore sliding:2x3", "explore perm:2x2x2"}) {
    auto r = run_cli(args + " --json --quiet");
    ASSERT_EQ(r.code, 0) << args << ": " << r.err;
    const auto j = r.json();
    expect_keys(j, kExploreKeys, args);
    EXPECT_FALSE(j["puzzle"].get<std::string>().empty()) << args;
    if (j.contains("nodes")) {  // only when counted
      EXPECT_GT(j["nodes"].get<std::uint64_t>(), 0u) << args;
    }
  }
}
