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

SpaceReport explore_algebra(const Board& board, std::uint64_t source, std::size_t keep, std::uint64_t memory,
                            Deadline* deadline) {
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
  if (r > 40 || k > 40) throw InputError(fmt::format("explore: rank {} / nullity {} is beyond whole-space enumeration", r, k));
  const std::uint64_t N = std::uint64_t{1} << r;
  rep.table_bytes = N;
  require_memory(N, memory, fmt::format("the table of 2^{} reachable configurations", r));
  constexpr std::uint8_t kInf = 200;
  std::vector<std::uint8_t> D(N, kInf);
  // Seed: every quiet pattern (Gray code over the basis) at its pivot coordinates.
  std::uint64_t kq = 0;
  for (std::uint64_t g = 0;; ++g) {
    const auto idx = bits::extract(kq, pmask);
    const auto cost = static_cast<std::uint8_t>(std::popcount(kq & ~pmask));
    if (cost < D[idx]) D[idx] = cost;
    if (g + 1 == (std::uint64_t{1} << k)) break;
    kq ^= quiet[static_cast<std::size_t>(std::countr_zero(g + 1))];
    if (deadline && (g & 0xFFFFF) == 0) deadline->check();
  }
  rep.nodes = (std::uint64_t{1} << k);
  // L1 distance transform, one cube dimension at a time.
  for (int i = 0; i < r; ++i) {
    if (deadline) deadline->check();
    const std::uint64_t h = std::uint64_t{1} << i;
    std::uint8_t* d = D.data();
    for (std::uint64_t base = 0; base < N; base += 2 * h)
      for (std::uint64_t j = base; j < base + h; ++j) {
        const std::uint8_t a = d[j], b = d[j + h];
        d[j] = std::min<std::uint8_t>(a, static_cast<std::uint8_t>(b + 1));
        d[j + h] = std::min<std::uint8_t>(b, static_cast<std::uint8_t>(a + 1));
      }
  }
  rep.nodes += N * static_cast<std::uint64_t>(r);
  std::vector<std::uint64_t> hist(static_cast<std::size_t>(n) + 1, 0);
  for (std::uint64_t w = 0; w < N; ++w) ++hist[D[w]];
  while (hist.size() > 1 && hist.back() == 0) hist.pop_back();
  rep.histogram = hist;
  rep.states = N;
  rep.depth = static_cast<int>(hist.size()) - 1;
  rep.farthest_count = hist.back();
  std::vector<std::uint64_t> far;
  far.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(rep.farthest_count, 1u << 20)));
  // The configuration of pivot coordinates w: source + the patterns of the pivot presses in w.
  std::vector<std::uint64_t> ppat;
  for (int p = 0; p < n; ++p)
    if ((pmask >> p) & 1) ppat.push_back(pat[static_cast<std::size_t>(p)]);
  for (std::uint64_t w = 0; w < N; ++w) {
    if (D[w] != rep.depth) continue;
    std::uint64_t cfg = source;
    for (std::uint64_t x = w; x; x &= x - 1) cfg ^= ppat[static_cast<std::size_t>(std::countr_zero(x))];
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
