// The one count type (mpz_class) and the one JSON rule: a number up to 2^64 - 1, a decimal
// string beyond; conversions from the machine-integer accumulators; and the rule as the CLI
// prints it in three families (colouring counts, peg jump sequences, knight's tours).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <limits>

#include "cli_util.h"
#include "graph/wide_count.h"
#include "tansaku/core/count.h"

using namespace tansaku;

TEST(Count, JsonRuleAtTheSixtyFourBitBoundary) {
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  EXPECT_EQ(count_json(mpz_class(0)), 0);
  EXPECT_TRUE(count_json(to_mpz(max)).is_number_unsigned());
  EXPECT_EQ(count_json(to_mpz(max)).get<std::uint64_t>(), max);
  const mpz_class over = to_mpz(max) + 1;
  EXPECT_FALSE(fits_u64(over));
  EXPECT_EQ(count_json(over), "18446744073709551616");
  EXPECT_EQ(to_string(over), "18446744073709551616");
  EXPECT_EQ(count_json(mpz_class(999999999999UL) * 1000000007UL), "1000000006998999999993");
}

TEST(Count, FromMachineIntegers) {
  const unsigned __int128 x = (static_cast<unsigned __int128>(0x0123456789abcdefULL) << 64) | 0xfedcba9876543210ULL;
  EXPECT_EQ(to_string(to_mpz(x)), "1512366075204170947332355369683137040");
  EXPECT_EQ(to_mpz(static_cast<unsigned __int128>(7)), 7);
  graph::Wide<4> w;
  w.w = {0xfedcba9876543210ULL, 0x0123456789abcdefULL, 0, 1};  // + 2^192
  mpz_class want = to_mpz(x) + (mpz_class(1) << 192);
  EXPECT_EQ(graph::to_mpz(w), want);
  EXPECT_EQ(graph::to_mpz(graph::Saturating(5)), 1);
  EXPECT_EQ(graph::to_mpz(graph::Saturating(0)), 0);
}

TEST(Count, CommandLineNumbersAndStrings) {
  // 30 isolated vertices, 10 colours: 10^30 colourings (a string), 10^29 with vertex 1 fixed.
  const std::string path = "/tmp/tansaku-count-test.col";
  std::ofstream(path) << "p edge 30 0\n";
  auto big = run_cli("solve coloring:" + path + " --colors 10 --count --json");
  std::remove(path.c_str());
  ASSERT_EQ(big.code, 0) << big.err;
  EXPECT_EQ(big.json()["count"], "1" + std::string(30, '0'));
  EXPECT_EQ(big.json()["count_first_fixed"], "1" + std::string(29, '0'));
  // Below 2^64: numbers (peg jump sequences, knight's tours).
  EXPECT_EQ(run_cli("solve peg:trytry --finish 3 --count --json").json()["count"], 1622487499889400u);
  auto tours = run_cli("solve knight-tour:5x5 --count --algorithm dp --json").json();
  EXPECT_EQ(tours["count"], 1728);
  EXPECT_EQ(tours["undirected"], 864);
  // Beyond 64 bits: 3x60 open tours (directed = twice undirected, both strings).
  auto long_board = run_cli("solve knight-tour:3x60 --count --json").json();
  ASSERT_TRUE(long_board["count"].is_string());
  EXPECT_EQ(mpz_class(long_board["count"].get<std::string>()),
            2 * mpz_class(long_board["undirected"].get<std::string>()));
}

TEST(Count, SizesBeyond128Bits) {
  // show's "states" is a decimal string (documented so): 64!/2 for the 8x8 sliding puzzle,
  // which the former 128-bit arithmetic could not hold.
  mpz_class half_fact;
  mpz_fac_ui(half_fact.get_mpz_t(), 64);
  half_fact /= 2;
  EXPECT_EQ(run_cli("show sliding:8x8 --json").json()["states"], to_string(half_fact));
  EXPECT_EQ(run_cli("show 15-puzzle --json").json()["states"], "10461394944000");
}
