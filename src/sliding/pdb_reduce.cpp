// Sliding tables reduced by the symmetries of the board that keep their group (pdb.h,
// Reduction): about half the memory for a group the transpose of a square board maps onto
// itself (the 24-puzzle's 3x3 block around the blank), an eighth with the blank in the centre.
// A reduced table is read from the full one (reduce_table): the full table is built as
// usual, then one pass writes the representatives' entries.
#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>

#include <fmt/format.h>

#include "sliding/pdb.h"
#include "tansaku/core/bits.h"
#include "tansaku/core/error.h"
#include "tansaku/pdb/orbits.h"

namespace tansaku::sliding::pdb {
namespace {

// Placements of the big part kept in a class table: at most this many, and at most 1/64 of
// the group's placements (so the class table stays small beside the cells).
constexpr std::uint64_t kMaxBigValues = std::uint64_t{1} << 20;

// The mixed-radix rank of tiles placed on cells not in `used` (KPermRanker's, from `used` on):
// pos[i] for i in [from, to) of a group of n cells; `used` gains their cells.
std::uint64_t rank_from(const std::uint8_t* pos, int from, int to, int n, std::uint64_t& used) {
  std::uint64_t r = 0;
  for (int i = from; i < to; ++i) {
    const std::uint64_t bit = std::uint64_t{1} << pos[i];
    r = r * static_cast<std::uint64_t>(n - i) + static_cast<std::uint64_t>(pos[i] - bits::popcount(used & (bit - 1)));
    used |= bit;
  }
  return r;
}

// Its inverse: pos[i] for i in [from, to) from rank r, on cells not in `used`.
void unrank_from(std::uint64_t r, std::uint8_t* pos, int from, int to, int n, std::uint64_t& used) {
  std::uint8_t d[KPermRanker::kMaxPieces];
  for (int i = to - 1; i >= from; --i) {
    const auto radix = static_cast<std::uint64_t>(n - i);
    d[i] = static_cast<std::uint8_t>(r % radix);
    r /= radix;
  }
  const std::uint64_t all = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
  for (int i = from; i < to; ++i) {
    pos[i] = static_cast<std::uint8_t>(bits::select(all & ~used, d[i]));
    used |= std::uint64_t{1} << pos[i];
  }
}

}  // namespace

std::vector<std::vector<std::uint8_t>> group_symmetries(const TableInfo& info) {
  // A symmetry that fixes the blank's goal cell and maps the group onto itself maps the free
  // cells onto themselves, and the free region of the blank's goal cell onto itself: the
  // build's start is its own image (pdb_symmetry.cpp checks this for groups of two tables).
  std::vector<std::uint8_t> group = info.cells;
  std::sort(group.begin(), group.end());
  std::vector<std::vector<std::uint8_t>> out;
  for (auto& s : grid_symmetries(info.rows, info.cols)) {
    if (s[info.blank] != info.blank) continue;
    std::vector<std::uint8_t> image;
    for (auto c : group) image.push_back(s[c]);
    std::sort(image.begin(), image.end());
    if (image == group) out.push_back(std::move(s));
  }
  return out;  // the identity first, as grid_symmetries gives it
}

Reduction::Reduction(const TableInfo& info) : n_(info.n()), k_(info.k()), sym_(group_symmetries(info)) {
  if (sym_.size() < 2)
    throw InputError(fmt::format("no symmetry of the {}x{} board keeps this group, so its table cannot be reduced",
                                 info.rows, info.cols));
  // The group's tiles in orbits under the symmetries, by their least tile.
  tansaku::pdb::Orbits orbits(n_);
  for (const auto& s : sym_) orbits.join_all(s);
  std::map<int, std::vector<std::uint8_t>> by_root;
  for (auto c : info.cells) by_root[orbits.root(c)].push_back(c);
  // The big part: whole orbits, as many as keep its placements within the limit (one at least).
  const std::uint64_t limit =
      std::min<std::uint64_t>(kMaxBigValues, std::max<std::uint64_t>(1, info.placements() / 64));
  std::uint64_t big = 1;
  int at = 0;
  for (const auto& [root, tiles] : by_root) {
    std::uint64_t more = big;
    for (std::size_t i = 0; i < tiles.size(); ++i) more *= static_cast<std::uint64_t>(n_ - at - static_cast<int>(i));
    if (at > 0 && more > limit) break;
    if (more > tansaku::pdb::SymClasses::kMaxValues)
      throw InputError(
          fmt::format("the symmetric tiles of this group have too many placements ({}) to reduce its table", more));
    for (auto t : tiles) order_[at++] = t;
    big = more;
  }
  kb_ = at;
  for (const auto& [root, tiles] : by_root)
    for (auto t : tiles)
      if (std::find(order_, order_ + kb_, t) == order_ + kb_) order_[at++] = t;
  for (int i = kb_; i < k_; ++i) rest_size_ *= static_cast<std::uint64_t>(n_ - i);
  // from_[s][j]: the index i whose tile s maps onto order_[j].
  for (const auto& s : sym_) {
    std::vector<std::uint8_t> from(static_cast<std::size_t>(k_));
    for (int j = 0; j < k_; ++j)
      for (int i = 0; i < k_; ++i)
        if (s[order_[i]] == order_[j]) from[static_cast<std::size_t>(j)] = static_cast<std::uint8_t>(i);
    from_.push_back(std::move(from));
  }
  const int kb = kb_, n = n_;
  classes_ = std::make_unique<tansaku::pdb::SymClasses>(big, symmetries(), [&](int s, std::uint64_t v) {
    std::uint8_t p[KPermRanker::kMaxPieces], q[KPermRanker::kMaxPieces];
    std::uint64_t used = 0;
    unrank_from(v, p, 0, kb, n, used);
    const auto& map = sym_[static_cast<std::size_t>(s)];
    const auto& from = from_[static_cast<std::size_t>(s)];
    for (int j = 0; j < kb; ++j) q[j] = map[p[from[static_cast<std::size_t>(j)]]];
    used = 0;
    return rank_from(q, 0, kb, n, used);
  });
}

std::uint64_t Reduction::cell(const std::uint8_t* pos) const {
  std::uint8_t p[KPermRanker::kMaxPieces];
  for (int i = 0; i < k_; ++i) p[i] = pos[order_[i]];
  std::uint64_t used = 0;
  const std::uint32_t c = classes_->packed(rank_from(p, 0, kb_, n_, used));
  if (const int s = static_cast<int>(c & 255)) {  // the placement's image by s, whose big part is the representative
    std::uint8_t q[KPermRanker::kMaxPieces];
    const auto& map = sym_[static_cast<std::size_t>(s)];
    const auto& from = from_[static_cast<std::size_t>(s)];
    used = 0;
    for (int j = 0; j < k_; ++j) q[j] = map[p[from[static_cast<std::size_t>(j)]]];
    for (int j = 0; j < kb_; ++j) used |= std::uint64_t{1} << q[j];
    return (c >> 8) * rest_size_ + rank_from(q, kb_, k_, n_, used);
  }
  return (c >> 8) * rest_size_ + rank_from(p, kb_, k_, n_, used);
}

void Reduction::placement(std::uint64_t cell, std::uint8_t* pos) const {
  std::uint8_t p[KPermRanker::kMaxPieces];
  std::uint64_t used = 0;
  unrank_from(classes_->representative(cell / rest_size_), p, 0, kb_, n_, used);
  unrank_from(cell % rest_size_, p, kb_, k_, n_, used);
  for (int i = 0; i < k_; ++i) pos[order_[i]] = p[i];
}

std::shared_ptr<const Reduction> reduction_of(const TableInfo& info) {
  static std::mutex m;
  static auto* made =
      new std::map<std::string, std::shared_ptr<const Reduction>>();  // never destroyed: tables may outlive statics
  const std::string key = info.full().file_name();
  {
    std::lock_guard lock(m);
    if (auto it = made->find(key); it != made->end()) return it->second;
  }
  auto r = std::make_shared<const Reduction>(info);
  std::lock_guard lock(m);
  return made->emplace(key, std::move(r)).first->second;
}

std::shared_ptr<Table> reduce_table(const Table& full, const search::Limits& lim) {
  if (full.reduction()) throw std::logic_error("reduce_table: the table is reduced already");
  TableInfo info = full.info();
  info.reduced = true;
  const auto red = reduction_of(info);
  auto data = fill_entries(
      red->cells(), lim,
      fmt::format("pdb {} tiles: reducing by {} symmetries, {} entries", info.k(), red->symmetries(), red->cells()),
      [&](std::uint64_t lo, std::uint64_t hi, std::uint8_t* out) {
        std::uint8_t pos[64];
        for (std::uint64_t r = lo; r < hi; ++r) {
          red->placement(r, pos);
          out[r >> 1] |= static_cast<std::uint8_t>(full.excess(full.cell(pos)) << ((r & 1) * 4));
        }
      });
  auto t = std::make_shared<Table>(info, std::move(data));
  t->origin = "memory";
  t->max_distance = full.max_distance;
  return t;
}

}  // namespace tansaku::sliding::pdb
