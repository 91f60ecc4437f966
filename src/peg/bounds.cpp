// The search-free facts about peg positions: the GF(2) position classes by elimination, and
// the demand bound (a lower bound on the moves still needed).
#include "peg/bounds.h"

#include <algorithm>
#include <bit>
#include <numeric>

namespace tansaku::peg {

PositionClass::PositionClass(const Board& bd) {
  // Row-reduce the jump masks; the functionals are the null space of that matrix.
  std::vector<Bits> rows;
  std::vector<int> pivots;
  for (const auto& j : bd.jumps) {
    Bits r = j.mask;
    for (std::size_t i = 0; i < rows.size(); ++i)
      if ((r >> pivots[i]) & 1) r ^= rows[i];
    if (!r) continue;
    const int p = std::countr_zero(r);
    for (std::size_t i = 0; i < rows.size(); ++i)
      if ((rows[i] >> p) & 1) rows[i] ^= r;
    rows.push_back(r);
    pivots.push_back(p);
  }
  Bits pivot_mask = 0;
  for (int p : pivots) pivot_mask |= Bits{1} << p;
  for (int f = 0; f < bd.n; ++f) {
    if ((pivot_mask >> f) & 1) continue;
    Bits v = Bits{1} << f;
    for (std::size_t i = 0; i < rows.size(); ++i)
      if ((rows[i] >> f) & 1) v |= Bits{1} << pivots[i];
    functionals_.push_back(v);
  }
}

std::uint64_t PositionClass::of(Bits pegs) const {
  std::uint64_t c = 0;
  for (std::size_t i = 0; i < functionals_.size(); ++i)
    c |= static_cast<std::uint64_t>(std::popcount(pegs & functionals_[i]) & 1) << i;
  return c;
}

namespace {

// Holes of `set` satisfy: every jump over one of them starts or lands in the set.
bool is_protected(const Board& bd, Bits set) {
  for (const auto& j : bd.jumps)
    if ((set >> j.over) & 1 && !((set >> j.from) & 1) && !((set >> j.to) & 1)) return false;
  return true;
}

int max_packing(const std::vector<Bits>& sets, std::size_t i, Bits used) {
  if (i == sets.size()) return 0;
  int best = max_packing(sets, i + 1, used);
  if (!(sets[i] & used)) best = std::max(best, 1 + max_packing(sets, i + 1, used | sets[i]));
  return best;
}

}  // namespace

DemandBound::DemandBound(const Board& bd, Bits goal, bool anywhere, Bits finishers)
    : finishers_(finishers), anywhere_(anywhere) {
  // Protected singletons (corners) and pairs.
  for (int h = 0; h < bd.n; ++h)
    if (is_protected(bd, bd.bit(h))) corners_ |= bd.bit(h), sets_.push_back(bd.bit(h));
  for (int a = 0; a < bd.n; ++a)
    for (int b = a + 1; b < bd.n; ++b) {
      const Bits s = bd.bit(a) | bd.bit(b);
      if ((corners_ & s) || !is_protected(bd, s)) continue;  // a corner alone is already a demand
      sets_.push_back(s);
    }
  // Sets whose pegs may all stay to the end need no move.
  std::vector<Bits> active;
  for (Bits s : sets_)
    if ((s & goal) != s) active.push_back(s);
  // Connected groups of overlapping sets.
  std::vector<int> parent(active.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (std::size_t i = 0; i < active.size(); ++i)
    for (std::size_t k = i + 1; k < active.size(); ++k)
      if (active[i] & active[k]) parent[find(static_cast<int>(i))] = find(static_cast<int>(k));
  std::vector<std::vector<Bits>> comps(active.size());
  for (std::size_t i = 0; i < active.size(); ++i) comps[find(static_cast<int>(i))].push_back(active[i]);
  for (auto& comp : comps) {
    if (comp.empty()) continue;
    Bits mask = 0;
    for (Bits s : comp) mask |= s;
    if (std::popcount(mask) > 16) {  // too wide to tabulate: keep its singletons only
      for (Bits s : comp)
        if (std::popcount(s) == 1) singles_ |= s;
      continue;
    }
    if (comp.size() == 1 && std::popcount(mask) == 1) {
      singles_ |= mask;
      continue;
    }
    Group g{mask, {}};
    const int k = std::popcount(mask);
    g.table.resize(std::size_t{1} << k);
    for (std::uint64_t p = 0; p < (std::uint64_t{1} << k); ++p) {
      const Bits occ = bits::deposit(p, mask);
      std::vector<Bits> full;
      for (Bits s : comp)
        if ((occ & s) == s) full.push_back(s);
      g.table[p] = static_cast<std::uint8_t>(max_packing(full, 0, 0));
    }
    groups_.push_back(std::move(g));
  }
}

}  // namespace tansaku::peg
