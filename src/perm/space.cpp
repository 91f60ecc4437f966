// The ranked space of a permutation puzzle (see space.h).
#include "perm/space.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "tansaku/core/error.h"
#include "tansaku/pdb/orbits.h"

namespace tansaku::perm {

namespace {
int perm_parity(const std::vector<std::uint8_t>& p) {
  std::vector<bool> seen(p.size(), false);
  int par = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (seen[i]) continue;
    std::size_t len = 0;
    for (std::size_t j = i; !seen[j]; j = p[j]) seen[j] = true, ++len;
    par ^= static_cast<int>((len + 1) & 1);
  }
  return par;
}
}  // namespace

Space::Space(const Definition& d, const MoveSet& ms, const Position& ref, std::uint64_t table_bytes, unsigned threads,
             const Deadline* deadline)
    : d_(&d), deadline_(deadline), ref_(ref), nm_(static_cast<int>(ms.gens.size())) {
  const int N = d.positions;
  // Moves that generate the same group (the first power of each base move; the others are
  // its powers): an orbit needs only these.
  for (int m = 0; m < nm_; ++m) {
    const Gen& g = ms.gens[static_cast<std::size_t>(m)];
    bool first = g.power == 1;
    if (!first) {  // its base's first power absent: keep it
      first = true;
      for (const Gen& h : ms.gens)
        if (h.base == g.base && h.power == 1) first = false;
    }
    if (first) generators_.push_back(m);
  }
  // Orbits of positions under the moves.
  pdb::Orbits orbit_of(N);
  std::vector<bool> twisted(static_cast<std::size_t>(N), false);
  for (const auto& g : ms.gens) {
    orbit_of.join_all(g.p.perm);
    for (int i = 0; i < N; ++i)
      if (g.p.twist[static_cast<std::size_t>(i)]) twisted[static_cast<std::size_t>(i)] = true;
  }
  const std::vector<std::vector<int>> orbits = orbit_of.groups();
  auto local_moves = [&](Coord& co) {
    std::vector<int> where(static_cast<std::size_t>(N), -1);
    for (int i = 0; i < co.k; ++i) where[static_cast<std::size_t>(co.cells[static_cast<std::size_t>(i)])] = i;
    for (const auto& g : ms.gens) {
      std::vector<std::uint8_t> lp(static_cast<std::size_t>(co.k)), lt(static_cast<std::size_t>(co.k));
      for (int i = 0; i < co.k; ++i) {
        const int cell = co.cells[static_cast<std::size_t>(i)];
        lp[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(where[g.p.perm[static_cast<std::size_t>(cell)]]);
        lt[static_cast<std::size_t>(i)] = g.p.twist[static_cast<std::size_t>(cell)];
      }
      co.lperm.push_back(std::move(lp));
      co.ltwist.push_back(std::move(lt));
    }
  };
  for (std::size_t o = 0; o < orbits.size(); ++o) {
    const auto& cells = orbits[o];
    const int k = static_cast<int>(cells.size());
    const int n = d.omod[static_cast<std::size_t>(cells[0])];
    // Permutation coordinate.
    std::vector<std::uint8_t> labs;
    for (int c : cells) labs.push_back(ref.lab[static_cast<std::size_t>(c)]);
    std::vector<std::uint8_t> distinct = labs;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    if (distinct.size() > 1) {
      Coord co;
      co.orbit = static_cast<int>(o);
      co.cells = cells;
      co.k = k;
      co.labels = distinct;
      co.local_label.assign(256, 255);
      for (std::size_t i = 0; i < distinct.size(); ++i) co.local_label[distinct[i]] = static_cast<std::uint8_t>(i);
      if (static_cast<int>(distinct.size()) == k && k <= 20) {
        co.kind = Coord::Kind::Perm;
        co.pr.emplace(k);
        co.size = co.pr->size();
      } else {
        if (k > 64) throw InputError(fmt::format("{}: an orbit of {} pieces is too large to rank (at most 64)", d.name, k));
        co.kind = Coord::Kind::Multiset;
        co.counts.assign(distinct.size(), 0);
        for (auto l : labs) ++co.counts[co.local_label[l]];
        co.mr.emplace(co.counts);
        co.size = co.mr->size();
      }
      local_moves(co);
      coords_.push_back(std::move(co));
    } else {
      for (int c : cells) fixed_cells_.push_back(c);  // labels: all the same
    }
    // Orientation coordinate.
    bool any_twist = false, ref_varies = false;
    for (int c : cells) any_twist = any_twist || twisted[static_cast<std::size_t>(c)];
    for (int c : cells) ref_varies = ref_varies || ref.ori[static_cast<std::size_t>(c)] != ref.ori[static_cast<std::size_t>(cells[0])];
    if (n > 1 && (any_twist || ref_varies)) {
      Coord co;
      co.kind = Coord::Kind::Ori;
      co.orbit = static_cast<int>(o);
      co.cells = cells;
      co.k = k;
      co.n = n;
      local_moves(co);
      bool invariant = any_twist;
      for (const auto& t : co.ltwist) {
        int s = 0;
        for (auto x : t) s += x;
        if (s % n) invariant = false;
      }
      co.ndigits = invariant ? k - 1 : k;
      int s = 0;
      for (int c : cells) s += ref.ori[static_cast<std::size_t>(c)];
      co.target = s % n;
      unsigned __int128 size = 1;
      for (int i = 0; i < co.ndigits; ++i) {
        size *= static_cast<unsigned>(n);
        if (size > std::numeric_limits<std::uint64_t>::max())
          throw InputError(fmt::format("{}: the orientations of an orbit of {} pieces are too many to rank", d.name, k));
      }
      co.size = static_cast<std::uint64_t>(size);
      coords_.push_back(std::move(co));
    }
  }
  // Parities over GF(2): which Perm coordinates are independent (pivots), which implied.
  std::vector<int> par_coords;
  for (std::size_t j = 0; j < coords_.size(); ++j)
    if (coords_[j].kind == Coord::Kind::Perm) par_coords.push_back(static_cast<int>(j));
  if (par_coords.size() > 64) par_coords.resize(64);  // the rest stay full permutations
  const std::size_t P = par_coords.size();
  std::vector<std::uint64_t> basis;  // reduced rows; pivot = lowest set bit
  for (int m = 0; m < nm_; ++m) {
    std::uint64_t v = 0;
    for (std::size_t j = 0; j < P; ++j)
      if (perm_parity(coords_[static_cast<std::size_t>(par_coords[j])].lperm[static_cast<std::size_t>(m)])) v |= std::uint64_t{1} << j;
    for (auto b : basis)
      if (v >> std::countr_zero(b) & 1) v ^= b;
    if (!v) continue;
    for (auto& b : basis)
      if (b >> std::countr_zero(v) & 1) b ^= v;
    basis.push_back(v);
  }
  std::uint64_t pivots = 0;
  for (auto b : basis) pivots |= std::uint64_t{1} << std::countr_zero(b);
  auto ref_parity = [&](const Coord& co) {
    std::vector<std::uint8_t> a(static_cast<std::size_t>(co.k));
    read_local(co, ref, a.data());
    return perm_parity(a);
  };
  for (std::size_t j = 0; j < P; ++j) {
    Coord& co = coords_[static_cast<std::size_t>(par_coords[j])];
    if (pivots >> j & 1) {
      co.pivot = true;
      continue;
    }
    co.half = true;
    co.size /= 2;
    co.parity_const = ref_parity(co);
    for (auto b : basis)
      if (b >> j & 1) {
        const std::size_t pj = static_cast<std::size_t>(std::countr_zero(b));
        co.deps.push_back(par_coords[pj]);
        co.parity_const ^= ref_parity(coords_[static_cast<std::size_t>(par_coords[pj])]);
      }
    co.two_rows = !co.deps.empty();
    for (int dj : co.deps) coords_[static_cast<std::size_t>(dj)].parity_needed = true;
  }
  group_coordinates(threads);
  // Weights (the last coordinate varies fastest) and the size.
  unsigned __int128 total = 1;
  for (std::size_t j = coords_.size(); j-- > 0;) {
    coords_[j].weight = static_cast<std::uint64_t>(total);
    total *= coords_[j].size;
    if (total > std::numeric_limits<std::uint64_t>::max())
      throw InputError(fmt::format("{}: more than 2^64 positions, too many to rank", d.name));
  }
  size_ = static_cast<std::uint64_t>(total);
  small_ = size_ < (std::uint64_t{1} << 32);
  for (auto& co : coords_) {
    if (small_) co.div = FastDiv32(static_cast<std::uint32_t>(co.size));
    pins_ = pins_ || co.two_rows;
  }
  // Move tables, smallest coordinates first, while the budget lasts (groups have theirs).
  std::vector<std::size_t> order(coords_.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return coords_[a].size < coords_[b].size; });
  for (auto j : order) {
    if (deadline_) deadline_->check();
    Coord& co = coords_[j];
    const std::uint64_t bytes = co.size * (co.two_rows ? 2 : 1) * static_cast<std::uint64_t>(nm_) * 4 + (co.pivot ? co.size : 0);
    if (co.kind == Coord::Kind::Group) {  // its members' values kept beside its table
      const std::uint64_t with = bytes + co.size * co.members.size() * 4;
      table_bytes_ += co.reach.bytes();
      if (table_bytes_ + with > table_bytes) {
        all_tabled_ = false;
        continue;
      }
      build_group_table(co);
      table_bytes_ += with;
      continue;
    }
    if (co.size > 0xFFFFFFFFull || table_bytes_ + bytes > table_bytes) {
      all_tabled_ = false;
      continue;
    }
    build_table(co, threads);
    table_bytes_ += bytes;
  }
  // The batch path reads the last coordinate's table move by move: a transposed copy,
  // within the budget.
  const std::uint64_t last_bytes = coords_.empty() ? 0 : coords_.back().table.size() * 4;
  blocks_ = all_tabled_ && !coords_.empty() && !coords_.back().parity_needed && nm_ <= kMaxMoves &&
            table_bytes_ + last_bytes <= table_bytes;
  if (blocks_) {
    table_bytes_ += last_bytes;
    const auto& t = coords_.back().table;
    const std::uint64_t rows = t.size() / static_cast<std::uint64_t>(nm_);
    last_t_.resize(t.size());
    for (std::uint64_t v = 0; v < rows; ++v)
      for (int m = 0; m < nm_; ++m) last_t_[static_cast<std::uint64_t>(m) * rows + v] = t[v * static_cast<std::uint64_t>(nm_) + static_cast<std::uint64_t>(m)];
  }
  deadline_ = nullptr;  // the caller's, which need not outlive this
}

void Space::read_local(const Coord& co, const Position& p, std::uint8_t* a) const {
  for (int i = 0; i < co.k; ++i) {
    const auto c = static_cast<std::size_t>(co.cells[static_cast<std::size_t>(i)]);
    a[i] = co.kind == Coord::Kind::Ori ? p.ori[c] : co.local_label[p.lab[c]];
  }
}

void Space::write_local(const Coord& co, const std::uint8_t* a, Position& p) const {
  for (int i = 0; i < co.k; ++i) {
    const auto c = static_cast<std::size_t>(co.cells[static_cast<std::size_t>(i)]);
    if (co.kind == Coord::Kind::Ori)
      p.ori[c] = a[i];
    else
      p.lab[c] = co.labels[a[i]];
  }
}

void Space::step_local(const Coord& co, int m, const std::uint8_t* a, std::uint8_t* b) const {
  const auto& lp = co.lperm[static_cast<std::size_t>(m)];
  if (co.kind == Coord::Kind::Ori) {
    const auto& lt = co.ltwist[static_cast<std::size_t>(m)];
    for (int i = 0; i < co.k; ++i) {
      const int x = a[lp[static_cast<std::size_t>(i)]] + lt[static_cast<std::size_t>(i)];
      b[i] = static_cast<std::uint8_t>(x >= co.n ? x - co.n : x);
    }
  } else {
    for (int i = 0; i < co.k; ++i) b[i] = a[lp[static_cast<std::size_t>(i)]];
  }
}

std::uint64_t Space::value_of(const Coord& co, const std::uint8_t* a) const {
  switch (co.kind) {
    case Coord::Kind::Perm: return co.half ? co.pr->rank_half(a) : co.pr->rank(a);
    case Coord::Kind::Multiset: return co.mr->rank(a);
    case Coord::Kind::Group: break;  // rank() handles groups
    case Coord::Kind::Ori: {
      std::uint64_t v = 0;
      for (int i = co.ndigits; i-- > 0;) v = v * static_cast<std::uint64_t>(co.n) + a[i];
      return v;
    }
  }
  return 0;
}

void Space::local_of(const Coord& co, std::uint64_t v, int parity, std::uint8_t* a) const {
  switch (co.kind) {
    case Coord::Kind::Perm:
      if (co.half)
        co.pr->unrank_half(v, parity, a);
      else
        co.pr->unrank(v, a);
      return;
    case Coord::Kind::Multiset: co.mr->unrank(v, a); return;
    case Coord::Kind::Group: return;  // unrank() handles groups
    case Coord::Kind::Ori: {
      int s = 0;
      for (int i = 0; i < co.ndigits; ++i) {
        a[i] = static_cast<std::uint8_t>(v % static_cast<std::uint64_t>(co.n));
        v /= static_cast<std::uint64_t>(co.n);
        s += a[i];
      }
      if (co.ndigits < co.k) a[co.k - 1] = static_cast<std::uint8_t>(((co.target - s) % co.n + co.n) % co.n);
      return;
    }
  }
}

int Space::value_parity(const Coord& co, std::uint64_t v) const {
  if (!co.parity_bits.empty()) return co.parity_bits[v];
  std::uint8_t a[64];
  local_of(co, v, 0, a);
  return PermutationRanker::parity(a, co.k);
}

void Space::build_table(Coord& co, unsigned threads) {
  const std::uint64_t rows = co.size * (co.two_rows ? 2 : 1);
  co.table.resize(rows * static_cast<std::uint64_t>(nm_));
  if (co.pivot) co.parity_bits.resize(co.size);
  auto fill = [&](std::uint64_t begin, std::uint64_t end) {
    std::uint8_t a[64], b[64];
    for (std::uint64_t row = begin; row < end; ++row) {
      const std::uint64_t v = co.two_rows ? row / 2 : row;
      const int parity = co.two_rows ? static_cast<int>(row & 1) : co.parity_const;
      local_of(co, v, parity, a);
      if (co.pivot) co.parity_bits[v] = static_cast<std::uint8_t>(PermutationRanker::parity(a, co.k));
      for (int m = 0; m < nm_; ++m) {
        step_local(co, m, a, b);
        co.table[row * static_cast<std::uint64_t>(nm_) + static_cast<std::uint64_t>(m)] = static_cast<std::uint32_t>(value_of(co, b));
      }
    }
  };
  constexpr std::uint64_t kBlock = 4096;
  if (rows <= kBlock || threads <= 1) {  // most tables are small: no task arena
    fill(0, rows);
    return;
  }
  tbb::task_arena arena(static_cast<int>(threads));
  arena.execute([&] {
    tbb::parallel_for(std::uint64_t{0}, rows, kBlock, [&](std::uint64_t begin) { fill(begin, std::min(rows, begin + kBlock)); });
  });
}

void Space::parity_pins(const std::uint64_t* c, std::uint8_t* pin) const {
  for (std::size_t j = 0; j < coords_.size(); ++j) {
    const auto& co = coords_[j];
    if (!co.half) {
      pin[j] = 0;
      continue;
    }
    int p = co.parity_const;
    for (int dj : co.deps) p ^= value_parity(coords_[static_cast<std::size_t>(dj)], c[static_cast<std::size_t>(dj)]);
    pin[j] = static_cast<std::uint8_t>(p);
  }
}

void Space::slow_neighbors(const std::uint64_t* c, const std::uint8_t* pin,
                           const std::function<void(int, std::uint64_t)>& f) const {
  const std::size_t k = coords_.size();
  std::uint8_t pins[kMaxCoords];
  parity_pins(c, pins);
  pin = pins;
  std::vector<std::uint64_t> sums(static_cast<std::size_t>(nm_), 0);
  std::uint8_t a[64], b[64];
  for (std::size_t j = 0; j < k; ++j) {
    const auto& co = coords_[j];
    if (!co.table.empty()) {
      const std::uint64_t idx = co.two_rows ? c[j] * 2 + pin[j] : c[j];
      const std::uint32_t* row = co.table.data() + idx * static_cast<std::uint64_t>(nm_);
      for (int m = 0; m < nm_; ++m) sums[static_cast<std::size_t>(m)] += std::uint64_t{row[m]} * co.weight;
    } else if (co.kind == Coord::Kind::Group) {  // from the members' move tables
      std::uint64_t values[kMaxCoords];
      group_members(co, c[j], values);
      for (int m = 0; m < nm_; ++m) {
        std::uint64_t y = 0;
        for (std::size_t t = 0; t < co.members.size(); ++t) {
          const Coord& mc = co.members[t];
          y = y * mc.size + mc.table[values[t] * static_cast<std::uint64_t>(nm_) + static_cast<std::uint64_t>(m)];
        }
        sums[static_cast<std::size_t>(m)] += std::uint64_t{co.reach.index_of(y)} * co.weight;
      }
    } else {
      local_of(co, c[j], co.half ? pin[j] : 0, a);
      for (int m = 0; m < nm_; ++m) {
        step_local(co, m, a, b);
        sums[static_cast<std::size_t>(m)] += value_of(co, b) * co.weight;
      }
    }
  }
  for (int m = 0; m < nm_; ++m) f(m, sums[static_cast<std::size_t>(m)]);
}

Combinations Space::reachable_combinations(const std::vector<const Coord*>& members) const {
  const std::size_t k = members.size();
  std::vector<std::uint64_t> radix(k, 1);  // weight of each member in a combination number
  std::uint64_t product = 1;
  for (std::size_t i = k; i-- > 0;) radix[i] = product, product *= members[i]->size;
  Combinations seen(product);
  std::uint64_t start = 0;
  std::uint8_t a[64];
  for (std::size_t i = 0; i < k; ++i) {
    read_local(*members[i], ref_, a);
    start += value_of(*members[i], a) * radix[i];
  }
  std::vector<std::uint32_t> queue;
  queue.reserve(product);  // pages are touched only as the queue grows
  queue.push_back(static_cast<std::uint32_t>(start));
  seen.insert(start);
  // The generators' columns only (the orbit under the group they generate).
  const std::size_t ng = generators_.size();
  const auto scaled = weighted_tables(members, generators_);
  std::vector<FastDiv32> div;
  for (std::size_t i = 0; i < k; ++i) div.emplace_back(static_cast<std::uint32_t>(members[i]->size));
  std::vector<std::uint32_t> y(ng);
  for (std::size_t head = 0; head < queue.size(); ++head) {
    if ((head & 0xffff) == 0 && deadline_) deadline_->check();
    std::uint32_t x = queue[head];
    std::fill(y.begin(), y.end(), 0u);
    for (std::size_t i = k; i-- > 0;) {
      const std::uint32_t d = div[i].div(x);
      const std::uint32_t* row = scaled[i].data() + (x - d * static_cast<std::uint32_t>(members[i]->size)) * ng;
      for (std::size_t q = 0; q < ng; ++q) y[q] += row[q];
      x = d;
    }
    for (std::size_t q = 0; q < ng; ++q)
      if (seen.insert(y[q])) queue.push_back(y[q]);
  }
  return seen;
}

void Space::group_coordinates(unsigned threads) {
  // Candidates: coordinates whose moves depend on nothing else (no parity from another
  // orbit) and whose parity no other coordinate reads; the smallest first, while the
  // combinations stay few (a search over them costs a small part of the whole space).
  std::vector<std::size_t> cand;
  unsigned __int128 total = 1;
  for (std::size_t j = 0; j < coords_.size(); ++j) {
    const Coord& co = coords_[j];
    total *= co.size;
    if (total > (static_cast<unsigned __int128>(1) << 100)) total = static_cast<unsigned __int128>(1) << 100;
    if (co.kind == Coord::Kind::Perm && (co.two_rows || co.parity_needed)) continue;
    cand.push_back(j);
  }
  std::stable_sort(cand.begin(), cand.end(), [&](auto a, auto b) { return coords_[a].size < coords_[b].size; });
  const std::uint64_t limit = static_cast<std::uint64_t>(std::min<unsigned __int128>(std::uint64_t{1} << 20, total / 16));
  std::vector<std::size_t> chosen;
  std::uint64_t product = 1;
  for (auto j : cand) {
    if (product * coords_[j].size > limit) break;
    product *= coords_[j].size;
    chosen.push_back(j);
  }
  if (chosen.size() < 2) return;
  std::sort(chosen.begin(), chosen.end());  // coordinate order
  for (auto j : chosen) build_table(coords_[j], threads);
  std::vector<const Coord*> members;
  for (auto j : chosen) members.push_back(&coords_[j]);
  Combinations reach = reachable_combinations(members);
  if (reach.count == product) {  // nothing tied: keep them apart
    for (auto j : chosen) coords_[j].table.clear(), coords_[j].parity_bits.clear();
    return;
  }
  // Leave out the members the others do not depend on (largest first). The members move
  // independently, so the combinations the others reach are the projection of `reach`
  // (no second search): member j is free when that projection times its size is `reach`.
  std::vector<std::size_t> by_size = chosen;
  std::stable_sort(by_size.begin(), by_size.end(), [&](auto a, auto b) { return coords_[a].size > coords_[b].size; });
  for (auto j : by_size) {
    if (chosen.size() <= 2) break;
    const auto at = static_cast<std::size_t>(std::find(chosen.begin(), chosen.end(), j) - chosen.begin());
    std::uint64_t below = 1;  // the weight of member `at` in a combination number
    for (std::size_t t = at + 1; t < chosen.size(); ++t) below *= coords_[chosen[t]].size;
    const std::uint64_t size_j = coords_[j].size;
    Combinations r(product / size_j);
    const FastDiv32 by_below(static_cast<std::uint32_t>(below)), by_above(static_cast<std::uint32_t>(below * size_j));
    reach.for_each([&](std::uint64_t x) {
      const auto x32 = static_cast<std::uint32_t>(x);
      const std::uint32_t hi = by_above.div(x32), lo = x32 - by_below.div(x32) * static_cast<std::uint32_t>(below);
      r.insert(std::uint64_t{hi} * below + lo);
    });
    if (r.count * size_j == reach.count) {
      coords_[j].table.clear(), coords_[j].parity_bits.clear();
      chosen.erase(chosen.begin() + static_cast<std::ptrdiff_t>(at));
      product /= size_j;
      reach = std::move(r);
    }
  }
  reach.index();
  // The group: values are the reachable combinations in increasing order (its move table
  // when the budget has room: build_group_table).
  Coord g;
  g.kind = Coord::Kind::Group;
  g.orbit = coords_[chosen[0]].orbit;
  g.size = reach.count;
  g.reach = std::move(reach);
  for (auto j : chosen) {  // the members keep their move tables (the group's is made of them)
    coords_[j].parity_bits.clear();
    g.cells.insert(g.cells.end(), coords_[j].cells.begin(), coords_[j].cells.end());
    g.members.push_back(std::move(coords_[j]));
  }
  g.k = static_cast<int>(g.cells.size());
  // Replace the members by the group (at the first member's place); renumber deps.
  std::vector<Coord> out;
  std::vector<int> renumber(coords_.size(), -1);
  for (std::size_t j = 0; j < coords_.size(); ++j) {
    if (j == chosen[0]) out.push_back(std::move(g));
    if (std::find(chosen.begin(), chosen.end(), j) != chosen.end()) continue;
    renumber[j] = static_cast<int>(out.size());
    out.push_back(std::move(coords_[j]));
  }
  for (auto& co : out)
    for (int& dj : co.deps) dj = renumber[static_cast<std::size_t>(dj)];
  coords_ = std::move(out);
}

std::vector<std::vector<std::uint32_t>> Space::weighted_tables(const std::vector<const Coord*>& members,
                                                               const std::vector<int>& moves) const {
  const std::size_t k = members.size(), nq = moves.size(), nm = static_cast<std::size_t>(nm_);
  std::vector<std::vector<std::uint32_t>> out(k);
  std::uint64_t weight = 1;
  for (std::size_t i = k; i-- > 0;) {
    const Coord& mc = *members[i];
    out[i].resize(mc.size * nq);
    for (std::size_t r = 0; r < mc.size; ++r)
      for (std::size_t q = 0; q < nq; ++q)
        out[i][r * nq + q] = static_cast<std::uint32_t>(mc.table[r * nm + static_cast<std::size_t>(moves[q])] * weight);
    weight *= mc.size;
  }
  return out;
}

void Space::build_group_table(Coord& g) {
  const std::size_t k = g.members.size();
  const std::uint64_t nm = static_cast<std::uint64_t>(nm_);
  g.tuples.resize(g.size * k);
  g.table.resize(g.size * nm);
  std::vector<const Coord*> members;
  for (const auto& mc : g.members) members.push_back(&mc);
  std::vector<int> all(static_cast<std::size_t>(nm_));
  std::iota(all.begin(), all.end(), 0);
  const auto scaled = weighted_tables(members, all);
  std::uint64_t i = 0;
  std::vector<std::uint32_t> y(nm);
  g.reach.for_each([&](std::uint64_t x) {
    std::fill(y.begin(), y.end(), 0u);
    for (std::size_t t = k; t-- > 0;) {
      const Coord& mc = g.members[t];
      const std::uint64_t d = x / mc.size, v = x - d * mc.size;
      g.tuples[i * k + t] = static_cast<std::uint32_t>(v);
      const std::uint32_t* row = scaled[t].data() + v * nm;
      for (std::uint64_t m = 0; m < nm; ++m) y[m] += row[m];
      x = d;
    }
    std::uint32_t* out = g.table.data() + i * nm;
    for (std::uint64_t m = 0; m < nm; ++m) out[m] = g.reach.index_of(y[m]);
    ++i;
  });
  for (auto& mc : g.members) mc.table = {};
}

void Space::group_members(const Coord& co, std::uint64_t v, std::uint64_t* out) const {
  const std::size_t k = co.members.size();
  if (!co.tuples.empty()) {
    for (std::size_t t = 0; t < k; ++t) out[t] = co.tuples[v * k + t];
    return;
  }
  std::uint64_t x = co.reach.select(v);
  for (std::size_t t = k; t-- > 0;) out[t] = x % co.members[t].size, x /= co.members[t].size;
}

std::uint64_t Space::group_value(const Coord& co, const Position& p) const {
  std::uint64_t x = 0;
  std::uint8_t a[64];
  for (const auto& m : co.members) {
    read_local(m, p, a);
    x = x * m.size + value_of(m, a);
  }
  return co.reach.index_of(x);  // ~0u when p is outside the reachable combinations
}

void Space::write_group(const Coord& co, std::uint64_t v, Position& p) const {
  const std::size_t k = co.members.size();
  std::uint64_t values[kMaxCoords];
  group_members(co, v, values);
  std::uint8_t a[64];
  for (std::size_t t = 0; t < k; ++t) {
    const Coord& m = co.members[t];
    local_of(m, values[t], m.parity_const, a);
    write_local(m, a, p);
  }
}

bool Space::contains(const Position& p) const {
  for (int c : fixed_cells_)
    if (p.lab[static_cast<std::size_t>(c)] != ref_.lab[static_cast<std::size_t>(c)]) return false;
  std::vector<const Coord*> leaves;
  for (const auto& co : coords_) {
    if (co.kind != Coord::Kind::Group) leaves.push_back(&co);
    for (const auto& m : co.members) leaves.push_back(&m);
  }
  for (const Coord* cp : leaves) {
    const Coord& co = *cp;
    if (co.kind == Coord::Kind::Ori) continue;
    std::vector<int> cnt(co.labels.size(), 0);
    for (int c : co.cells) {
      const auto l = co.local_label[p.lab[static_cast<std::size_t>(c)]];
      if (l == 255) return false;
      ++cnt[l];
    }
    for (std::size_t i = 0; i < cnt.size(); ++i)
      if (cnt[i] != (co.kind == Coord::Kind::Perm ? 1 : co.counts[i])) return false;
  }
  for (const auto& co : coords_)
    if (co.kind == Coord::Kind::Group && group_value(co, p) == ~0u) return false;
  // Orientations outside an Ori coordinate are constant; parity and sums: round trip.
  Position q = unrank(rank(p));
  for (int i = 0; i < d_->positions; ++i)
    if (q.lab[static_cast<std::size_t>(i)] != p.lab[static_cast<std::size_t>(i)] ||
        q.ori[static_cast<std::size_t>(i)] % d_->omod[static_cast<std::size_t>(i)] !=
            p.ori[static_cast<std::size_t>(i)] % d_->omod[static_cast<std::size_t>(i)])
      return false;
  return true;
}

std::uint64_t Space::rank(const Position& p) const {
  std::uint64_t r = 0;
  std::uint8_t a[64];
  for (const auto& co : coords_) {
    if (co.kind == Coord::Kind::Group) {
      r += group_value(co, p) * co.weight;
      continue;
    }
    read_local(co, p, a);
    r += value_of(co, a) * co.weight;
  }
  return r;
}

Position Space::unrank(std::uint64_t r) const {
  Position p = ref_;
  std::uint64_t c[kMaxCoords];
  std::uint8_t pin[kMaxCoords];
  digits(r, c, pin, true);
  std::uint8_t a[64];
  for (std::size_t j = 0; j < coords_.size(); ++j) {
    if (coords_[j].kind == Coord::Kind::Group) {
      write_group(coords_[j], c[j], p);
      continue;
    }
    local_of(coords_[j], c[j], pin[j], a);
    write_local(coords_[j], a, p);
  }
  return p;
}

std::vector<std::string> Space::describe() const {
  std::vector<std::string> out;
  auto where = [&](const Coord& co) {
    const auto& sd = d_->sets[static_cast<std::size_t>(d_->set_of[static_cast<std::size_t>(co.cells[0])])];
    std::string cells;
    for (int c : co.cells) cells += fmt::format("{}{}", cells.empty() ? "" : " ", c - sd.offset + 1);
    return fmt::format("{} positions {}", sd.name, cells);
  };
  for (const auto& co : coords_) {
    if (co.kind == Coord::Kind::Group) {
      std::uint64_t product = 1;
      for (const auto& m : co.members) product *= m.size;
      out.push_back(fmt::format("{} combinations reachable together (of {}; the moves tie these):", co.size, product));
      for (const auto& m : co.members) out.push_back(fmt::format("  {}: {} {}", where(m), m.size, m.kind == Coord::Kind::Ori ? "orientations" : "arrangements"));
      continue;
    }
    std::string what;
    switch (co.kind) {
      case Coord::Kind::Perm:
        what = co.half ? fmt::format("{}!/2 arrangements ({})", co.k,
                                     co.deps.empty() ? "every move is even here" : "parity tied to other orbits")
                       : fmt::format("{}! arrangements", co.k);
        break;
      case Coord::Kind::Multiset: what = fmt::format("{} arrangements (identical pieces)", co.size); break;
      case Coord::Kind::Group: break;
      case Coord::Kind::Ori:
        what = co.ndigits < co.k ? fmt::format("{}^{} orientations (the sum is kept)", co.n, co.ndigits)
                                 : fmt::format("{}^{} orientations", co.n, co.ndigits);
        break;
    }
    out.push_back(fmt::format("{}: {}", where(co), what));
  }
  return out;
}

}  // namespace tansaku::perm
