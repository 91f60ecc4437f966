// Minimal perfect hashes (rank/unrank) for the state spaces the engine tables are indexed by:
// combinations, permutations (all, or one parity class: n!/2), k-permutations and
// permutations of a multiset (identical pieces). rank(unrank(i)) == i over [0, size()).
#pragma once
#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "tansaku/core/bits.h"
#include "tansaku/core/fast_div.h"

namespace tansaku {

// Binomial coefficients C(n, k) for n, k <= 64 (0 where k > n); saturates at UINT64_MAX.
std::uint64_t binomial(int n, int k);
// n! for n <= 20.
std::uint64_t factorial(int n);

namespace detail {
// Colex ranks of 16-bit masks split by byte, small enough to stay in L1: the low byte's
// bits contribute lo[low], the high byte's hi[popcount(low)][high].
struct ColexBytes {
  std::uint16_t lo[256]{};
  std::uint16_t hi[9][256]{};
  std::uint32_t choose16[17]{};  // C(16, k)
  constexpr ColexBytes() {
    std::uint32_t c[17][17]{};
    for (int n = 0; n <= 16; ++n) {
      c[n][0] = 1;
      for (int k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + (k <= n - 1 ? c[n - 1][k] : 0);
    }
    for (int k = 0; k <= 16; ++k) choose16[k] = c[16][k];
    for (int m = 0; m < 256; ++m) {
      int j = 0;
      std::uint32_t r = 0;
      for (int p = 0; p < 8; ++p)
        if (m >> p & 1) ++j, r += c[p][j];
      lo[m] = static_cast<std::uint16_t>(r);
      for (int a = 0; a <= 8; ++a) {
        int jj = a;
        std::uint32_t rr = 0;
        for (int p = 0; p < 8; ++p)
          if (m >> p & 1) ++jj, rr += c[8 + p][jj];
        hi[a][m] = static_cast<std::uint16_t>(rr);
      }
    }
  }
};
inline constexpr ColexBytes kColexBytes{};
std::uint64_t combination_rank_wide(std::uint64_t mask);
extern const std::uint16_t* const kColexMasks[17];  // [k][r]: the k-subsets of 16 in colex order
std::uint64_t combination_unrank_wide(std::uint64_t r, int k);
}  // namespace detail

// Rank of a k-subset of {0..63} given as a bitmask, in colexicographic order
// (which for a fixed size is the numeric order of the masks): sum of C(p_j, j+1).
inline std::uint64_t combination_rank(std::uint64_t mask) {
  if (mask < (1u << 16)) {
    const unsigned low = mask & 255u;
    return detail::kColexBytes.lo[low] + detail::kColexBytes.hi[std::popcount(low)][mask >> 8];
  }
  return detail::combination_rank_wide(mask);
}
// The subset of size k with colex rank r.
inline std::uint64_t combination_unrank(std::uint64_t r, int k) {
  if (k <= 16 && r < detail::kColexBytes.choose16[k]) return detail::kColexMasks[k][r];
  return detail::combination_unrank_wide(r, k);
}

// Lehmer-code ranking of permutations of {0..n-1}, n <= 20.
class PermutationRanker {
 public:
  explicit PermutationRanker(int n);
  int n() const { return n_; }
  std::uint64_t size() const { return factorial(n_); }
  std::uint64_t rank(const std::uint8_t* p) const;
  void unrank(std::uint64_t r, std::uint8_t* p) const;
  // One parity class only (size n!/2, n >= 2): the Lehmer digit of weight 1 is implied
  // by the parity. rank_half(p) == rank(p) / 2.
  std::uint64_t half_size() const { return factorial(n_) / 2; }
  std::uint64_t rank_half(const std::uint8_t* p) const { return rank(p) >> 1; }
  void unrank_half(std::uint64_t r, int parity, std::uint8_t* p) const;
  static int parity(const std::uint8_t* p, int n);

 private:
  int n_;
  std::array<std::uint64_t, 21> weight_{};  // weight_[i] = (n-1-i)!
  std::array<FastDiv32, 21> fast_{};        // the same, for ranks below 2^32 (n <= 12)
  bool narrow_ = false;
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
  [[gnu::always_inline]] std::uint64_t rank_masks(const std::uint64_t* masks) const {
    return rank_masks_from(masks, 0, all_);
  }
  [[gnu::always_inline]] void unrank_masks(std::uint64_t r, std::uint64_t* masks) const {
    std::uint64_t remaining = all_;
    const int k = labels();
    for (int L = 0; L + 1 < k; ++L) {
      const std::uint64_t q = narrow_ ? fast_[L].div(static_cast<std::uint32_t>(r)) : r / weight_[L];
      r -= q * weight_[L];
      masks[L] = bits::deposit(combination_unrank(q, counts_[L]), remaining);
      remaining &= ~masks[L];
    }
    if (k > 0) masks[k - 1] = remaining;
  }
  // For incremental re-ranking after a change that only touches labels >= k: unrank also
  // reports free[k] (cells not taken by labels < k) and rest[k] (the part of r encoding
  // labels >= k); the new rank is r - rest[k] + rank_masks_from(new_masks, k, free[k]).
  void unrank_masks(std::uint64_t r, std::uint64_t* masks, std::uint64_t* free, std::uint64_t* rest) const {
    std::uint64_t remaining = all_;
    const int k = labels();
    for (int L = 0; L + 1 < k; ++L) {
      free[L] = remaining;
      rest[L] = r;
      const std::uint64_t q = narrow_ ? fast_[L].div(static_cast<std::uint32_t>(r)) : r / weight_[L];
      r -= q * weight_[L];
      masks[L] = bits::deposit(combination_unrank(q, counts_[L]), remaining);
      remaining &= ~masks[L];
    }
    if (k > 0) masks[k - 1] = free[k - 1] = remaining, rest[k - 1] = 0;
  }
  [[gnu::always_inline]] std::uint64_t rank_masks_from(const std::uint64_t* masks, int k, std::uint64_t remaining) const {
    std::uint64_t r = 0;
    const int n = labels();
    for (int L = k; L + 1 < n; ++L) {
      r += combination_rank(bits::extract(masks[L], remaining)) * weight_[L];
      remaining &= ~masks[L];
    }
    return r;
  }

 private:
  int n_ = 0;
  std::vector<int> counts_;
  std::vector<std::uint64_t> radix_;   // radix_[L] = C(cells left for L, counts[L])
  std::vector<std::uint64_t> weight_;  // weight_[L] = prod_{M > L} radix_[M]
  std::vector<FastDiv32> fast_;        // the same, when size() <= 2^32
  bool narrow_ = false;
  std::uint64_t all_ = 0;              // mask of all n cells
  std::uint64_t size_ = 1;
};

}  // namespace tansaku
