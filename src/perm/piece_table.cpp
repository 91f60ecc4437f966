// Piece tables (see piece_table.h): the projected domain, the build, exact values.
#include "perm/piece_table.h"

#include <algorithm>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/pdb/build.h"
#include "tansaku/pdb/orbits.h"

namespace tansaku::perm {

bool PieceDomain::State::operator==(const State& o) const {
  return std::equal(pos, pos + KPermRanker::kMaxPieces, o.pos) && std::equal(ori, ori + KPermRanker::kMaxPieces, o.ori);
}

std::vector<std::vector<int>> set_orbits(const Definition& d, const MoveSet& ms, int set) {
  const SetDef& sd = d.sets[static_cast<std::size_t>(set)];
  pdb::Orbits orbit_of(sd.size);
  std::vector<bool> moved(static_cast<std::size_t>(sd.size), false);
  for (const auto& g : ms.gens)
    for (int c = 0; c < sd.size; ++c) {
      const auto u = static_cast<std::size_t>(sd.offset + c);
      const int from = g.p.perm[u] - sd.offset;
      if (from < 0 || from >= sd.size) continue;
      if (from != c || g.p.twist[u]) moved[static_cast<std::size_t>(c)] = moved[static_cast<std::size_t>(from)] = true;
      orbit_of.join(c, from);
    }
  // A cell no move changes is an orbit of its own: left out.
  std::vector<std::vector<int>> out;
  for (auto& o : orbit_of.groups()) {
    if (!moved[static_cast<std::size_t>(o.front())]) continue;
    for (int& c : o) c += sd.offset;
    out.push_back(std::move(o));
  }
  return out;
}

PieceDomain::PieceDomain(const Definition& d, const MoveSet& ms, const Position& goal, PieceSpec spec)
    : spec_(std::move(spec)) {
  if (spec_.set < 0 || spec_.set >= static_cast<int>(d.sets.size())) throw InputError("a piece table names no set");
  const SetDef& sd = d.sets[static_cast<std::size_t>(spec_.set)];
  omod_ = sd.omod;
  k_ = static_cast<int>(spec_.labels.size());
  nm_ = static_cast<int>(ms.gens.size());
  piece_of_.assign(256, 255);
  for (int i = 0; i < k_; ++i) {
    const int l = spec_.labels[static_cast<std::size_t>(i)];
    if (l < 0 || l > 255 || piece_of_[static_cast<std::size_t>(l)] != 255) throw InputError("a piece table repeats a piece");
    piece_of_[static_cast<std::size_t>(l)] = static_cast<std::uint8_t>(i);
  }
  // Each kept piece once in the goal, all in one orbit of positions: the table's cells.
  std::vector<int> home(static_cast<std::size_t>(k_), -1);
  for (int c = 0; c < sd.size; ++c) {
    const auto pi = piece_of_[goal.lab[static_cast<std::size_t>(sd.offset + c)]];
    if (pi == 255) continue;
    if (home[pi] >= 0) throw InputError(fmt::format("set {}: a piece table needs pieces the goal holds once", sd.name));
    home[pi] = sd.offset + c;
  }
  for (int h : home)
    if (h < 0) throw InputError(fmt::format("set {}: a piece table needs pieces the goal holds once", sd.name));
  // The cells: every position of the set some move changes (orbits together: a table over
  // two orbits keeps what ties them, as the skewb's corners).
  for (const auto& o : set_orbits(d, ms, spec_.set)) cells_.insert(cells_.end(), o.begin(), o.end());
  std::sort(cells_.begin(), cells_.end());
  for (int h : home)
    if (std::find(cells_.begin(), cells_.end(), h) == cells_.end())
      throw InputError(fmt::format("set {}: a piece table keeps pieces some move changes", sd.name));
  n_ = static_cast<int>(cells_.size());
  if (n_ > 64) throw InputError(fmt::format("set {}: piece tables need orbits of at most 64 positions", sd.name));
  if (k_ < 1 || k_ > KPermRanker::kMaxPieces || k_ > n_)
    throw InputError(fmt::format("set {}: a piece table keeps 1 to {} pieces", sd.name, std::min(n_, KPermRanker::kMaxPieces)));
  std::vector<int> local(static_cast<std::size_t>(d.positions), -1);
  for (int c = 0; c < n_; ++c) local[static_cast<std::size_t>(cells_[static_cast<std::size_t>(c)])] = c;
  for (int i = 0; i < k_; ++i) {
    goal_.pos[i] = static_cast<std::uint8_t>(local[static_cast<std::size_t>(home[static_cast<std::size_t>(i)])]);
    goal_.ori[i] = goal.ori[static_cast<std::size_t>(home[static_cast<std::size_t>(i)])];
  }
  dest_.assign(static_cast<std::size_t>(nm_) * static_cast<std::size_t>(n_), 0);
  twist_.assign(dest_.size(), 0);
  bool keeps_sum = true;
  for (int m = 0; m < nm_; ++m) {
    const Gen& g = ms.gens[static_cast<std::size_t>(m)];
    if (g.inverse < 0) symmetric_ = false;
    int sum = 0;
    for (int q = 0; q < n_; ++q) {
      const auto u = static_cast<std::size_t>(cells_[static_cast<std::size_t>(q)]);
      const int from = local[g.p.perm[u]];
      if (from < 0) throw std::logic_error("perm: a move takes a piece out of its orbit");
      dest_[static_cast<std::size_t>(m * n_ + from)] = static_cast<std::uint8_t>(q);
      twist_[static_cast<std::size_t>(m * n_ + q)] = g.p.twist[u];
      sum += g.p.twist[u];
    }
    if (omod_ > 1 && sum % omod_ != 0) keeps_sum = false;
  }
  ranker_ = KPermRanker(n_, k_);
  // With every piece of the orbit kept and its orientation sum kept by every move, the
  // last digit follows.
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
    const auto u = static_cast<std::size_t>(cells_[static_cast<std::size_t>(c)]);
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

std::unique_ptr<PieceTable> build_piece_table(std::unique_ptr<PieceDomain> dom, const search::Limits& lim,
                                              tansaku::pdb::Checkpoint* cp) {
  const std::uint64_t r0 = dom->goal_rank();
  auto t = tansaku::pdb::build_table(*dom, std::span<const std::uint64_t>(&r0, 1), 2, lim, cp);
  return std::make_unique<PieceTable>(std::move(dom), std::move(t.cells), t.max_distance);
}

std::vector<PieceSpec> default_piece_specs(const Definition& d, const MoveSet& ms, const Position& goal,
                                           std::uint64_t max_entries, int pieces) {
  std::vector<PieceSpec> out;
  for (int s = 0; s < static_cast<int>(d.sets.size()); ++s) {
    {
      std::vector<int> orbit;  // every position of the set some move changes
      for (const auto& o : set_orbits(d, ms, s)) orbit.insert(orbit.end(), o.begin(), o.end());
      if (orbit.empty()) continue;
      std::vector<int> labels;
      for (int c : orbit) labels.push_back(goal.lab[static_cast<std::size_t>(c)]);
      std::sort(labels.begin(), labels.end());
      if (std::adjacent_find(labels.begin(), labels.end()) != labels.end()) continue;  // identical pieces
      if (orbit.size() < 2 && d.sets[static_cast<std::size_t>(s)].omod < 2) continue;
      const int size = static_cast<int>(orbit.size());
      // The most pieces k whose table fits max_entries.
      auto entries = [&](int k) -> std::uint64_t {
        try {
          return PieceDomain(d, ms, goal, PieceSpec{s, {labels.begin(), labels.begin() + k}}).size();
        } catch (const InputError&) {
          return UINT64_MAX;
        }
      };
      // `pieces` given: that many (the memory budget decides); else the most that fit.
      int k = std::min({size, KPermRanker::kMaxPieces, pieces > 0 ? pieces : 64});
      while (pieces <= 0 && k > 0 && entries(k) > max_entries) --k;
      if (entries(k) == UINT64_MAX) continue;
      if (k == 0) continue;
      for (int from = 0; from < size; from += k) {
        const int first = std::min(from, size - k);
        out.push_back(PieceSpec{s, {labels.begin() + first, labels.begin() + first + k}});
        if (first + k >= size) break;
      }
    }
  }
  return out;
}

}  // namespace tansaku::perm
