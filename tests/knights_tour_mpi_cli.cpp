// `mpirun -np K tansaku solve knight-tour:RxC --count` shares the split count among the ranks
// and prints what one process prints (the count, the states; not the parts nor the memory,
// which depend on the ranks); its errors stay one line from rank 0: a checkpoint refused
// (exit 2), a time limit (in the split count or in the backtracking the automatic choice
// tries first) and a memory budget met during the work (exit 3), an estimate that does not
// fit (exit 2).
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli_util.h"
#include "mpi_run.h"

namespace {

// The keys that do not depend on how many ranks shared the count.
nlohmann::json shared(nlohmann::json j) {
  for (const char* k : {"seconds", "peak_rss_bytes", "parts", "largest_part", "table_bytes"}) j.erase(k);
  return j;
}

}  // namespace

TEST(KnightTourMpiCli, SameCountAsOneProcess) {
  if (!have_mpirun()) GTEST_SKIP() << "mpirun is not installed (Debian openmpi-bin)";
  for (const auto& [cmd, ranks] : std::vector<std::pair<std::string, std::vector<int>>>{
           {"solve knight-tour:6x6 --count --closed --algorithm split", {2, 3}},
           {"solve knight-tour:5x6 --count --algorithm split --threads 2", {2}},
           {"solve knight-tour:4x5 --count --from 0 --algorithm split", {3}}}) {
    const auto runs = expect_same_on_ranks(cmd, ranks, shared);
    ASSERT_EQ(runs.size(), ranks.size()) << cmd;
    for (std::size_t i = 0; i < runs.size(); ++i)
      EXPECT_GE(runs[i]["parts"].get<unsigned>(), 16u * static_cast<unsigned>(ranks[i])) << cmd;
  }
  // The dp's count on more than one rank is the split count, shared.
  const CliResult dp = run_sh(mpirun(2), "solve knight-tour:5x6 --count --closed --algorithm dp --json");
  ASSERT_EQ(dp.code, 0) << dp.err;
  EXPECT_EQ(dp.json()["count"], 8);
  EXPECT_EQ(dp.json()["method"], "split frontier dp (exact count)");
}

TEST(KnightTourMpiCli, ErrorsAreOneLineFromRankZero) {
  if (!have_mpirun()) GTEST_SKIP() << "mpirun is not installed (Debian openmpi-bin)";
  const auto dir = testing::TempDir() + "tansaku-mpi-checkpoint";
  expect_clean(run_sh(mpirun(2), "solve knight-tour:6x6 --count --closed --algorithm split --checkpoint " + dir), 2,
               "keeps no checkpoint when it runs on 2 ranks");
  expect_clean(run_sh(mpirun(2), "solve knight-tour:6x7 --count --closed --algorithm split --timeout 0.2"), 3,
               "time limit");
  // The automatic choice: backtracking first, on every rank, stopped by the time limit (on
  // 7x8: 6x8's count takes only 3 s on one fast core).
  expect_clean(run_sh(mpirun(2), "solve knight-tour:7x8 --count --closed --timeout 1"), 3, "time limit");
  expect_clean(run_sh(mpirun(3), "solve knight-tour:6x7 --count --closed --algorithm split --memory 2M"), 3,
               "outgrow the memory budget (2.0 MiB a rank)");
  expect_clean(run_sh(mpirun(2), "solve knight-tour:7x8 --count --closed --algorithm split --memory 300M"), 2,
               "(estimate, each of 2 ranks) needs");
}
