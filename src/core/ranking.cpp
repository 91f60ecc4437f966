#include "tansaku/core/ranking.h"

#include <limits>

#include "tansaku/core/error.h"

namespace tansaku {
namespace {

struct Binomials {
  std::uint64_t c[65][65]{};
  Binomials() {
    for (int n = 0; n <= 64; ++n) {
      c[n][0] = 1;
      for (int k = 1; k <= n; ++k) {
        std::uint64_t a = c[n - 1][k - 1], b = k <= n - 1 ? c[n - 1][k] : 0;
        c[n][k] = (a > std::numeric_limits<std::uint64_t>::max() - b) ? std::numeric_limits<std::uint64_t>::max() : a + b;
      }
    }
  }
};
// Namespace-scope tables: built before main, no initialisation guard on the hot path.
const Binomials g_binomials;
inline const Binomials& binomials() { return g_binomials; }

// colex ranks of all 16-bit masks, and per weight the masks in rank order.
struct SmallCombinations {
  std::vector<std::uint16_t> rank;                 // rank[mask]
  std::array<std::vector<std::uint16_t>, 17> masks;  // masks[w][r]
  SmallCombinations() : rank(1 << 16) {
    std::array<std::uint16_t, 17> next{};
    for (std::uint32_t m = 0; m < (1u << 16); ++m) {  // numeric order == colex order per weight
      int w = std::popcount(m);
      rank[m] = next[w]++;
      masks[w].push_back(static_cast<std::uint16_t>(m));
    }
  }
};
const SmallCombinations g_small;
inline const SmallCombinations& small() { return g_small; }

}  // namespace

std::uint64_t binomial(int n, int k) {
  if (n < 0 || k < 0 || k > n || n > 64) return 0;
  return binomials().c[n][k];
}

std::uint64_t factorial(int n) {
  std::uint64_t f = 1;
  for (int i = 2; i <= n; ++i) f *= static_cast<std::uint64_t>(i);
  return f;
}

std::uint64_t combination_rank(std::uint64_t mask) {
  if (mask < (1u << 16)) return small().rank[mask];
  std::uint64_t r = 0;
  int j = 1;
  const auto& c = binomials().c;
  for (; mask; mask &= mask - 1) r += c[bits::lowest(mask)][j++];
  return r;
}

std::uint64_t combination_unrank(std::uint64_t r, int k) {
  if (k <= 16 && r < binomial(16, k)) return small().masks[k][r];
  const auto& c = binomials().c;
  std::uint64_t mask = 0;
  int p = 63;
  for (int j = k; j >= 1; --j) {
    while (c[p][j] > r) --p;  // largest p with C(p, j) <= r
    r -= c[p][j];
    mask |= std::uint64_t{1} << p;
    --p;
  }
  return mask;
}

PermutationRanker::PermutationRanker(int n) : n_(n) {
  if (n < 1 || n > 20) throw InputError("permutation ranking supports 1..20 elements");
  for (int i = 0; i < n; ++i) weight_[i] = factorial(n - 1 - i);
}

std::uint64_t PermutationRanker::rank(const std::uint8_t* perm) const {
  std::uint64_t used = 0, r = 0;
  for (int i = 0; i < n_ - 1; ++i) {
    std::uint64_t bit = std::uint64_t{1} << perm[i];
    r += static_cast<std::uint64_t>(perm[i] - bits::popcount(used & (bit - 1))) * weight_[i];
    used |= bit;
  }
  return r;
}

void PermutationRanker::unrank(std::uint64_t r, std::uint8_t* perm) const {
  std::uint64_t free = (n_ == 64) ? ~std::uint64_t{0} : (std::uint64_t{1} << n_) - 1;
  for (int i = 0; i < n_; ++i) {
    std::uint64_t d = r / weight_[i];
    r -= d * weight_[i];
    int e = bits::select(free, static_cast<int>(d));
    perm[i] = static_cast<std::uint8_t>(e);
    free &= ~(std::uint64_t{1} << e);
  }
}

void PermutationRanker::unrank_half(std::uint64_t r, int parity_wanted, std::uint8_t* perm) const {
  unrank(r << 1, perm);
  if (parity(perm, n_) != parity_wanted) std::swap(perm[n_ - 2], perm[n_ - 1]);
}

int PermutationRanker::parity(const std::uint8_t* perm, int n) {
  std::uint64_t used = 0;
  int s = 0;
  for (int i = 0; i < n; ++i) {
    std::uint64_t bit = std::uint64_t{1} << perm[i];
    s += perm[i] - bits::popcount(used & (bit - 1));
    used |= bit;
  }
  return s & 1;
}

MultisetRanker::MultisetRanker(std::vector<int> counts) : counts_(std::move(counts)) {
  for (int c : counts_) {
    if (c < 0) throw InputError("negative label count");
    n_ += c;
  }
  if (n_ > 64) throw InputError("multiset ranking supports at most 64 cells");
  int k = labels();
  radix_.assign(k, 1);
  weight_.assign(k, 1);
  int left = n_;
  unsigned __int128 size = 1;
  for (int L = 0; L < k; ++L) {
    radix_[L] = binomial(left, counts_[L]);
    size *= radix_[L];
    if (size > std::numeric_limits<std::uint64_t>::max()) throw InputError("state space too large to rank in 64 bits");
    left -= counts_[L];
  }
  size_ = static_cast<std::uint64_t>(size);
  for (int L = k - 2; L >= 0; --L) weight_[L] = weight_[L + 1] * radix_[L + 1];
}

std::uint64_t MultisetRanker::rank_masks(const std::uint64_t* masks) const {
  std::uint64_t remaining = (n_ == 64) ? ~std::uint64_t{0} : (std::uint64_t{1} << n_) - 1;
  std::uint64_t r = 0;
  const int k = labels();
  for (int L = 0; L + 1 < k; ++L) {
    r += combination_rank(bits::extract(masks[L], remaining)) * weight_[L];
    remaining &= ~masks[L];
  }
  return r;
}

void MultisetRanker::unrank_masks(std::uint64_t r, std::uint64_t* masks) const {
  std::uint64_t remaining = (n_ == 64) ? ~std::uint64_t{0} : (std::uint64_t{1} << n_) - 1;
  const int k = labels();
  const bool narrow = size_ <= 0xFFFFFFFFull;  // 32-bit division is several times cheaper
  for (int L = 0; L + 1 < k; ++L) {
    std::uint64_t q = narrow ? static_cast<std::uint32_t>(r) / static_cast<std::uint32_t>(weight_[L]) : r / weight_[L];
    r -= q * weight_[L];
    masks[L] = bits::deposit(combination_unrank(q, counts_[L]), remaining);
    remaining &= ~masks[L];
  }
  if (k > 0) masks[k - 1] = remaining;
}

void MultisetRanker::unrank_masks(std::uint64_t r, std::uint64_t* masks, std::uint64_t* free,
                                  std::uint64_t* rest) const {
  std::uint64_t remaining = (n_ == 64) ? ~std::uint64_t{0} : (std::uint64_t{1} << n_) - 1;
  const int k = labels();
  const bool narrow = size_ <= 0xFFFFFFFFull;
  for (int L = 0; L + 1 < k; ++L) {
    free[L] = remaining;
    rest[L] = r;
    std::uint64_t q = narrow ? static_cast<std::uint32_t>(r) / static_cast<std::uint32_t>(weight_[L]) : r / weight_[L];
    r -= q * weight_[L];
    masks[L] = bits::deposit(combination_unrank(q, counts_[L]), remaining);
    remaining &= ~masks[L];
  }
  if (k > 0) masks[k - 1] = free[k - 1] = remaining, rest[k - 1] = 0;
}

std::uint64_t MultisetRanker::rank_masks_from(const std::uint64_t* masks, int k, std::uint64_t remaining) const {
  std::uint64_t r = 0;
  const int n = labels();
  for (int L = k; L + 1 < n; ++L) {
    r += combination_rank(bits::extract(masks[L], remaining)) * weight_[L];
    remaining &= ~masks[L];
  }
  return r;
}

std::uint64_t MultisetRanker::rank(const std::uint8_t* cells) const {
  std::uint64_t masks[64] = {};
  for (int i = 0; i < n_; ++i) masks[cells[i]] |= std::uint64_t{1} << i;
  return rank_masks(masks);
}

void MultisetRanker::unrank(std::uint64_t r, std::uint8_t* cells) const {
  std::uint64_t masks[64];
  unrank_masks(r, masks);
  for (int L = 0; L < labels(); ++L)
    for (std::uint64_t m = masks[L]; m; m &= m - 1) cells[bits::lowest(m)] = static_cast<std::uint8_t>(L);
}

}  // namespace tansaku
