// `mpirun -np K tansaku explore ...` prints exactly what one process prints (JSON but for the
// timing fields; text but for the time line), for every ranked family; errors stay one line
// from rank 0 with exit 2; and `--spill DIR` enumerates a table beyond --memory, in one
// process and with each rank's share on disk.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "cli_util.h"
#include "mpi_run.h"

namespace {

nlohmann::json untimed(nlohmann::json j) {
  j.erase("seconds");
  j.erase("peak_rss_bytes");
  return j;
}

std::string without_time(const std::string& text) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line))
    if (line.rfind("time:", 0) != 0) out += line + "\n";
  return out;
}

}  // namespace

TEST(ExploreMpiCli, SameAsOneProcess) {
  if (!have_mpirun()) GTEST_SKIP() << "mpirun is not installed (Debian openmpi-bin)";
  // Each command on 2 or 3 ranks (the 8-puzzle on both).
  for (const auto& [cmd, ranks] : std::vector<std::pair<std::string, std::vector<int>>>{
           {"explore 8-puzzle", {2, 3}},
           {"explore sliding:2x5 --farthest 50", {2}},
           {"explore sliding:2x5 --farthest 50 --threads 2", {2}},  // hybrid: threads in each rank
           {"explore perm:pyraminx --threads 2", {3}},
           {"explore rotating-slide", {3}},
           {"explore perm:pyraminx", {2}},
           {"explore perm:rotating-slide", {3}},
           {"explore knight-swap:4x3", {2}}}) {
    EXPECT_EQ(expect_same_on_ranks(cmd, ranks, untimed).size(), ranks.size()) << cmd;
  }
  const CliResult one = run_cli("explore sliding:2x4 --farthest 5");
  const CliResult two = run_sh(mpirun(2), "explore sliding:2x4 --farthest 5");
  ASSERT_EQ(two.code, 0);
  EXPECT_EQ(without_time(two.out), without_time(one.out));
}

TEST(ExploreMpiCli, ErrorsAreOneLineFromRankZero) {
  if (!have_mpirun()) GTEST_SKIP() << "mpirun is not installed (Debian openmpi-bin)";
  for (const std::string cmd : {"explore 8-puzle", "explore 8-puzzle --from '1 2 3'", "explore 8-puzzle --memory 20K"}) {
    SCOPED_TRACE(cmd);
    const CliResult r = run_sh(mpirun(2), cmd);
    expect_clean(r, 2, "");
    EXPECT_EQ(r.err.rfind("tansaku: ", 0), 0u) << r.err;
  }
  const CliResult r = run_sh(mpirun(2), "explore 8-puzzle --memory 20K");
  EXPECT_NE(r.err.find("share of the 2-bit state table (2 ranks)"), std::string::npos) << r.err;
}

TEST(ExploreSpillCli, BeyondMemoryTheSameAnswer) {
  const auto dir = std::filesystem::temp_directory_path() / "tansaku-test-spill-cli";
  std::filesystem::create_directories(dir);
  const std::string spill = " --spill " + dir.string();
  // 8-puzzle: a 45 KB table; 2x5: 453 KB.
  for (const auto& [cmd, memory] : {std::pair<std::string, std::string>{"explore 8-puzzle", "32K"},
                                    {"explore sliding:2x5 --farthest 40", "100K"},
                                    {"explore rotating-slide", "32K"}}) {
    SCOPED_TRACE(cmd);
    const CliResult in_memory = run_cli(cmd + " --json");
    ASSERT_EQ(in_memory.code, 0);
    const CliResult refused = run_cli(cmd + " --json --memory " + memory);
    EXPECT_EQ(refused.code, 2);
    EXPECT_EQ(refused.out, "");
    EXPECT_NE(refused.err.find("memory budget"), std::string::npos) << refused.err;
    const CliResult spilled = run_cli(cmd + " --json --memory " + memory + spill);
    ASSERT_EQ(spilled.code, 0) << spilled.err;
    EXPECT_EQ(untimed(spilled.json()), untimed(in_memory.json()));
  }
  // perm: the move tables follow --memory, and the move sequences to the farthest positions
  // would come from a solver within that memory: the enumeration alone is compared.
  const CliResult in_memory = run_cli("explore perm:pyraminx --json --farthest 0");
  const CliResult spilled = run_cli("explore perm:pyraminx --json --farthest 0 --memory 150K" + spill);
  ASSERT_EQ(spilled.code, 0) << spilled.err;
  for (const char* k : {"states", "depth", "histogram", "farthest_count", "nodes"})
    EXPECT_EQ(spilled.json()[k], in_memory.json()[k]) << k;
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  // Not a directory; a family without a ranked table does not take it.
  EXPECT_EQ(run_cli("explore 8-puzzle --memory 32K --spill /nonexistent/dir").code, 2);
  EXPECT_EQ(run_cli("explore peg:triangle5" + spill).code, 2);
  std::filesystem::remove_all(dir);
}

// `--spill DIR` under mpirun: a rank whose share does not fit --memory keeps it in parts on
// disk (its own directory in DIR, removed at the end); 2 ranks of 2 threads give the answer
// of one process. The same --memory without --spill is refused: exit 2, one line, no stdout.
TEST(ExploreMpiCli, SpillPerRank) {
  if (!have_mpirun()) GTEST_SKIP() << "mpirun is not installed (Debian openmpi-bin)";
  const auto dir = std::filesystem::temp_directory_path() / "tansaku-test-spill-mpi";
  std::filesystem::create_directories(dir);
  const std::string spill = " --spill " + dir.string();
  // Shares: 8-puzzle 23 KB, 2x5 227 KB, rotating-slide 23 KB; each beside its exchange buffers.
  for (const auto& [cmd, memory] : {std::pair<std::string, std::string>{"explore 8-puzzle --threads 2", "64K"},
                                    {"explore sliding:2x5 --farthest 40 --threads 2", "200K"},
                                    {"explore rotating-slide --threads 2", "64K"}}) {
    SCOPED_TRACE(cmd);
    const CliResult one = run_cli(cmd + " --json");
    ASSERT_EQ(one.code, 0) << one.err;
    const CliResult refused = run_sh(mpirun(2), cmd + " --json --memory " + memory);
    expect_clean(refused, 2, "memory budget");
    const CliResult spilled = run_sh(mpirun(2), cmd + " --json --memory " + memory + spill);
    ASSERT_EQ(spilled.code, 0) << spilled.err;
    EXPECT_EQ(spilled.err, "");
    EXPECT_EQ(untimed(spilled.json()), untimed(one.json()));
    EXPECT_TRUE(std::filesystem::is_empty(dir));
  }
  // perm (its move tables take part of --memory): the enumeration, as in the single-process
  // test above (the farthest positions' move sequences would come from the solver).
  const std::string perm = "explore perm:pyraminx --threads 2 --json --farthest 0";
  const CliResult one = run_cli(perm);
  ASSERT_EQ(one.code, 0) << one.err;
  expect_clean(run_sh(mpirun(2), perm + " --memory 150K"), 2, "memory budget");
  const CliResult spilled = run_sh(mpirun(2), perm + " --memory 150K" + spill);
  ASSERT_EQ(spilled.code, 0) << spilled.err;
  EXPECT_EQ(untimed(spilled.json()), untimed(one.json()));
  // --timeout stops every rank (exit 3, one line), and the files go too.
  expect_clean(run_sh(mpirun(2), "explore sliding:2x5 --memory 200K --timeout 0.05" + spill), 3, "time limit");
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  // Not a directory: refused on every rank (exit 2, one line from rank 0).
  expect_clean(run_sh(mpirun(2), "explore 8-puzzle --memory 64K --spill /nonexistent/dir"), 2, "not a directory");
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  std::filesystem::remove_all(dir);
}
