// The rank/unrank arithmetic: a table of binomials, combination ranks beyond the fast path,
// and the permutation and multiset rankers.
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

// The k-subsets of 16 cells in colex order, per k (numeric order is colex order).
struct SmallCombinations {
  std::vector<std::uint16_t> flat;
  std::array<const std::uint16_t*, 17> by_weight{};
  SmallCombinations() : flat(1 << 16) {
    std::array<std::uint32_t, 18> start{};
    for (std::uint32_t m = 0; m < (1u << 16); ++m) ++start[std::popcount(m) + 1];
    for (int w = 1; w <= 17; ++w) start[w] += start[w - 1];
    auto next = start;
    for (std::uint32_t m = 0; m < (1u << 16); ++m) flat[next[std::popcount(m)]++] = static_cast<std::uint16_t>(m);
    for (int w = 0; w <= 16; ++w) by_weight[w] = flat.data() + start[w];
  }
};
const SmallCombinations g_small;

}  // namespace

namespace detail {
const std::uint16_t* const kColexMasks[17] = {
    g_small.by_weight[0],  g_small.by_weight[1],  g_small.by_weight[2],  g_small.by_weight[3],
    g_small.by_weight[4],  g_small.by_weight[5],  g_small.by_weight[6],  g_small.by_weight[7],
    g_small.by_weight[8],  g_small.by_weight[9],  g_small.by_weight[10], g_small.by_weight[11],
    g_small.by_weight[12], g_small.by_weight[13], g_small.by_weight[14], g_small.by_weight[15],
    g_small.by_weight[16]};
}  // namespace detail

std::uint64_t binomial(int n, int k) {
  if (n < 0 || k < 0 || k > n || n > 64) return 0;
  return binomials().c[n][k];
}

std::uint64_t factorial(int n) {
  std::uint64_t f = 1;
  for (int i = 2; i <= n; ++i) f *= static_cast<std::uint64_t>(i);
  return f;
}

std::uint64_t detail::combination_rank_wide(std::uint64_t mask) {
  std::uint64_t r = 0;
  int j = 1;
  const auto& c = binomials().c;
  for (; mask; mask &= mask - 1) r += c[bits::lowest(mask)][j++];
  return r;
}

std::uint64_t detail::combination_unrank_wide(std::uint64_t r, int k) {
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
  narrow_ = factorial(n) <= 0xFFFFFFFFull;
  if (narrow_)
    for (int i = 0; i < n; ++i) fast_[i] = FastDiv32(static_cast<std::uint32_t>(weight_[i]));
}

std::uint64_t PermutationRanker::rank(const std::uint8_t* p) const {
  std::uint64_t used = 0, r = 0;
  for (int i = 0; i < n_ - 1; ++i) {
    std::uint64_t bit = std::uint64_t{1} << p[i];
    r += static_cast<std::uint64_t>(p[i] - bits::popcount(used & (bit - 1))) * weight_[i];
    used |= bit;
  }
  return r;
}

void PermutationRanker::unrank(std::uint64_t r, std::uint8_t* p) const {
  std::uint64_t free = (n_ == 64) ? ~std::uint64_t{0} : (std::uint64_t{1} << n_) - 1;
  for (int i = 0; i < n_; ++i) {
    std::uint64_t d = narrow_ ? fast_[i].div(static_cast<std::uint32_t>(r)) : r / weight_[i];
    r -= d * weight_[i];
    int e = bits::select(free, static_cast<int>(d));
    p[i] = static_cast<std::uint8_t>(e);
    free &= ~(std::uint64_t{1} << e);
  }
}

void PermutationRanker::unrank_half(std::uint64_t r, int parity_wanted, std::uint8_t* p) const {
  unrank(r << 1, p);
  if (parity(p, n_) != parity_wanted) std::swap(p[n_ - 2], p[n_ - 1]);
}

int PermutationRanker::parity(const std::uint8_t* p, int n) {
  std::uint64_t used = 0;
  int s = 0;
  for (int i = 0; i < n; ++i) {
    std::uint64_t bit = std::uint64_t{1} << p[i];
    s += p[i] - bits::popcount(used & (bit - 1));
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
  narrow_ = size_ <= 0xFFFFFFFFull;
  if (narrow_)
    for (int L = 0; L < k; ++L) fast_.emplace_back(static_cast<std::uint32_t>(weight_[L]));
  all_ = (n_ == 64) ? ~std::uint64_t{0} : (std::uint64_t{1} << n_) - 1;
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
