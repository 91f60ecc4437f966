// The solver table (puzzles/solver_table.h): a named solver runs only where it applies, the
// automatic choice is the first entry that applies and that it takes, the specs come from
// the table; and on the command line every family refuses a named solver that does not apply
// to the instance (exit 2, one line naming it and why).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include "cli_util.h"
#include "tansaku/core/error.h"
#include "tansaku/puzzles/registry.h"
#include "tansaku/puzzles/solver_table.h"

using namespace tansaku;

namespace {

struct Inst {
  int size = 0;
  bool many = false;
};

SolverTable<Inst, std::string> table() {
  return {
      {{"small", {"s"}, "only small instances"},
       [](const Inst& i) -> std::string { return i.size > 10 ? "more than 10" : ""; },
       [](const Inst& i) { return !i.many; },
       [](const Inst&, const search::Limits&) { return std::string("small ran"); }},
      {{"big", {}, "any size, one answer"},
       [](const Inst& i) -> std::string { return i.many ? "one answer only" : ""; }, nullptr,
       [](const Inst&, const search::Limits& lim) { return "big ran with " + std::to_string(lim.threads); }},
      {{"slow", {}, "anything"}, nullptr, nullptr, [](const Inst&, const search::Limits&) { return std::string("slow ran"); }},
      {{"walk", {}, "explore only", kExplore}, nullptr, nullptr,
       [](const Inst&, const search::Limits&) { return std::string("walk ran"); }},
  };
}

std::string message(const std::string& alg, const Inst& inst, unsigned command = kSolve) {
  try {
    choose(table(), alg, inst, command);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// Refused cleanly (cli_util.h), saying why: "does not apply to this instance" (the solver's
// refusal), or "does not take" (a capability, --all / --count, its spec lacks).
void expect_not_for_instance(const std::string& args, const std::string& fragment,
                             const std::string& why = "does not apply to this instance") {
  const CliResult r = run_cli(args);
  EXPECT_TRUE(refused_cleanly(r, fragment)) << "tansaku " << args;
  EXPECT_TRUE(refused_cleanly(r, why)) << "tansaku " << args;
}

}  // namespace

TEST(SolverTable, AutomaticChoiceIsTheFirstThatAppliesAndIsTaken) {
  const auto t = table();
  search::Limits lim;
  lim.threads = 3;
  EXPECT_EQ(choose(t, "", Inst{5, false}).run({}, lim), "small ran");
  EXPECT_EQ(choose(t, "", Inst{50, false}).run({}, lim), "big ran with 3");  // small refuses
  EXPECT_EQ(choose(t, "", Inst{5, true}).spec.name, "slow");                 // small not taken, big refuses
  EXPECT_EQ(choose(t, "", Inst{5, false}, kExplore).spec.name, "walk");
}

TEST(SolverTable, NamedSolverRunsOnlyWhereItApplies) {
  const auto t = table();
  EXPECT_EQ(choose(t, "small", Inst{5, true}).spec.name, "small");  // named: taken even where not automatic
  EXPECT_EQ(message("small", Inst{50, false}), "algorithm small does not apply to this instance: more than 10");
  EXPECT_EQ(message("big", Inst{5, true}), "algorithm big does not apply to this instance: one answer only");
  EXPECT_NE(message("walk", Inst{5, false}).find("unknown algorithm 'walk'"), std::string::npos);  // not a solve solver
  EXPECT_NE(message("nosuch", Inst{}).find("small, big, slow"), std::string::npos);
}

TEST(SolverTable, NoApplicableSolverIsAnInputError) {
  SolverTable<Inst, int> t = {{{"only", {}, "x"}, [](const Inst&) { return std::string("never"); }, nullptr,
                               [](const Inst&, const search::Limits&) { return 1; }}};
  EXPECT_THROW(choose(t, "", Inst{}), InputError);
}

TEST(SolverTable, SpecsComeFromTheTable) {
  const auto specs = solver_specs(table());
  ASSERT_EQ(specs.size(), 4u);
  EXPECT_EQ(specs[0].name, "small");
  EXPECT_EQ(specs[0].aliases, std::vector<std::string>{"s"});
  const auto merged = merge_specs({{"a", {}, "", kSolve}, {"b", {}, "", kSolve}}, {{"b", {}, "", kExplore}, {"c", {}, "", kExplore}});
  ASSERT_EQ(merged.size(), 3u);
  EXPECT_EQ(merged[1].commands, kSolve | kExplore);
  EXPECT_EQ(merged[2].name, "c");
}

TEST(SolverTable, FamiliesRefuseSolversThatDoNotApply) {
  expect_not_for_instance("solve 8-puzzle --all --algorithm bibfs", "algorithm bibfs does not take --all", "does not take");
  expect_not_for_instance("solve rotating-slide --count --algorithm bfs", "algorithm bfs does not take --count", "does not take");
  expect_not_for_instance("solve sliding:3x3 --goal \"1 1 2 2 3 3 4 4 0\" --start \"1 1 2 2 3 3 4 0 4\" --algorithm pdb",
                 "distinct tiles");
  expect_not_for_instance("solve flip:6x6 --algorithm bfs", "limited to 30 cells");
  expect_not_for_instance("explore flip:7x7 --algorithm bfs", "2^49 table");
  expect_not_for_instance("solve peg:triangle5 --metric jumps --algorithm layered", "--metric jumps uses idastar");
  expect_not_for_instance("solve perm:2x2x2 --scramble R --count --algorithm bibfs", "algorithm bibfs does not take --count", "does not take");
  expect_not_for_instance("solve blocks:klotski --algorithm bibfs", "places every piece");
  // knight-tour and knight-swap: KnightsCli.ASolverThatCannotCountOrListIsRefused.
  // --all / --count are capabilities of a solver: a named one without them is refused.
  expect_not_for_instance("solve peg:triangle5 --empty 0 --count --algorithm idastar", "algorithm idastar does not take --count", "does not take");
  expect_not_for_instance("solve blocks:klotski --count --algorithm bfs", "algorithm bfs does not take --count", "does not take");
  expect_not_for_instance("solve flip:3x3 --all --algorithm bfs", "algorithm bfs does not take --all", "does not take");
}

// Every family's explore goes through its explore table: the report names the entry that
// ran, a name `explore --algorithm` takes (the family's solvers list it for explore), and
// naming it gives the same answer. A family gaining an explore must add a quick one here.
TEST(SolverTable, EveryExploreNamesItsSolver) {
  const std::map<std::string, std::string> quick = {
      {"peg", "peg:triangle5"},          {"sliding", "8-puzzle"},
      {"rotating-slide", "rotating-slide"}, {"perm", "perm:2x2x2 --moves U,F,R"},
      {"blocks", "blocks:klotski"},      {"flip", "flip:4x4"},
      {"knight-tour", "knight-tour:5x5"}, {"knight-swap", "knight-swap:4x3"}};
  for (const Family& f : families()) {
    std::vector<std::string> names;
    for (const SolverSpec& s : f.solvers)
      if (s.commands & kExplore) names.push_back(s.name);
    if (names.empty()) continue;  // no explore (coloring, square-sum refuse it)
    ASSERT_TRUE(quick.count(f.prefix)) << f.prefix << " explores: give it a quick case here";
    const std::string args = "explore " + quick.at(f.prefix) + " --json --quiet";
    const CliResult r = run_cli(args);
    ASSERT_EQ(r.code, 0) << args << "\n" << r.err;
    const auto j = r.json();
    ASSERT_TRUE(j.contains("algorithm")) << args;
    const std::string alg = j["algorithm"].get<std::string>();
    EXPECT_NE(std::find(names.begin(), names.end(), alg), names.end()) << args << " reported " << alg;
    const CliResult named = run_cli(args + " --algorithm " + alg);
    ASSERT_EQ(named.code, 0) << args << " --algorithm " << alg << "\n" << named.err;
    EXPECT_EQ(named.json()["histogram"], j["histogram"]) << args;
    EXPECT_EQ(named.json()["algorithm"], j["algorithm"]) << args;
  }
}
