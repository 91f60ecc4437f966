// Minimal perfect hashes (rank/unrank) for the state spaces the engine tables are indexed by:
// combinations, permutations (all, or one parity class: n!/2), k-permutations and
// permutations of a multiset (identical pieces). rank(unrank(i)) == i over [0, size()).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "tansaku/core/bits.h"

namespace tansaku {

// Binomial coefficients C(n, k) for n, k <= 64 (0 where k > n); saturates at UINT64_MAX.
std::uint64_t binomial(int n, int k);
// n! for n <= 20.
std::uint64_t factorial(int n);

// Rank of a k-subset of {0..63} given as a bitmask, in colexicographic order
// (which for a fixed size is the numeric order of the masks): sum of C(p_j, j+1).
std::uint64_t combination_rank(std::uint64_t mask);
// The subset of size k with colex rank r.
std::uint64_t combination_unrank(std::uint64_t r, int k);

// Lehmer-code ranking of permutations of {0..n-1}, n <= 20.
class PermutationRanker {
 public:
  explicit PermutationRanker(int n);
  int n() const { return n_; }
  std::uint64_t size() const { return factorial(n_); }
  std::uint64_t rank(const std::uint8_t* perm) const;
  void unrank(std::uint64_t r, std::uint8_t* perm) const;
  // One parity class only (size n!/2, n >= 2): the Lehmer digit of weight 1 is implied
  // by the parity. rank_half(p) == rank(p) / 2.
  std::uint64_t half_size() const { return factorial(n_) / 2; }
  std::uint64_t rank_half(const std::uint8_t* perm) const { return rank(perm) >> 1; }
  void unrank_half(std::uint64_t r, int parity, std::uint8_t* perm) const;
  static int parity(const std::uint8_t* perm, int n);

 private:
  int n_;
  std::array<std::uint64_t, 21> weight_{};  // weight_[i] = (n-1-i)!
};

// Ranking of arrangements of a multiset over n <= 64 cells: label L occurs counts[L] times.
// Size = n! / prod(counts[L]!). k distinct pieces plus one filler label is the
// k-permutation case; all counts 1 is the permutation case.
// rank = mixed radix over labels 0..k-2 of the colex rank of label L's cells among the
// cells not taken by labels < L.
class MultisetRanker {
 public:
  explicit MultisetRanker(std::vector<int> counts);  // throws InputError if size overflows 64 bits
  int cells() const { return n_; }
  int labels() const { return static_cast<int>(counts_.size()); }
  const std::vector<int>& counts() const { return counts_; }
  std::uint64_t size() const { return size_; }
  std::uint64_t rank(const std::uint8_t* cells) const;
  void unrank(std::uint64_t r, std::uint8_t* cells) const;
  // The same on per-label bitboards (masks[L] = cells holding L).
  std::uint64_t rank_masks(const std::uint64_t* masks) const;
  void unrank_masks(std::uint64_t r, std::uint64_t* masks) const;
  // For incremental re-ranking after a change that only touches labels >= k: unrank also
  // reports free[k] (cells not taken by labels < k) and rest[k] (the part of r encoding
  // labels >= k); the new rank is r - rest[k] + rank_masks_from(new_masks, k, free[k]).
  void unrank_masks(std::uint64_t r, std::uint64_t* masks, std::uint64_t* free, std::uint64_t* rest) const;
  std::uint64_t rank_masks_from(const std::uint64_t* masks, int k, std::uint64_t free_k) const;

 private:
  int n_ = 0;
  std::vector<int> counts_;
  std::vector<std::uint64_t> radix_;   // radix_[L] = C(cells left for L, counts[L])
  std::vector<std::uint64_t> weight_;  // weight_[L] = prod_{M > L} radix_[M]
  std::uint64_t size_ = 1;
};

}  // namespace tansaku
