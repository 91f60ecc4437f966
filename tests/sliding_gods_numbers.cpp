// God's numbers of the 239,500,800-state sliding boards by the 2-bit explore through the
// CLI (about 10 s each on 2 cores): 3x4 depth 53 with 18 farthest positions, 2x6 depth 80.
#include <gtest/gtest.h>

#include "cli_util.h"

TEST(SlidingGodsNumber, ThreeByFour) {
  auto r = run_cli("explore sliding:3x4 --json --quiet --memory 64M");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["states"], 239500800u);
  EXPECT_EQ(j["depth"], 53);
  EXPECT_EQ(j["farthest_count"], 18u);
  EXPECT_EQ(j["histogram"].size(), 54u);
  EXPECT_EQ(j["histogram"][1], 2u);
}

TEST(SlidingGodsNumber, TwoBySix) {
  auto r = run_cli("explore sliding:2x6 --json --quiet --memory 64M");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["states"], 239500800u);
  EXPECT_EQ(j["depth"], 80);
}

TEST(SlidingGodsNumber, RefusedBeforeStartingWhenTheTableDoesNotFit) {
  auto r = run_cli("explore sliding:3x4 --json --memory 32M");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("memory"), std::string::npos) << r.err;
}
