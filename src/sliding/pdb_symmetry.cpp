// Tables of groups that are images of each other under a symmetry of the grid. Moves are
// preserved by the symmetry, and so is every tile's Manhattan distance, so the table of the
// image group is the group's table read through the symmetry: no search, one pass over the
// entries. It holds when the symmetry also maps the build's start (the group home, the
// blank in the region of free cells holding its goal cell) onto the image's start: always
// when those free cells are connected (the 7-tile groups B and C of the 5x5 7-7-7-3).
#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "sliding/pdb.h"
#include "tansaku/core/error.h"

namespace tansaku::sliding::pdb {
namespace {

// The cells connected to `start` through cells not in `taken`.
std::vector<bool> region(const Geometry& geo, int start, const std::vector<std::uint8_t>& taken) {
  std::vector<bool> in(geo.n, false), blocked(geo.n, false);
  for (auto c : taken) blocked[c] = true;
  std::vector<int> stack{start};
  in[start] = true;
  while (!stack.empty()) {
    const int c = stack.back();
    stack.pop_back();
    for (int nb : geo.adj[c])
      if (!in[nb] && !blocked[nb]) in[nb] = true, stack.push_back(nb);
  }
  return in;
}

}  // namespace

std::optional<std::vector<std::uint8_t>> image_symmetry(const TableInfo& from, const TableInfo& to) {
  if (from.rows != to.rows || from.cols != to.cols || from.blank != to.blank || from.k() != to.k() || from.reduced ||
      to.reduced)
    return std::nullopt;
  const Geometry geo(from.rows, from.cols);
  const auto start_from = region(geo, from.blank, from.cells), start_to = region(geo, to.blank, to.cells);
  for (const auto& s : grid_symmetries(from.rows, from.cols)) {
    std::vector<std::uint8_t> image;
    for (auto c : from.cells) image.push_back(s[c]);
    std::sort(image.begin(), image.end());
    if (image != to.cells) continue;
    bool same = true;
    for (int c = 0; c < geo.n && same; ++c) same = start_from[c] == start_to[s[c]];
    if (same) return s;
  }
  return std::nullopt;
}

HugeArray<std::uint8_t> fill_entries(std::uint64_t entries, const search::Limits& lim, const std::string& doing,
                                     const std::function<void(std::uint64_t, std::uint64_t, std::uint8_t*)>& fill) {
  auto data = make_huge<std::uint8_t>((entries + 1) / 2);  // zeroed
  const std::uint64_t chunk = std::uint64_t{1} << 20;      // even: no byte is shared
  const std::uint64_t chunks = (entries + chunk - 1) / chunk;
  std::uint8_t* out = data.get();
  tbb::task_arena arena(static_cast<int>(std::max(1u, lim.threads)));
  for (std::uint64_t b = 0; b < chunks; b += 64) {
    const std::uint64_t e = std::min(chunks, b + 64);
    arena.execute([&] {
      tbb::parallel_for(tbb::blocked_range<std::uint64_t>(b, e, 1), [&](const tbb::blocked_range<std::uint64_t>& r) {
        for (std::uint64_t c = r.begin(); c != r.end(); ++c) fill(c * chunk, std::min(entries, (c + 1) * chunk), out);
      });
    });
    if (lim.deadline && lim.deadline->expired()) throw LimitError("time limit reached (--timeout)");
    if (lim.progress)
      lim.progress->update("{} ({:.1f}%)", doing, 100.0 * static_cast<double>(e) / static_cast<double>(chunks));
  }
  return data;
}

std::shared_ptr<Table> derive_table(const Table& src, const TableInfo& to, const std::vector<std::uint8_t>& sym,
                                    const search::Limits& lim) {
  const TableInfo& from = src.info();
  const int n = from.n(), k = from.k();
  std::vector<std::uint8_t> inv(n);
  for (int c = 0; c < n; ++c) inv[sym[c]] = static_cast<std::uint8_t>(c);
  // Tile i of `to` is the image of tile j = perm[i] of `from`.
  std::vector<int> perm(k, -1);
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < k; ++j)
      if (sym[from.cells[j]] == to.cells[i]) perm[i] = j;
  if (std::count(perm.begin(), perm.end(), -1) || to.rows != from.rows || to.cols != from.cols || from.reduced ||
      to.reduced)
    throw std::logic_error("derive_table: not an image of the table's group");
  const KPermRanker rt(n, k), &rs = src.ranker();
  auto data = fill_entries(rt.size(), lim, fmt::format("pdb {} tiles: mirroring {} entries", k, rt.size()),
                           [&](std::uint64_t lo, std::uint64_t hi, std::uint8_t* out) {
                             std::uint8_t d[KPermRanker::kMaxPieces], pos[KPermRanker::kMaxPieces],
                                 mine[KPermRanker::kMaxPieces];
                             rt.digits(lo, d);
                             for (std::uint64_t r = lo; r < hi; ++r) {
                               rt.positions(d, pos);
                               for (int i = 0; i < k; ++i) mine[perm[i]] = inv[pos[i]];
                               out[r >> 1] |= static_cast<std::uint8_t>(src.excess(rs.rank(mine)) << ((r & 1) * 4));
                               rt.next_digits(d);
                             }
                           });
  auto t = std::make_shared<Table>(to, std::move(data));
  t->origin = "memory";
  t->max_distance = src.max_distance;
  return t;
}

}  // namespace tansaku::sliding::pdb
