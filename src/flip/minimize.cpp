// Coset minimum by Walsh-Hadamard transform (exact), or by windowed local search.
#include "flip/minimize.h"

#include <algorithm>
#include <numeric>
#include <random>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"

namespace tansaku::flip {

void walsh_hadamard(std::int32_t* a, int k, const search::Limits& lim) {
  Deadline* const deadline = lim.deadline;
  const std::size_t N = std::size_t{1} << k;
  const int B = std::min(k, 14);  // passes that stay inside one 64 KiB block
  const std::size_t block = std::size_t{1} << B;
  for (std::size_t base = 0; base < N; base += block)
    for (std::size_t h = 1; h < block; h <<= 1)
      for (std::size_t i = base; i < base + block; i += 2 * h)
        for (std::size_t j = i; j < i + h; ++j) {
          const std::int32_t x = a[j], y = a[j + h];
          a[j] = x + y;
          a[j + h] = x - y;
        }
  // Higher levels two at a time (radix 4): half the passes over memory.
  std::size_t h = block;
  for (; 2 * h < N; h <<= 2) {
    if (deadline) deadline->check();
    for (std::size_t i = 0; i < N; i += 4 * h)
      for (std::size_t j = i; j < i + h; ++j) {
        const std::int32_t a0 = a[j], a1 = a[j + h], a2 = a[j + 2 * h], a3 = a[j + 3 * h];
        const std::int32_t b0 = a0 + a1, b1 = a0 - a1, b2 = a2 + a3, b3 = a2 - a3;
        a[j] = b0 + b2;
        a[j + h] = b1 + b3;
        a[j + 2 * h] = b0 - b2;
        a[j + 3 * h] = b1 - b3;
      }
  }
  if (h < N) {
    if (deadline) deadline->check();
    for (std::size_t j = 0; j < h; ++j) {
      const std::int32_t x = a[j], y = a[j + h];
      a[j] = x + y;
      a[j + h] = x - y;
    }
  }
}

namespace {

// F^ over the subspace spanned by basis[idx[0..w)], centred on x: entry c holds
// n - 2 * weight(x + sum of the chosen vectors).
std::vector<std::int32_t> transform(const Bits& x, const std::vector<Bits>& basis, const std::vector<std::size_t>& idx,
                                    const search::Limits& lim) {
  const int w = static_cast<int>(idx.size());
  const std::size_t n = x.size();
  std::vector<std::uint32_t> sig(n, 0);
  for (int i = 0; i < w; ++i) {
    const Bits& v = basis[idx[static_cast<std::size_t>(i)]];
    for (std::size_t word = 0; word < v.words(); ++word)
      for (std::uint64_t b = v.word(word); b; b &= b - 1)
        sig[word * 64 + static_cast<std::size_t>(std::countr_zero(b))] |= std::uint32_t{1} << i;
  }
  std::vector<std::int32_t> F(std::size_t{1} << w, 0);
  for (std::size_t j = 0; j < n; ++j) F[sig[j]] += x.get(j) ? -1 : 1;
  walsh_hadamard(F.data(), w, lim);
  return F;
}

Bits combine(const Bits& x, const std::vector<Bits>& basis, const std::vector<std::size_t>& idx, std::uint64_t c) {
  Bits y = x;
  for (std::size_t i = 0; i < idx.size(); ++i)
    if ((c >> i) & 1) y ^= basis[idx[i]];
  return y;
}

}  // namespace

CosetMinimum minimize(const Bits& x0, const std::vector<Bits>& kernel, const MinimizeOptions& opt,
                      const search::Limits& lim) {
  CosetMinimum res;
  const std::size_t n = x0.size();
  const int k = static_cast<int>(kernel.size());
  if (k == 0) {
    res.exact = true;
    res.best = x0;
    res.weight = static_cast<std::int64_t>(x0.count());
    res.examined = 1;
    res.count = 1;
    res.weights.assign(static_cast<std::size_t>(res.weight) + 1, 0);
    res.weights.back() = 1;
    if (opt.want_all) res.all.push_back(x0);
    res.method = "unique solution (null space {0})";
    return res;
  }
  if (k <= opt.exact_limit) {
    require_memory((std::uint64_t{4} << k) + n * 4, lim.memory, fmt::format("the 2^{} coset weights", k));
    std::vector<std::size_t> idx(static_cast<std::size_t>(k));
    std::iota(idx.begin(), idx.end(), std::size_t{0});
    auto F = transform(x0, kernel, idx, lim);
    const std::int32_t top = *std::max_element(F.begin(), F.end());
    res.exact = true;
    res.examined = std::uint64_t{1} << k;
    res.weight = (static_cast<std::int64_t>(n) - top) / 2;
    res.weights.assign(n + 1, 0);
    for (std::size_t c = 0; c < F.size(); ++c) {
      ++res.weights[static_cast<std::size_t>((static_cast<std::int64_t>(n) - F[c]) / 2)];
      if (F[c] == top) ++res.count;
    }
    while (!res.weights.empty() && res.weights.back() == 0) res.weights.pop_back();
    if (opt.want_all && res.count * std::max<std::uint64_t>(n, 1) > opt.max_all_bits)
      throw LimitError(fmt::format("{} minimal press sets of {} cells are too many to list (try --count)", res.count, n));
    // With few minima, expand them all and report them in lexicographic order of the cells
    // pressed (the first is the answer); otherwise the first in signature order.
    const bool expand = opt.want_all || res.count <= kExpandMinima;
    std::vector<std::pair<std::vector<std::int64_t>, Bits>> found;
    for (std::size_t c = 0; c < F.size(); ++c) {
      if (F[c] != top) continue;
      Bits y = combine(x0, kernel, idx, c);
      auto cells = y.ones();
      found.emplace_back(std::move(cells), std::move(y));
      if (!expand) break;
    }
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    res.best = found.front().second;
    if (opt.want_all)
      for (auto& f : found) res.all.push_back(std::move(f.second));
    res.method = fmt::format("minimum over all 2^{} members of the solution coset (Walsh-Hadamard transform)", k);
    return res;
  }
  if (opt.want_all)
    throw LimitError(fmt::format("nullity {}: an exact minimum needs all 2^{} coset members (limit 2^{})", k, k,
                                 opt.exact_limit));
  // Local search: the exact minimum over windows of up to 20 basis vectors at a time,
  // centred on the current best, over reshuffled partitions of the basis until five passes in
  // a row bring nothing, within a fixed work budget (deterministic: seeded shuffles).
  const int w = std::min(k, 20);
  const std::uint64_t per_window = n + (static_cast<std::uint64_t>(w) << w);
  const std::uint64_t max_windows = std::max<std::uint64_t>(1, kLocalSearchWork / per_window);
  Bits x = x0;
  std::int64_t weight = static_cast<std::int64_t>(x.count());
  std::vector<std::size_t> order(static_cast<std::size_t>(k));
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::mt19937_64 rng(12345);
  std::uint64_t windows = 0;
  int passes = 0, idle = 0;
  while (idle < 5 && windows < max_windows) {
    if (passes++) std::shuffle(order.begin(), order.end(), rng);
    bool improved = false;
    for (std::size_t s = 0; s < order.size() && windows < max_windows; s += static_cast<std::size_t>(w), ++windows) {
      std::vector<std::size_t> idx(order.begin() + static_cast<std::ptrdiff_t>(s),
                                   order.begin() + static_cast<std::ptrdiff_t>(std::min(order.size(), s + w)));
      auto F = transform(x, kernel, idx, lim);
      res.examined += F.size();
      const auto it = std::max_element(F.begin(), F.end());
      const std::int64_t wgt = (static_cast<std::int64_t>(n) - *it) / 2;
      if (wgt < weight) {
        x = combine(x, kernel, idx, static_cast<std::uint64_t>(it - F.begin()));
        weight = wgt;
        improved = true;
      }
    }
    idle = improved ? 0 : idle + 1;
  }
  res.method = fmt::format(
      "nullity {} > {}: local search over the solution coset ({} windows of {} quiet patterns, each minimised "
      "exactly, in {} passes); not proved minimal",
      k, opt.exact_limit, windows, w, passes);
  res.exact = false;
  res.best = std::move(x);
  res.weight = weight;
  return res;
}

}  // namespace tansaku::flip
