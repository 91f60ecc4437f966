// rank(unrank(i)) == i over whole ranges, for every ranker in core/ranking.h.
#include "tansaku/core/ranking.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>

using namespace tansaku;

TEST(Binomial, Values) {
  EXPECT_EQ(binomial(15, 5), 3003u);
  EXPECT_EQ(binomial(10, 5), 252u);
  EXPECT_EQ(binomial(64, 32), 1832624140942590534ull);
  EXPECT_EQ(binomial(3, 5), 0u);
  EXPECT_EQ(factorial(12), 479001600u);
}

TEST(Combination, RoundTripAllSmallAndLarge) {
  for (int k = 0; k <= 6; ++k)
    for (std::uint64_t r = 0; r < binomial(20, k); ++r) {
      std::uint64_t m = combination_unrank(r, k);
      ASSERT_EQ(std::popcount(m), k);
      ASSERT_LT(m, 1u << 20);
      ASSERT_EQ(combination_rank(m), r);
    }
  // beyond the 16-bit table
  std::uint64_t m = (1ull << 40) | (1ull << 33) | (1ull << 2);
  EXPECT_EQ(combination_unrank(combination_rank(m), 3), m);
}

TEST(Permutation, RoundTripAndOrder) {
  PermutationRanker pr(7);
  std::vector<std::uint8_t> p(7), q(7);
  std::iota(p.begin(), p.end(), 0);
  std::uint64_t i = 0;
  do {  // lexicographic order == rank order
    ASSERT_EQ(pr.rank(p.data()), i);
    pr.unrank(i, q.data());
    ASSERT_EQ(p, q);
    ++i;
  } while (std::next_permutation(p.begin(), p.end()));
  EXPECT_EQ(i, pr.size());
}

TEST(Permutation, HalfRankCoversEachParityClassOnce) {
  PermutationRanker pr(8);
  for (int parity = 0; parity < 2; ++parity) {
    std::set<std::vector<std::uint8_t>> seen;
    std::vector<std::uint8_t> p(8);
    for (std::uint64_t r = 0; r < pr.half_size(); ++r) {
      pr.unrank_half(r, parity, p.data());
      ASSERT_EQ(PermutationRanker::parity(p.data(), 8), parity);
      ASSERT_EQ(pr.rank_half(p.data()), r);
      seen.insert(p);
    }
    EXPECT_EQ(seen.size(), pr.half_size());
  }
}

TEST(Multiset, SeedVariantsSizes) {
  // seed 004: 5 distinct pieces + blank + 10 identical; and blank + 5 + 5 + 5
  EXPECT_EQ(MultisetRanker({1, 1, 1, 1, 1, 1, 10}).size(), 5765760u);
  EXPECT_EQ(MultisetRanker({1, 5, 5, 5}).size(), 12108096u);
  // knight swap: 6 empty, 3 + 3 knights
  EXPECT_EQ(MultisetRanker({6, 3, 3}).size(), 18480u);
}

TEST(Multiset, RoundTripWholeRange) {
  MultisetRanker mr({1, 3, 2, 4});  // 10 cells
  std::vector<std::uint8_t> cells(10);
  std::set<std::vector<std::uint8_t>> seen;
  for (std::uint64_t r = 0; r < mr.size(); ++r) {
    mr.unrank(r, cells.data());
    std::vector<int> count(4, 0);
    for (auto c : cells) ++count[c];
    ASSERT_EQ(count, (std::vector<int>{1, 3, 2, 4}));
    ASSERT_EQ(mr.rank(cells.data()), r);
    seen.insert(cells);
  }
  EXPECT_EQ(seen.size(), mr.size());
  EXPECT_EQ(mr.size(), 12600u);  // 10! / (1! 3! 2! 4!)
}

TEST(Multiset, PermutationCaseMatchesFactorial) {
  MultisetRanker mr({1, 1, 1, 1, 1, 1});
  EXPECT_EQ(mr.size(), 720u);
  std::vector<std::uint8_t> c(6);
  for (std::uint64_t r = 0; r < 720; ++r) {
    mr.unrank(r, c.data());
    ASSERT_EQ(mr.rank(c.data()), r);
  }
}
