// The English board's published results through the CLI (about 25 s on 2 cores):
// centre -> centre in 18 moves (Bergholt 1912; minimal, Beasley), and the positions
// reachable from the central vacancy: 187,636,299, or 23,475,688 up to symmetry
// (Bell; OEIS A112737).
#include <gtest/gtest.h>

#include "cli_util.h"

TEST(PegEnglish, CentreToCentreInEighteenMoves) {
  auto r = run_cli("solve peg:english --finish 16 --json --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["length"], 18);
  EXPECT_EQ(j["optimal"], true);
  EXPECT_EQ(j["moves"].size(), 18u);
}

TEST(PegEnglish, ExploreCountsPositions) {
  auto r = run_cli("explore peg:english --json --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["states"], 187636299u);
  EXPECT_EQ(j["states_symmetry_reduced"], 23475688u);
}
