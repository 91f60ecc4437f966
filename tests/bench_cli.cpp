// `tansaku bench` is a fixed workload whose total node count is the regression signature
// printed in the README: any change to a search's node count shows up here.
#include <gtest/gtest.h>

#include <cstdint>

#include "cli_util.h"

TEST(BenchCli, NodeSignature) {
  auto r = run_cli("bench --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["nodes"].get<std::uint64_t>(), 52546292u);  // README, "tansaku bench"
  // The signature is the sum of the runs; the whole-space explores expand every state once.
  std::uint64_t sum = 0;
  for (const auto& run : j["runs"]) sum += run["nodes"].get<std::uint64_t>();
  EXPECT_EQ(sum, j["nodes"].get<std::uint64_t>());
  int explores_8 = 0;
  for (const auto& run : j["runs"])
    if (run["command"] == "explore" && run["puzzle"] == "8-puzzle") {
      EXPECT_EQ(run["nodes"], 181440);  // 9!/2 positions
      ++explores_8;
    }
  EXPECT_EQ(explores_8, 1);
}
