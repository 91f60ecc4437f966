// Algebraic explore: elimination over machine words, the quiet patterns seeding a byte table
// indexed by pivot coordinates, and the L1 distance transform over the cube.
#include "flip/space.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "tansaku/core/bits.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"

namespace tansaku::flip {

std::vector<std::uint64_t> word_patterns(const Board& board) {
  if (board.cells() > 63) throw InputError(fmt::format("{} cells: whole-space work is limited to 63 cells", board.cells()));
  std::vector<std::uint64_t> pat(static_cast<std::size_t>(board.cells()), 0);
  for (std::int64_t p = 0; p < board.cells(); ++p)
    board.for_each_toggled(p, [&](std::int64_t q) { pat[static_cast<std::size_t>(p)] |= std::uint64_t{1} << q; });
  return pat;
}

SpaceReport explore_algebra(const Board& board, std::uint64_t source, std::size_t keep, const search::Limits& lim) {
  const std::uint64_t memory = lim.memory;
  Deadline* const deadline = lim.deadline;
  const auto pat = word_patterns(board);
  const int n = static_cast<int>(pat.size());
  // Elimination: pivot presses (independent patterns, in cell order) and one quiet pattern
  // per dependent press.
  struct Row {
    std::uint64_t v, combo;
  };
  std::vector<Row> basis;
  int lead[64];
  std::fill(std::begin(lead), std::end(lead), -1);
  std::uint64_t pmask = 0;
  std::vector<std::uint64_t> quiet;
  for (int p = 0; p < n; ++p) {
    std::uint64_t v = pat[static_cast<std::size_t>(p)], combo = std::uint64_t{1} << p;
    while (v) {
      const int b = 63 - std::countl_zero(v);
      if (lead[b] < 0) break;
      v ^= basis[static_cast<std::size_t>(lead[b])].v;
      combo ^= basis[static_cast<std::size_t>(lead[b])].combo;
    }
    if (v == 0) {
      quiet.push_back(combo);
    } else {
      lead[63 - std::countl_zero(v)] = static_cast<int>(basis.size());
      basis.push_back({v, combo});
      pmask |= std::uint64_t{1} << p;
    }
  }
  SpaceReport rep;
  rep.rank = static_cast<int>(basis.size());
  rep.nullity = static_cast<int>(quiet.size());
  const int r = rep.rank, k = rep.nullity;
  // Pivot coordinates no quiet pattern touches (Z) just add their count to the distance:
  // distance(w) = |w_Z| + g(w_S), S = the pivots some quiet pattern uses. So the transform
  // runs over the 2^|S| cube only and the histogram is g's convolved with binomials.
  std::uint64_t smask = 0;
  for (auto q : quiet) smask |= q & pmask;
  const int sdim = std::popcount(smask), zdim = r - sdim;
  if (sdim > kMaxCoupled || k > kMaxCoupled)
    throw InputError(fmt::format(
        "explore: {} pivots coupled by {} quiet patterns need a table of 2^{} distances (limit 2^{})", sdim, k, sdim,
        kMaxCoupled));
  const std::uint64_t N = std::uint64_t{1} << sdim;
  rep.table_bytes = N;
  require_memory(N, memory, fmt::format("the distance table of 2^{} classes", sdim));
  constexpr std::uint8_t kInf = 200;
  std::vector<std::uint8_t> D(N, kInf);
  // Seed: every quiet pattern (Gray code over the basis) at its coordinates in S, costing
  // its presses outside the pivots.
  std::uint64_t kq = 0;
  for (std::uint64_t g = 0;; ++g) {
    const auto idx = bits::extract(kq, smask);
    const auto cost = static_cast<std::uint8_t>(std::popcount(kq & ~pmask));
    if (cost < D[idx]) D[idx] = cost;
    if (g + 1 == (std::uint64_t{1} << k)) break;
    kq ^= quiet[static_cast<std::size_t>(std::countr_zero(g + 1))];
    if (deadline && (g & 0xFFFFF) == 0) deadline->check();
  }
  rep.nodes = (std::uint64_t{1} << k);
  // L1 distance transform, one cube dimension at a time (the low ones block by block, in cache).
  auto relax = [](std::uint8_t* d, std::uint64_t from, std::uint64_t to, std::uint64_t h) {
    for (std::uint64_t base = from; base < to; base += 2 * h)
      for (std::uint64_t j = base; j < base + h; ++j) {
        const std::uint8_t a = d[j], b = d[j + h];
        d[j] = std::min<std::uint8_t>(a, static_cast<std::uint8_t>(b + 1));
        d[j + h] = std::min<std::uint8_t>(b, static_cast<std::uint8_t>(a + 1));
      }
  };
  const int low = std::min(sdim, 16);
  const std::uint64_t block = std::uint64_t{1} << low;
  for (std::uint64_t b = 0; b < N; b += block) {
    if (deadline && (b & ((std::uint64_t{1} << 24) - 1)) == 0) deadline->check();
    for (int i = 0; i < low; ++i) relax(D.data(), b, b + block, std::uint64_t{1} << i);
  }
  for (int i = low; i < sdim; ++i) {
    if (deadline) deadline->check();
    relax(D.data(), 0, N, std::uint64_t{1} << i);
  }
  rep.nodes += N * static_cast<std::uint64_t>(sdim);
  std::vector<std::uint64_t> g_hist(static_cast<std::size_t>(n) + 1, 0);
  for (std::uint64_t w = 0; w < N; ++w) ++g_hist[D[w]];
  std::vector<std::uint64_t> binom(static_cast<std::size_t>(zdim) + 1, 1);
  for (int i = 1; i <= zdim; ++i)
    binom[static_cast<std::size_t>(i)] = static_cast<std::uint64_t>(
        static_cast<unsigned __int128>(binom[static_cast<std::size_t>(i - 1)]) * static_cast<unsigned>(zdim - i + 1) /
        static_cast<unsigned>(i));
  std::vector<std::uint64_t> hist(static_cast<std::size_t>(n) + 1, 0);
  for (std::size_t a = 0; a < g_hist.size(); ++a)
    if (g_hist[a])
      for (int z = 0; z <= zdim && a + static_cast<std::size_t>(z) < hist.size(); ++z)
        hist[a + static_cast<std::size_t>(z)] += g_hist[a] * binom[static_cast<std::size_t>(z)];
  while (hist.size() > 1 && hist.back() == 0) hist.pop_back();
  rep.histogram = hist;
  rep.states = std::uint64_t{1} << r;
  rep.depth = static_cast<int>(hist.size()) - 1;
  rep.farthest_count = hist.back();
  // The farthest: every Z pivot pressed, S pivots at a maximum of g. The configuration of
  // pivot presses w is the source plus their patterns.
  const int gmax = rep.depth - zdim;
  std::uint64_t base_cfg = source;
  for (int p = 0; p < n; ++p)
    if (((pmask & ~smask) >> p) & 1) base_cfg ^= pat[static_cast<std::size_t>(p)];
  std::vector<std::uint64_t> spat;
  for (int p = 0; p < n; ++p)
    if ((smask >> p) & 1) spat.push_back(pat[static_cast<std::size_t>(p)]);
  std::vector<std::uint64_t> far;
  for (std::uint64_t w = 0; w < N; ++w) {
    if (D[w] != gmax) continue;
    std::uint64_t cfg = base_cfg;
    for (std::uint64_t x = w; x; x &= x - 1) cfg ^= spat[static_cast<std::size_t>(std::countr_zero(x))];
    far.push_back(cfg);
    if (far.size() >= 2 * std::max<std::size_t>(keep, 1) + (1u << 16)) {  // keep the lowest only
      std::sort(far.begin(), far.end());
      far.resize(keep);
    }
  }
  std::sort(far.begin(), far.end());
  if (far.size() > keep) far.resize(keep);
  rep.farthest = std::move(far);
  return rep;
}

}  // namespace tansaku::flip
