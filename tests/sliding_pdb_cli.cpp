// The pattern-database face of the CLI: `pdb build` / `pdb list`, `solve` choosing tables
// (disk, else built in memory) and naming them, `solve --batch`, and bad input -> exit 2.
// Every run points TANSAKU_PDB_DIR at a private directory: the user's cache is never read.
#include <gtest/gtest.h>
#include <algorithm>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <stdlib.h>
#include <unistd.h>

#include "cli_util.h"

namespace {

namespace fs = std::filesystem;

const char* kKorfGoal = "\"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\"";

class PdbCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("tansaku_pdb_cli_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    ::setenv("TANSAKU_PDB_DIR", (dir_ / "tables").c_str(), 1);
  }
  void TearDown() override { fs::remove_all(dir_); }
  // Runs the binary; it inherits TANSAKU_PDB_DIR pointing at this test's own directory.
  CliResult run_tansaku(const std::string& args) const { return run_cli(args); }
  fs::path dir_;
};

}  // namespace

TEST_F(PdbCli, BuildListAndSolveWithTables) {
  const std::string tables = (dir_ / "tables").string();
  auto b = run_tansaku("pdb build 8-puzzle --groups 4-4 --dir " + tables + " --json --quiet");
  ASSERT_EQ(b.code, 0) << b.err;
  auto j = b.json();
  ASSERT_EQ(j["tables"].size(), 2u);
  for (const auto& t : j["tables"]) {
    EXPECT_EQ(t["status"], "built");
    EXPECT_EQ(t["entries"], 3024);  // 9!/5!
    EXPECT_TRUE(fs::exists(t["file"].get<std::string>()));
  }
  // Again: nothing to do.
  auto again = run_tansaku("pdb build 8-puzzle --groups 4-4 --dir " + tables + " --json");
  ASSERT_EQ(again.code, 0);
  const auto again_json = again.json();  // a range-for over a temporary's member would dangle
  for (const auto& t : again_json["tables"]) EXPECT_EQ(t["status"], "exists");
  auto list = run_tansaku("pdb list --dir " + tables + " --json");
  ASSERT_EQ(list.code, 0);
  EXPECT_EQ(list.json()["tables"].size(), 2u);
  // solve picks them (the disk tables beat the in-memory default only if larger: force pdb).
  auto s = run_tansaku("solve 8-puzzle --algorithm pdb --json");
  ASSERT_EQ(s.code, 0) << s.err;
  auto r = s.json();
  EXPECT_EQ(r["length"], 31);
  EXPECT_EQ(r["moves"].size(), 31u);
  EXPECT_EQ(r["algorithm"], "pdb");
  EXPECT_NE(r["heuristic"].get<std::string>().find("pdb"), std::string::npos);
}

TEST_F(PdbCli, BuildsKnownPartitionsByName) {
  // `--partition all` builds each known partition's tables once; on 3x3 the one known
  // partition is the default (8 tiles), named by its sizes.
  const std::string tables = (dir_ / "named").string();
  auto b = run_tansaku("pdb build 8-puzzle --partition all --dir " + tables + " --json --quiet");
  ASSERT_EQ(b.code, 0) << b.err;
  auto j = b.json();
  EXPECT_EQ(j["partition"], "all");
  ASSERT_EQ(j["tables"].size(), 1u);
  EXPECT_EQ(j["tables"][0]["entries"], 362880);  // 9!/1!
  EXPECT_EQ(j["tables"][0]["status"], "built");
  auto again = run_tansaku("pdb build 8-puzzle --partition 8 --dir " + tables + " --json --quiet");
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(again.json()["tables"][0]["status"], "exists");
}

TEST_F(PdbCli, SolveFallsBackToTablesBuiltInMemory) {
  auto s = run_tansaku("solve 11-puzzle --json --quiet");
  ASSERT_EQ(s.code, 0) << s.err;
  auto r = s.json();
  EXPECT_EQ(r["length"], 53);
  EXPECT_TRUE(r["optimal"].get<bool>());
  EXPECT_EQ(r["algorithm"], "pdb");
  EXPECT_NE(r["heuristic"].get<std::string>().find("built in memory"), std::string::npos) << r["heuristic"];
  // The 15-puzzle, Korf's #12 (45 moves), 5-5-5 + reflection in memory.
  auto k = run_tansaku(std::string("solve 15-puzzle --start \"14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15\" --goal ") + kKorfGoal +
                   " --json --quiet");
  ASSERT_EQ(k.code, 0) << k.err;
  EXPECT_EQ(k.json()["length"], 45);
  EXPECT_NE(k.json()["heuristic"].get<std::string>().find("reflection"), std::string::npos);
  // Naming another algorithm bypasses the tables.
  auto m = run_tansaku("solve 11-puzzle --start \"1 2 3 4 5 6 7 8 9 10 0 11\" --algorithm idastar --json");
  ASSERT_EQ(m.code, 0);
  EXPECT_EQ(m.json()["algorithm"], "idastar");
  EXPECT_EQ(m.json()["heuristic"].get<std::string>().find("pdb"), std::string::npos);
}

TEST_F(PdbCli, Batch) {
  const fs::path file = dir_ / "few.txt";
  std::ofstream(file) << "# three of Korf's 100\n"
                         "9 3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 0\n"
                         "\n"
                         "12 14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15  # trailing comment\n"
                         "1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 15\n";  // no number: instance 3
  auto r = run_tansaku("solve 15-puzzle --batch " + file.string() + " --goal " + kKorfGoal + " --json --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  std::istringstream lines(r.out);
  std::vector<nlohmann::json> js;
  for (std::string line; std::getline(lines, line);) js.push_back(parse_json(line));
  ASSERT_EQ(js.size(), 4u);
  EXPECT_EQ(js[0]["instance"], "9");
  EXPECT_EQ(js[0]["length"], 46);
  EXPECT_EQ(js[1]["instance"], "12");
  EXPECT_EQ(js[1]["length"], 45);
  EXPECT_EQ(js[2]["instance"], "3");
  EXPECT_EQ(js[2]["length"], 3);
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(js[i].contains("nodes"));
    EXPECT_TRUE(js[i].contains("seconds"));
    EXPECT_EQ(js[i]["moves"].size(), js[i]["length"].get<std::size_t>());
  }
  const auto& sum = js[3];
  EXPECT_TRUE(sum["summary"].get<bool>());
  EXPECT_EQ(sum["instances"], 3);
  EXPECT_EQ(sum["solved"], 3);
  EXPECT_EQ(sum["sum_length"], 94);
  EXPECT_EQ(sum["nodes"], js[0]["nodes"].get<std::uint64_t>() + js[1]["nodes"].get<std::uint64_t>() +
                              js[2]["nodes"].get<std::uint64_t>());
  // Text mode: one line per instance, then the summary.
  auto t = run_tansaku("solve 15-puzzle --batch " + file.string() + " --goal " + kKorfGoal + " --quiet");
  ASSERT_EQ(t.code, 0);
  EXPECT_NE(t.out.find("sum of lengths 94"), std::string::npos) << t.out;

  // An unsolvable line is reported, and the exit code says so.
  const fs::path odd = dir_ / "odd.txt";
  std::ofstream(odd) << "1 0 2 3 4 5 6 7 8\n2 1 0 3 4 5 6 7 8\n";
  auto u = run_tansaku("solve 8-puzzle --batch " + odd.string() + " --goal \"0 1 2 3 4 5 6 7 8\" --json");
  EXPECT_EQ(u.code, 1);
  std::istringstream ul(u.out);
  std::string l1, l2, l3;
  std::getline(ul, l1), std::getline(ul, l2), std::getline(ul, l3);
  EXPECT_EQ(parse_json(l1)["length"], 1);
  EXPECT_FALSE(parse_json(l2)["solvable"].get<bool>());
  EXPECT_EQ(parse_json(l3)["solved"], 1);
}

// With neither --groups nor --partition, the 24-puzzle gets every known partition whose
// builds fit --memory: under 4 GiB only Korf & Felner's 6-6-6-6, the 7-tile ones named as
// left out (stopped at once: what was chosen is said before the build starts).
TEST_F(PdbCli, DefaultBuildsTheStrongestPartitionsThatFit) {
  const std::string tables = (dir_ / "tables").string();
  auto r = run_tansaku("pdb build 24-puzzle --memory 4G --timeout 0.2 --dir " + tables);
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("building the known partitions that fit (--memory 4.0 GiB): 6-6-6-6; left out: 7-7-7-3 (a "
                       "build needs "),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("7-7-7-3-sym (a build needs"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("7-7-7-3-columns (a build needs"), std::string::npos) << r.err;
  // Too little for any: one line, the refusal of the smallest.
  auto n = run_tansaku("pdb build 24-puzzle --memory 100M --dir " + tables);
  EXPECT_EQ(n.code, 2) << n.err;
  EXPECT_EQ(std::count(n.err.begin(), n.err.end(), '\n'), 1) << n.err;
  EXPECT_NE(n.err.find("6-tile"), std::string::npos) << n.err;
  // The 15-puzzle knows one partition: nothing to choose, nothing said.
  auto q = run_tansaku("pdb build 15-puzzle --memory 4G --timeout 0.2 --dir " + tables);
  EXPECT_EQ(q.code, 3) << q.err;
  EXPECT_EQ(q.err.find("known partitions"), std::string::npos) << q.err;
}

TEST_F(PdbCli, BadInput) {
  const std::string tables = (dir_ / "tables").string();
  auto expect2 = [&](const std::string& args) { expect_refused(args); };
  expect2("pdb build 15-puzzle --memory 100M --dir " + tables);  // the 8-tile build needs ~1.8 GiB
  expect2("pdb build 8-puzzle --groups 5-5 --dir " + tables);    // 10 tiles on a 3x3
  {
    // A 7-tile 5x5 table needs ~7.9 GiB even with a byte per mask of blank regions.
    auto r = run_tansaku("pdb build 24-puzzle --groups 1,2,3,5,6,7,12 --memory 4G --dir " + tables);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(r.out.empty());
    EXPECT_NE(r.err.find("7-tile"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("region"), std::string::npos) << r.err;
  }
  {
    // Named partitions: refused before building when one does not fit, or is unknown.
    auto r = run_tansaku("pdb build 24-puzzle --partition 7-7-7-3 --memory 4G --dir " + tables);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(r.out.empty());
    EXPECT_NE(r.err.find("7-tile"), std::string::npos) << r.err;
    auto u = run_tansaku("pdb build 24-puzzle --partition 8-8-8 --dir " + tables);
    EXPECT_EQ(u.code, 2);
    EXPECT_TRUE(u.out.empty());
    EXPECT_NE(u.err.find("7-7-7-3, 7-7-7-3-sym, 7-7-7-3-columns, 6-6-6-6, all"), std::string::npos) << u.err;
  }
  expect2("pdb build 8-puzzle --groups 4-4 --partition all --dir " + tables);
  expect2("pdb build 8-puzzle --partition \"\" --dir " + tables);
  expect2("pdb build 8-puzzle --groups 1,2/2,3 --dir " + tables);
  expect2("pdb build 8-puzzle --groups 0,1 --dir " + tables);
  expect2("pdb build peg:triangle5 --dir " + tables);
  expect2("pdb build sliding:1x9 --dir " + tables);
  expect2("pdb build 8-puzzle --goal \"1 1 2 3 4 5 6 7 0\" --dir " + tables);
  {
    // --reduced where no symmetry keeps any group: said, nothing built.
    auto r = run_tansaku("pdb build 15-puzzle --reduced --dir " + tables);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(r.out.empty());
    EXPECT_NE(r.err.find("--reduced: no symmetry"), std::string::npos) << r.err;
    expect2("pdb build sliding:3x4 --groups 4 --reduced --dir " + tables);
  }
  EXPECT_FALSE(fs::exists(tables) && !fs::is_empty(tables));  // nothing was built
  expect2("solve 15-puzzle --batch " + (dir_ / "missing.txt").string());
  const fs::path bad = dir_ / "bad.txt";
  std::ofstream(bad) << "1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 15\n1 2 3\n";
  expect2("solve 15-puzzle --batch " + bad.string());
  const fs::path badlabel = dir_ / "badlabel.txt";
  std::ofstream(badlabel) << "1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 99\n";
  expect2("solve 15-puzzle --batch " + badlabel.string());
  const fs::path empty = dir_ / "empty.txt";
  std::ofstream(empty) << "# nothing\n";
  expect2("solve 15-puzzle --batch " + empty.string());
  expect2("solve 15-puzzle --batch " + bad.string() + " --start \"1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 15\"");
  expect2("solve 15-puzzle --start \"1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\" --algorithm pdb --all");
  expect2("solve sliding:3x3 --goal \"1 1 2 2 3 3 4 4 0\" --start \"1 1 2 2 3 3 4 0 4\" --algorithm pdb");
  expect2("solve 15-puzzle --prune-depth 1");
  expect2("solve 15-puzzle --prune-depth 25");
  expect2("solve 15-puzzle --prune-depth deep");
}

TEST_F(PdbCli, PruneDepthKeepsTheLengthAndSavesNodes) {
  // Korf's #1 with the in-memory tables: the same optimal length with the inverse of the last
  // move only (Korf & Felner's search) and with the redundant strings of up to 10 moves.
  const std::string korf1 = "--start \"14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\" --goal " + std::string(kKorfGoal);
  auto a = run_tansaku("solve 15-puzzle " + korf1 + " --prune-depth 2 --json --quiet");
  auto b = run_tansaku("solve 15-puzzle " + korf1 + " --prune-depth 10 --json --quiet");
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  const auto ja = a.json(), jb = b.json();
  EXPECT_EQ(ja["length"], 57);
  EXPECT_EQ(jb["length"], 57);
  EXPECT_EQ(ja["prune_depth"], 2);
  EXPECT_EQ(jb["prune_depth"], 10);
  EXPECT_LT(jb["generated"].get<std::uint64_t>(), ja["generated"].get<std::uint64_t>());
}

TEST_F(PdbCli, TimeoutStopsTheSearch) {
  // Korf's #3 takes millions of nodes with the in-memory 5-5-5 tables: a 20 ms budget stops it.
  auto r = run_tansaku(std::string("solve 15-puzzle --start \"14 7 8 2 13 11 10 4 9 12 5 0 3 6 1 15\" --goal ") +
                       kKorfGoal + " --timeout 0.02 --json");
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("time limit"), std::string::npos);
  // --json: what was proved, as one object (docs/cli.md); once IDA* has started, at least
  // the heuristic's bound at the start.
  const auto j = r.json();
  EXPECT_FALSE(j["complete"].get<bool>());
  EXPECT_EQ(j["stopped"], "timeout");
  // Proved before the tables are built: at least Manhattan distance (41 here).
  ASSERT_TRUE(j.contains("lower_bound")) << j;
  EXPECT_GE(j["lower_bound"].get<int>(), 41);
}

TEST_F(PdbCli, StoppedWhileTheTablesAreBuiltSaysWhatWasProved) {
  // No tables on disk: the 24-puzzle's small tables are built first, and 0.05 s stops that
  // build. Manhattan distance (96 for the reversed board) is proved before it, and the hint
  // says how to make the next solve faster.
  auto r = run_tansaku(
      "solve 24-puzzle --algorithm pdb --timeout 0.05 --json --quiet --start \""
      "24 23 22 21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0\"");
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["stopped"], "timeout") << j;
  ASSERT_TRUE(j.contains("lower_bound")) << j;
  EXPECT_GE(j["lower_bound"].get<int>(), 96) << j;
  ASSERT_TRUE(j.contains("hint")) << j;
  EXPECT_NE(j["hint"].get<std::string>().find("tansaku pdb build 24-puzzle"), std::string::npos) << j;
  EXPECT_NE(r.err.find("proved so far: no solution is shorter than"), std::string::npos) << r.err;
}

TEST_F(PdbCli, TimeoutStopsTheBuild) {
  // The 8-tile 4x4 table takes minutes: a 0.3 s budget stops it (exit 3); no table is
  // written, only its partial build (tests/pdb_resume.cpp goes on from one).
  const std::string tables = (dir_ / "tables").string();
  auto r = run_tansaku("pdb build 15-puzzle --groups 8 --timeout 0.3 --quiet --dir " + tables);
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("time limit"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("partial build is kept"), std::string::npos) << r.err;
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(tables)) names.push_back(e.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"sliding-4x4-b0-1.2.3.4.5.6.7.8.pdb.zst.partial"});
}

TEST_F(PdbCli, ReducedTables) {
  // `pdb build --reduced`: the 8-puzzle's whole-board group, which the transpose keeps, stored
  // one entry per class of placements beside its full table; list shows it, a solve uses the
  // full table where it fits half of --memory and the reduced one where only that fits (exact
  // either way: one node a move).
  const std::string tables = (dir_ / "tables").string();
  const std::string start = "--start \"8 6 7 2 5 4 3 0 1\" --algorithm pdb --json --quiet";
  auto b = run_tansaku("pdb build 8-puzzle --groups 8 --reduced --json --quiet");
  ASSERT_EQ(b.code, 0) << b.err;
  const auto bj = b.json();
  ASSERT_EQ(bj["tables"].size(), 1u);
  const auto& t = bj["tables"][0];
  EXPECT_EQ(t["status"], "built");
  EXPECT_EQ(t["reduced"], true);
  EXPECT_EQ(t["placements"], 362880);
  EXPECT_GT(t["entries"].get<std::uint64_t>(), 181440u);  // the classes the transpose fixes count whole
  EXPECT_LT(t["entries"].get<std::uint64_t>(), 200000u);
  const std::string reduced_file = t["file"].get<std::string>(), full_file = t["full_file"].get<std::string>();
  EXPECT_TRUE(reduced_file.ends_with("-reduced.pdb.zst")) << reduced_file;
  EXPECT_TRUE(fs::exists(reduced_file));
  EXPECT_TRUE(fs::exists(full_file));  // kept: a stop while reducing loses nothing
  auto again = run_tansaku("pdb build 8-puzzle --groups 8 --reduced --json --quiet");
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(again.json()["tables"][0]["status"], "exists");
  auto list = run_tansaku("pdb list --json");
  ASSERT_EQ(list.code, 0) << list.err;
  const auto lj = list.json();
  ASSERT_EQ(lj["tables"].size(), 2u);
  EXPECT_EQ(lj["tables"][0].value("reduced", false) + lj["tables"][1].value("reduced", false), 1);
  auto text = run_tansaku("pdb list");
  EXPECT_NE(text.out.find("reduced by 2 symmetries from 362880 placements"), std::string::npos) << text.out;
  auto solve = [&](const std::string& more) {
    auto s = run_tansaku("solve 8-puzzle " + start + more);
    EXPECT_EQ(s.code, 0) << s.err;
    auto j = s.json();
    EXPECT_EQ(j["length"], 31);
    EXPECT_EQ(j["nodes"], 31);  // the whole board in one table: exact
    return j["heuristic"].get<std::string>();
  };
  EXPECT_EQ(solve("").find("reduced"), std::string::npos);
  EXPECT_NE(solve(" --memory 300K").find("reduced by symmetry"), std::string::npos);
  fs::remove(full_file);
  EXPECT_NE(solve("").find("reduced by symmetry"), std::string::npos);
  // Reduced from the full table's file: it needs only the two tables' memory, not a build's,
  // and writes the same file.
  const std::string other = (dir_ / "other").string();
  auto refused = run_tansaku("pdb build 8-puzzle --groups 8 --reduced --memory 1M --dir " + other);
  EXPECT_EQ(refused.code, 2) << refused.err;
  EXPECT_TRUE(refused.out.empty());
  EXPECT_NE(refused.err.find("then reduced"), std::string::npos) << refused.err;
  ASSERT_EQ(run_tansaku("pdb build 8-puzzle --groups 8 --quiet --dir " + other).code, 0);
  auto r = run_tansaku("pdb build 8-puzzle --groups 8 --reduced --memory 1M --json --quiet --dir " + other);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto rj = r.json();
  EXPECT_EQ(rj["tables"][0]["status"], "reduced");
  EXPECT_FALSE(rj["tables"][0].contains("full_file"));
  auto bytes = [](const std::string& f) {
    std::ifstream in(f, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  EXPECT_EQ(bytes(rj["tables"][0]["file"].get<std::string>()), bytes(reduced_file));
}

TEST_F(PdbCli, HintNamesACachedTableTooLargeForTheMemory) {
  // A table on disk that alone does not fit half of --memory is left out, and the hint names
  // it with the --memory that would use it (not the `pdb build` that made it); with that budget
  // the solve uses it.
  ASSERT_EQ(run_tansaku("pdb build 8-puzzle --groups 8 --quiet").code, 0);
  const std::string start = "solve 8-puzzle --start \"8 6 7 2 5 4 3 0 1\" --algorithm pdb --json --quiet";
  auto small = run_tansaku(start + " --memory 300K");
  ASSERT_EQ(small.code, 0) << small.err;
  const auto sj = small.json();
  EXPECT_EQ(sj["length"], 31);
  EXPECT_NE(sj["heuristic"].get<std::string>().find("built in memory"), std::string::npos) << sj.dump();
  const std::string hint = sj.value("hint", "");
  EXPECT_NE(hint.find("sliding-3x3-b0-1.2.3.4.5.6.7.8.pdb.zst"), std::string::npos) << hint;
  EXPECT_NE(hint.find("does not fit this solve's memory"), std::string::npos) << hint;
  EXPECT_NE(hint.find("`--memory 1M` or more uses it"), std::string::npos) << hint;
  auto enough = run_tansaku(start + " --memory 1M");
  ASSERT_EQ(enough.code, 0) << enough.err;
  EXPECT_NE(enough.json()["heuristic"].get<std::string>().find("(disk)"), std::string::npos) << enough.out;
  EXPECT_FALSE(enough.json().contains("hint")) << enough.out;
  // The same group's reduced table fits instead: taken, and nothing to hint.
  ASSERT_EQ(run_tansaku("pdb build 8-puzzle --groups 8 --reduced --quiet").code, 0);
  auto reduced = run_tansaku(start + " --memory 300K");
  ASSERT_EQ(reduced.code, 0) << reduced.err;
  EXPECT_NE(reduced.json()["heuristic"].get<std::string>().find("reduced by symmetry"), std::string::npos);
  EXPECT_FALSE(reduced.json().contains("hint")) << reduced.out;
}
