// The generic CLI over the families' declarations: options a family or subcommand does not
// take are refused, --algorithm is resolved against the family's solvers, typos get a
// suggestion, help pages come from the declarations, `random` gives reachable positions,
// and the families agree on the JSON rules (optimal on unsolvable results, truncation).
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "cli_util.h"
#include "tansaku/puzzles/registry.h"

namespace {

TEST(CliPlugin, OptionsAFamilyOrSubcommandDoesNotTakeAreRefused) {
  expect_refused("solve knight-tour:5x5 --goal x", "--goal does not apply to knight-tour:5x5");
  expect_refused("explore 8-puzzle --count", "--count does not apply to 'explore 8-puzzle'");
  expect_refused("solve flip:4x4 --from 1111/1111/1111/1111", "--from does not apply to 'solve flip:4x4'");
  expect_refused("solve 8-puzzle --rule eight", "--rule does not apply to 8-puzzle");
  expect_refused("solve peg:triangle5 --all", "--all does not apply to peg:triangle5");
  expect_refused("explore knight-tour:5x5 --closed", "--closed does not apply to 'explore knight-tour:5x5'");
  expect_refused("explore knight-tour:5x5 --algorithm dfs", "unknown algorithm 'dfs' for explore knight-tour:5x5");
  expect_refused("explore square-sum --algorithm dfs", "'explore square-sum' takes no --algorithm");
  expect_refused("solve square-sum --n x", "--n 'x' is not a whole number");
}

TEST(CliPlugin, UnknownNamesGetASuggestion) {
  expect_refused("solve englsh", "did you mean 'peg:english'");
  expect_refused("solve 8-puzle", "did you mean '8-puzzle'");
  expect_refused("solve 8-puzzle --algorithm idastr", "did you mean 'idastar'");
  expect_refused("solve 8-puzzle --algorithm idastr", "bibfs, pdb, idastar, bfs, iddfs");
  expect_refused("solve coloring:map12 --colours 3", "did you mean '--colors'");
  expect_refused("slove 8-puzzle", "did you mean 'solve'");
}

TEST(CliPlugin, AlgorithmAliasesReachTheSameSolver) {
  for (const char* a : {"idastar", "IDA*", "ida-star"}) {
    auto r = run_cli(std::string("solve 8-puzzle --json --algorithm '") + a + "'");
    ASSERT_EQ(r.code, 0) << a << r.err;
    EXPECT_EQ(r.json()["length"], 31);
    EXPECT_EQ(r.json()["algorithm"].get<std::string>().rfind("idastar", 0), 0u) << a;
  }
  auto r = run_cli("solve peg:triangle5 --finish 12 --algorithm dp --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["length"], 9);
}

TEST(CliPlugin, ExploreTakesStartAsTheSource) {
  auto a = run_cli("explore 8-puzzle --start \"1 2 3 4 5 6 7 8 0\" --json --quiet");
  auto b = run_cli("explore 8-puzzle --from \"1 2 3 4 5 6 7 8 0\" --json --quiet");
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.json()["states"], 181440);
  EXPECT_EQ(a.json()["histogram"], b.json()["histogram"]);
  expect_refused("explore 8-puzzle --start 123456780 --from 123456780", "either --from or --start");
}

TEST(CliPlugin, HelpComesFromTheDeclarations) {
  auto r = run_cli("solve peg:english --help");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* s : {"--finish H", "--metric", "layered", "idastar", "notation:", "examples:", "exit codes"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s;
  EXPECT_EQ(r.out.find("--farthest"), std::string::npos) << "solve's help lists explore-only options";
  auto h = run_cli("help 8-puzzle");
  ASSERT_EQ(h.code, 0);
  EXPECT_NE(h.out.find("--farthest K"), std::string::npos);
  EXPECT_NE(h.out.find("[explore]"), std::string::npos);
  auto v = run_cli("--version");
  EXPECT_EQ(v.code, 0);
  EXPECT_EQ(v.out.rfind("tansaku ", 0), 0u);
  expect_refused("help no-such-puzzle", "unknown puzzle");
}

TEST(CliPlugin, EveryFamilyDeclaresWhatItsHelpNeeds) {
  std::set<std::string> seen;
  for (const auto& f : tansaku::families()) {
    EXPECT_TRUE(seen.insert(f.prefix).second) << "two families named " << f.prefix;
    EXPECT_FALSE(f.summary.empty()) << f.prefix;
    EXPECT_FALSE(f.notation.empty()) << f.prefix;
    EXPECT_FALSE(f.examples.empty()) << f.prefix;
    std::set<std::string> names;
    for (const auto& s : f.solvers) {
      EXPECT_TRUE(names.insert(s.name).second) << f.prefix << ": solver " << s.name << " twice";
      for (const auto& a : s.aliases) EXPECT_TRUE(names.insert(a).second) << f.prefix << ": alias " << a << " twice";
    }
    // Every example runs into no usage error (only the quick ones are run).
    for (const auto& e : f.examples) {
      if (e.find("1000") != std::string::npos || e.find("pdb build") != std::string::npos ||
          e.find("english") != std::string::npos || e.find("french") != std::string::npos ||
          e.find("8x8") != std::string::npos || e.find("korf100") != std::string::npos ||
          e.find("100000") != std::string::npos || e.find("my-graph") != std::string::npos ||
          e.find("queen") != std::string::npos || e.find("data/") != std::string::npos)
        continue;
      ASSERT_EQ(e.rfind("tansaku ", 0), 0u) << e;
      auto r = run_cli(e.substr(8) + " --quiet");
      EXPECT_TRUE(r.code == 0 || r.code == 1) << e << "\n" << r.err;
    }
  }
}

TEST(CliPlugin, RandomPositionsAreReproducibleAndSolvable) {
  auto a = run_cli("random 15-puzzle --seed 11 --count 5");
  auto b = run_cli("random 15-puzzle --seed 11 --count 5");
  auto c = run_cli("random 15-puzzle --seed 12 --count 5");
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out, c.out);
  EXPECT_EQ(std::count(a.out.begin(), a.out.end(), '\n'), 5);
  // Each 8-puzzle and rotating-slide position is reachable: solve says so (exit 0).
  for (const char* p : {"8-puzzle", "rotating-slide"}) {
    auto r = run_cli(std::string("random ") + p + " --seed 5 --count 12");
    ASSERT_EQ(r.code, 0) << r.err;
    std::istringstream in(r.out);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
      auto s = run_cli(std::string("solve ") + p + " --quiet --json --start \"" + line + "\"");
      EXPECT_EQ(s.code, 0) << p << " " << line << s.err;
      ++n;
    }
    EXPECT_EQ(n, 12);
  }
  // Flip: the start must be solvable to the all-off goal.
  auto f = run_cli("random flip:5x5 --seed 3 --count 6");
  ASSERT_EQ(f.code, 0) << f.err;
  std::istringstream in(f.out);
  std::string line;
  while (std::getline(in, line)) {
    auto s = run_cli("solve flip:5x5 --quiet --json --start " + line);
    EXPECT_EQ(s.code, 0) << line << s.err;
  }
  expect_refused("random coloring:map12", "random positions are not defined");
  expect_refused("random 8-puzzle --count x", "--count 'x' is not a whole number");
}

TEST(CliPlugin, RandomIsUniformOverTheReachableClass) {
  // 2x2 sliding: 12 reachable positions; 2,400 draws put about 200 on each.
  auto r = run_cli("random sliding:2x2 --seed 1 --count 2400");
  ASSERT_EQ(r.code, 0) << r.err;
  std::map<std::string, int> seen;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) ++seen[line];
  EXPECT_EQ(seen.size(), 12u);
  for (const auto& [pos, n] : seen) {
    EXPECT_GT(n, 140) << pos;
    EXPECT_LT(n, 260) << pos;
  }
}

TEST(CliPlugin, ShowPrintsWhatStartTakesAndSaysWhetherItIsSolvable) {
  auto r = run_cli("show 8-puzzle --start 123456870 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["solvable"], false);
  auto ok = run_cli("show 8-puzzle --start \"1 2 3 4 5 6 7 . 8\" --json");
  ASSERT_EQ(ok.code, 0) << ok.err;
  EXPECT_EQ(ok.json()["solvable"], true);
  // The blank drawn as '.' pastes back into --start.
  auto s = run_cli("solve 8-puzzle --start \"8 6 7 2 5 4 3 . 1\" --json");
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_EQ(s.json()["length"], 31);
  auto rot = run_cli("show rotating-slide --start 213456789 --json");
  ASSERT_EQ(rot.code, 0) << rot.err;
  EXPECT_EQ(rot.json()["solvable"], false);
}

TEST(CliPlugin, OptimalMeansAProofOnUnsolvableResults) {
  for (const char* cmd : {"solve 8-puzzle --start 123456870", "solve coloring:map12 --colors 3", "solve square-sum --n 18",
                          "solve flip:5x5"}) {
    auto r = run_cli(std::string(cmd) + " --json --quiet");
    ASSERT_EQ(r.code, 1) << cmd << r.err;
    EXPECT_EQ(r.json()["solvable"], false) << cmd;
    EXPECT_EQ(r.json()["optimal"], true) << cmd;
    EXPECT_FALSE(r.json()["reason"].get<std::string>().empty()) << cmd;
  }
}

TEST(CliPlugin, StepsDrawEveryBoard) {
  auto r = run_cli("solve 8-puzzle --start \"1 2 3 4 5 6 . 7 8\" --steps");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("1. 7\n  1 2 3\n  4 5 6\n  7 . 8\n2. 8\n  1 2 3\n  4 5 6\n  7 8 .\n"), std::string::npos) << r.out;
}

TEST(CliPlugin, PegSaysWhatItsLengthCounts) {
  auto r = run_cli("solve peg:triangle5 --metric jumps --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["length_unit"], "jumps");
  EXPECT_EQ(r.json()["length"], 13);  // 15 pegs to 1: 13 jumps
  EXPECT_LT(r.json()["moves"].size(), 13u);
}

// The one refusal check (cli_util.h) fails on each of the three things it checks.
TEST(CliUtil, RefusedCleanlyChecksExitStdoutAndOneLine) {
  EXPECT_TRUE(refused_cleanly(CliResult{2, "", "tansaku: bad\n"}, "bad"));
  EXPECT_FALSE(refused_cleanly(CliResult{1, "", "tansaku: bad\n"}, "bad"));          // exit code
  EXPECT_FALSE(refused_cleanly(CliResult{2, "{}\n", "tansaku: bad\n"}, "bad"));      // stdout
  EXPECT_FALSE(refused_cleanly(CliResult{2, "", "tansaku: bad\nmore\n"}, "bad"));   // two lines
  EXPECT_FALSE(refused_cleanly(CliResult{2, "", "tansaku: bad"}, "bad"));            // no newline
  EXPECT_FALSE(refused_cleanly(CliResult{2, "", ""}));                               // nothing said
  EXPECT_FALSE(refused_cleanly(CliResult{2, "", "tansaku: bad\n"}, "other"));        // not the message
  EXPECT_TRUE(refused_cleanly(CliResult{3, "", "tansaku: time limit\n"}, "time limit", 3));
}

}  // namespace
