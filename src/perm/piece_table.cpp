// Piece tables (see piece_table.h): the projected domain, the build, exact values.
#include "perm/piece_table.h"

#include <algorithm>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/search/explore.h"

namespace tansaku::perm {

bool PieceDomain::State::operator==(const State& o) const {
  return std::equal(pos, pos + KPermRanker::kMaxPieces, o.pos) && std::equal(ori, ori + KPermRanker::kMaxPieces, o.ori);
}

PieceDomain::PieceDomain(const Definition& d, const MoveSet& ms, const Position& goal, PieceSpec spec)
    : spec_(std::move(spec)) {
  if (spec_.set < 0 || spec_.set >= static_cast<int>(d.sets.size())) throw InputError("a piece table names no set");
  const SetDef& sd = d.sets[static_cast<std::size_t>(spec_.set)];
  n_ = sd.size;
  offset_ = sd.offset;
  omod_ = sd.omod;
  k_ = static_cast<int>(spec_.labels.size());
  nm_ = static_cast<int>(ms.gens.size());
  if (n_ > 64) throw InputError(fmt::format("set {}: piece tables need at most 64 positions", sd.name));
  if (k_ < 1 || k_ > KPermRanker::kMaxPieces || k_ > n_)
    throw InputError(fmt::format("set {}: a piece table keeps 1 to {} pieces", sd.name, std::min(n_, KPermRanker::kMaxPieces)));
  piece_of_.assign(256, 255);
  for (int i = 0; i < k_; ++i) {
    const int l = spec_.labels[static_cast<std::size_t>(i)];
    if (l < 0 || l > 255 || piece_of_[static_cast<std::size_t>(l)] != 255) throw InputError("a piece table repeats a piece");
    piece_of_[static_cast<std::size_t>(l)] = static_cast<std::uint8_t>(i);
  }
  // Each kept piece once in the goal.
  int found = 0;
  for (int c = 0; c < n_; ++c) {
    const auto u = static_cast<std::size_t>(offset_ + c);
    const auto pi = piece_of_[goal.lab[u]];
    if (pi == 255) continue;
    ++found;
    goal_.pos[pi] = static_cast<std::uint8_t>(c);
    goal_.ori[pi] = goal.ori[u];
  }
  if (found != k_) throw InputError(fmt::format("set {}: a piece table needs pieces the goal holds once", sd.name));
  dest_.assign(static_cast<std::size_t>(nm_) * static_cast<std::size_t>(n_), 0);
  twist_.assign(dest_.size(), 0);
  bool keeps_sum = true;
  for (int m = 0; m < nm_; ++m) {
    const Gen& g = ms.gens[static_cast<std::size_t>(m)];
    if (g.inverse < 0) symmetric_ = false;
    int sum = 0;
    for (int q = 0; q < n_; ++q) {
      const auto u = static_cast<std::size_t>(offset_ + q);
      const int from = g.p.perm[u] - offset_;
      if (from < 0 || from >= n_) throw InputError(fmt::format("set {}: a move takes pieces out of the set", sd.name));
      dest_[static_cast<std::size_t>(m * n_ + from)] = static_cast<std::uint8_t>(q);
      twist_[static_cast<std::size_t>(m * n_ + q)] = g.p.twist[u];
      sum += g.p.twist[u];
    }
    if (omod_ > 1 && sum % omod_ != 0) keeps_sum = false;
  }
  ranker_ = KPermRanker(n_, k_);
  // With every piece kept and the orientation sum kept by every move, the last digit follows.
  odigits_ = omod_ == 1 ? 0 : (k_ == n_ && keeps_sum ? k_ - 1 : k_);
  if (odigits_ < k_ && omod_ > 1)
    for (int i = 0; i < k_; ++i) ori_target_ = (ori_target_ + goal_.ori[i]) % omod_;
  size_ = ranker_.size();
  for (int i = 0; i < odigits_; ++i) {
    if (size_ > UINT64_MAX / static_cast<std::uint64_t>(omod_)) throw InputError("a piece table beyond 64 bits");
    size_ *= static_cast<std::uint64_t>(omod_);
  }
  goal_rank_ = rank(goal_);
}

PieceDomain::State PieceDomain::project(const Position& p) const {
  State s{};
  for (int c = 0; c < n_; ++c) {
    const auto u = static_cast<std::size_t>(offset_ + c);
    const auto pi = piece_of_[p.lab[u]];
    if (pi == 255) continue;
    s.pos[pi] = static_cast<std::uint8_t>(c);
    s.ori[pi] = p.ori[u];
  }
  return s;
}

PieceDomain::State PieceDomain::unrank(std::uint64_t r) const {
  State s{};
  int sum = 0;
  for (int i = odigits_; i-- > 0;) {
    s.ori[i] = static_cast<std::uint8_t>(r % static_cast<std::uint64_t>(omod_));
    sum += s.ori[i];
    r /= static_cast<std::uint64_t>(omod_);
  }
  if (odigits_ < k_ && omod_ > 1) s.ori[k_ - 1] = static_cast<std::uint8_t>(((ori_target_ - sum) % omod_ + omod_) % omod_);
  ranker_.unrank(r, s.pos);
  return s;
}

int PieceTable::exact(const Position& p) const {
  const PieceDomain& d = *dom_;
  PieceDomain::State s = d.project(p), t;
  std::uint64_t r = d.rank(s);
  unsigned v = mod3_->get(r);
  if (v == 3) return -1;
  int dist = 0;
  while (r != d.goal_rank()) {
    const unsigned want = (v + 2) % 3;  // one closer
    bool stepped = false;
    for (int m = 0; m < d.moves() && !stepped; ++m) {
      d.step(s, m, t);
      const std::uint64_t rt = d.rank(t);
      if (mod3_->get(rt) == want) s = t, r = rt, v = want, stepped = true;
    }
    if (!stepped || ++dist > 1000000) throw std::logic_error("perm: a piece table without a way down to the goal");
  }
  return dist;
}

std::string PieceTable::description() const {
  std::string labels;
  for (int l : dom_->spec().labels) {
    if (!labels.empty()) labels += ',';
    labels += std::to_string(l + 1);
  }
  return fmt::format("set {} pieces {}{}", dom_->spec().set + 1, labels, dom_->orientations() ? " with orientations" : "");
}

std::unique_ptr<PieceTable> build_piece_table(std::unique_ptr<PieceDomain> dom, const search::Limits& lim) {
  const std::uint64_t r0 = dom->goal_rank();
  auto res = search::explore(*dom, std::span<const std::uint64_t>(&r0, 1), 0, lim, true);
  if (!res.distances) throw std::logic_error("perm: explore kept no distances");
  return std::make_unique<PieceTable>(std::move(dom), std::move(res.distances), static_cast<int>(res.depth));
}

std::vector<PieceSpec> default_piece_specs(const Definition& d, const MoveSet& ms, const Position& goal,
                                           std::uint64_t max_entries, int pieces) {
  std::vector<PieceSpec> out;
  for (int s = 0; s < static_cast<int>(d.sets.size()); ++s) {
    const SetDef& sd = d.sets[static_cast<std::size_t>(s)];
    if (sd.size > 64) continue;
    bool moved = false, distinct = true;
    std::vector<int> labels;
    for (int c = 0; c < sd.size; ++c) {
      const auto u = static_cast<std::size_t>(sd.offset + c);
      for (const auto& g : ms.gens) moved = moved || g.p.perm[u] != u || g.p.twist[u] != 0;
      labels.push_back(goal.lab[u]);
    }
    std::sort(labels.begin(), labels.end());
    distinct = std::adjacent_find(labels.begin(), labels.end()) == labels.end();
    if (!moved || !distinct || sd.size < 2) continue;
    // The most pieces k whose table fits max_entries.
    auto entries = [&](int k) -> std::uint64_t {
      try {
        PieceSpec sp{s, {labels.begin(), labels.begin() + k}};
        return PieceDomain(d, ms, goal, sp).size();
      } catch (const InputError&) {
        return UINT64_MAX;
      }
    };
    int k = std::min({sd.size, KPermRanker::kMaxPieces, pieces > 0 ? pieces : 64});
    while (k > 0 && entries(k) > max_entries) --k;
    if (k == 0) continue;
    for (int from = 0; from < sd.size; from += k) {
      const int first = std::min(from, sd.size - k);
      out.push_back(PieceSpec{s, {labels.begin() + first, labels.begin() + first + k}});
      if (first + k >= sd.size) break;
    }
  }
  return out;
}

}  // namespace tansaku::perm
