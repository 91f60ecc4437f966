// The packed 2-bit table explore runs on: claims (locked and single-threaded), word-wise
// updates, fill and match.
#include <gtest/gtest.h>

#include "tansaku/core/two_bit_table.h"

using tansaku::TwoBitTable;

TEST(TwoBitTable, ClaimsSetOnlyEmptyCells) {
  TwoBitTable t(100);
  EXPECT_TRUE(t.claim(5, 1));
  EXPECT_FALSE(t.claim(5, 2));
  EXPECT_EQ(t.get(5), 1u);
  EXPECT_TRUE(t.claim_alone(6, 2));
  EXPECT_FALSE(t.claim_alone(6, 1));
  EXPECT_FALSE(TwoBitTable::claim_alone(t.data(), 5, 2));
  EXPECT_EQ(t.get(5), 1u);
  EXPECT_EQ(t.get(6), 2u);
  EXPECT_TRUE(TwoBitTable::claim_alone(t.data(), 99, 3));
  EXPECT_EQ(t.get(99), 3u);
  for (std::uint64_t i = 0; i < 100; ++i)
    if (i != 5 && i != 6 && i != 99) EXPECT_EQ(t.get(i), 0u) << i;
}

TEST(TwoBitTable, WordUpdatesAndFill) {
  TwoBitTable t(64);
  t.fill(3);
  for (std::uint64_t i = 0; i < 64; ++i) EXPECT_EQ(t.get(i), 3u);
  t.fill(0);
  t.set_plain(1, 1), t.set_plain(4, 1), t.set_plain(7, 2);
  const std::uint64_t ones = t.match(0, 1);
  EXPECT_EQ(ones, (std::uint64_t{1} << 2) | (std::uint64_t{1} << 8));
  t.set_cells_owned(0, ones, 2);  // cells 1 and 4 to 2; the others unchanged
  EXPECT_EQ(t.get(1), 2u);
  EXPECT_EQ(t.get(4), 2u);
  EXPECT_EQ(t.get(7), 2u);
  EXPECT_EQ(t.get(0), 0u);
  t.set_cells_owned(0, t.match(0, 2), 3);
  EXPECT_EQ(t.match(0, 3), (std::uint64_t{1} << 2) | (std::uint64_t{1} << 8) | (std::uint64_t{1} << 14));
  t.prefetch_range(0, 64);  // a hint only
}
