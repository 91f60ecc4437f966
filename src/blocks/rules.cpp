// Building the bitboard tables and the one-move reach under each metric.
#include "blocks/rules.h"

#include <bit>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "tansaku/core/error.h"

namespace tansaku::blocks {

Rules::Rules(const Board& b, Metric m, bool distinct) : b_(b), metric_(m), distinct_(distinct) {
  const int n = b.cells();
  open_ = b.board_mask() & ~b.walls;
  for (int p = 0; p < n; ++p) {
    if (p % b.cols != 0) not_first_col_ |= std::uint64_t{1} << p;
    if (p % b.cols != b.cols - 1) not_last_col_ |= std::uint64_t{1} << p;
  }
  const std::size_t nk = b.kinds.size();
  cover_.assign(nk, {});
  valid_.assign(nk, 0);
  offsets_.resize(nk);
  for (std::size_t k = 0; k < nk; ++k) {
    for (const auto& [dr, dc] : b.kinds[k].cells) offsets_[k].push_back(dr * b.cols + dc);
    for (int a = 0; a < n; ++a) {
      cover_[k][static_cast<std::size_t>(a)] = b.cover(static_cast<int>(k), a);
      if (cover_[k][static_cast<std::size_t>(a)]) valid_[k] |= std::uint64_t{1} << a;
    }
  }
  halo_.assign(nk, {});
  for (std::size_t k = 0; k < nk; ++k)
    for (int a = 0; a < n; ++a) {
      const std::uint64_t c = cover_[k][static_cast<std::size_t>(a)];
      const std::uint64_t around = ((c & not_first_col_) >> 1) | ((c & not_last_col_) << 1) | (c >> b.cols) | (c << b.cols);
      halo_[k][static_cast<std::size_t>(a)] = around & open_ & ~c;
    }
  // Groups: one per kind (alike pieces), or one per piece with --distinct; slots follow the
  // start's anchor order inside a group.
  kind_group_.assign(nk, -1);
  label_group_.assign(256, -1);
  if (distinct) {
    for (const Piece& p : b.pieces) {
      label_group_[static_cast<unsigned char>(p.label)] = static_cast<int>(groups_.size());
      groups_.push_back({p.kind, 0, 1, 0});
    }
  } else {
    for (std::size_t k = 0; k < nk; ++k) {
      kind_group_[k] = static_cast<int>(groups_.size());
      groups_.push_back({static_cast<int>(k), 0, 0, 0});
    }
    for (const Piece& p : b.pieces) ++groups_[static_cast<std::size_t>(kind_group_[static_cast<std::size_t>(p.kind)])].count;
  }
  int slot = 0;
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    groups_[g].first = slot;
    slot += groups_[g].count;
    for (int i = 0; i < groups_[g].count; ++i) slot_group_.push_back(static_cast<int>(g));
  }
  slot_label_.assign(slot_group_.size(), '?');
  std::vector<int> filled(groups_.size(), 0);
  for (const Piece& p : b.pieces) {
    const int g = group_of(p);
    slot_label_[static_cast<std::size_t>(groups_[static_cast<std::size_t>(g)].first + filled[static_cast<std::size_t>(g)]++)] = p.label;
  }
  bits_ = std::max(1, static_cast<int>(std::bit_width(static_cast<unsigned>(n - 1))));
  per_word_ = 64 / bits_;
  words_ = (slots() + per_word_ - 1) / per_word_;
  for (int i = 0; i < slots(); ++i) {
    slot_word_.push_back(i / per_word_);
    slot_shift_.push_back((i % per_word_) * bits_);
  }
  if (words_ > 4)
    throw InputError(fmt::format("{}: {} pieces on {} cells need a state code of {} bits; at most 256 are supported",
                                 b.source, slots(), n, slots() * bits_));
  has_goal_ = !b.goal.empty();
  for (const Piece& p : b.goal) groups_[static_cast<std::size_t>(group_of(p))].required |= std::uint64_t{1} << p.anchor;
  single_goal_ = true;
  for (const Group& g : groups_)
    if (std::popcount(g.required) != g.count) single_goal_ = false;
}

int Rules::group_of(const Piece& p) const {
  return distinct_ ? label_group_[static_cast<unsigned char>(p.label)] : kind_group_[static_cast<std::size_t>(p.kind)];
}

int Rules::distance(int a, int t) const {
  if (a == t) return 0;
  const int dr = std::abs(a / b_.cols - t / b_.cols), dc = std::abs(a % b_.cols - t % b_.cols);
  switch (metric_) {
    case Metric::Step: return dr + dc;
    case Metric::Line: return dr && dc ? 2 : 1;
    case Metric::Path: return 1;
  }
  return 0;
}

long double Rules::placement_bound() const {
  long double total = 1;
  for (const Group& g : groups_) {
    // C(valid anchors, count)
    const int v = std::popcount(valid_[static_cast<std::size_t>(g.kind)]);
    long double c = 1;
    for (int i = 0; i < g.count; ++i) c = c * (v - i) / (i + 1);
    total *= c;
  }
  return total;
}

}  // namespace tansaku::blocks
