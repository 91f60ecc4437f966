// Pattern tables reduced by symmetry (see pattern_reduction.h).
#include "perm/pattern_reduction.h"

#include <exception>
#include <thread>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/memory_error.h"
#include "tansaku/core/two_bit_table.h"
#include "tansaku/pdb/build.h"

namespace tansaku::perm {
namespace {

constexpr std::uint8_t kDropped = 255;  // the label of every piece outside a part (pattern labels are below)
constexpr std::size_t kMaxKept = 64;    // symmetries kept (a stabilizer is a 64-bit mask)

// The projected puzzle with only the sets in `keep` (others: one label, no orientation).
void restrict_to(const std::vector<bool>& keep, Definition& pd, MoveSet& pms) {
  for (int i = 0; i < pd.positions; ++i) {
    const auto u = static_cast<std::size_t>(i);
    if (keep[static_cast<std::size_t>(pd.set_of[u])]) continue;
    pd.solved.lab[u] = kDropped;
    pd.solved.ori[u] = 0;
    pd.omod[u] = 1;
    for (auto& g : pms.gens) g.p.twist[u] = 0;
  }
}

}  // namespace

PatternReduction::PatternReduction(const Definition& d, const std::vector<std::uint8_t>& lab_map, const Definition& pd,
                                   const MoveSet& pms, const std::vector<Perm>& group, const search::Limits& lim,
                                   const ClassTable* given, const SymMoveTable* given_moves, SolveCap cap,
                                   const ClassReps* reps)
    : pdb_(pd), pdr_(pd), pmsb_(pms), pmsr_(pms), group_(group) {
  const unsigned threads = lim.threads;
  const std::size_t nsets = d.sets.size();
  for (int i = 0; i < d.positions; ++i)
    if (d.solved.ori[static_cast<std::size_t>(i)] != 0)
      throw InputError("a table reduced by symmetry needs a Solved block with every orientation 0");
  // The sets the pattern keeps something of; the big part is the one of most values.
  std::vector<bool> kept_set(nsets, false);
  for (int i = 0; i < d.positions; ++i) {
    const auto u = static_cast<std::size_t>(i);
    const auto s = static_cast<std::size_t>(d.set_of[u]);
    if (pd.omod[u] > 1) kept_set[s] = true;
    for (int l = 0; l < d.sets[s].size; ++l)
      if (lab_map[u * 256 + static_cast<std::size_t>(l)] != lab_map[u * 256]) kept_set[s] = true;
  }
  int big = -1;
  std::uint64_t big_size = 0;
  for (std::size_t s = 0; s < nsets; ++s) {
    if (!kept_set[s]) continue;
    std::vector<bool> only(nsets, false);
    only[s] = true;
    Definition p1 = pd;
    MoveSet m1 = pms;
    restrict_to(only, p1, m1);
    const Space sp(p1, m1, p1.solved, 0);
    if (big < 0 || sp.size() > big_size) big = static_cast<int>(s), big_size = sp.size();
  }
  if (big < 0) throw InputError("a reduced pattern that keeps nothing");
  big_name_ = d.sets[static_cast<std::size_t>(big)].name;
  std::vector<bool> only_big(nsets, false), rest(nsets, false);
  only_big[static_cast<std::size_t>(big)] = true;
  for (std::size_t s = 0; s < nsets; ++s) rest[s] = kept_set[s] && static_cast<int>(s) != big;
  restrict_to(only_big, pdb_, pmsb_);
  restrict_to(rest, pdr_, pmsr_);
  big_ = std::make_unique<Space>(pdb_, pmsb_, pdb_.solved, std::uint64_t{256} << 20, threads);
  rest_ = std::make_unique<Space>(pdr_, pmsr_, pdr_.solved, std::uint64_t{256} << 20, threads);
  nb_ = big_->size();
  nr_ = rest_->size();
  nm_ = static_cast<int>(pms.gens.size());
  if (nb_ > (std::uint64_t{1} << 32))
    throw InputError(fmt::format("set {} of a reduced pattern has {} values; at most 2^32", big_name_, nb_));
  if (nr_ > (std::uint64_t{1} << 24)) throw InputError(fmt::format("the rest of a reduced pattern has {} values; at most 2^24", nr_));
  for (const auto& g : pms.gens) symmetric_ = symmetric_ && g.inverse >= 0;

  // The symmetries that map the pattern onto itself: per set, the (projected) label a
  // label's home goes to and the orientation it adds must agree over each projected label.
  for (const Perm& g : group) {
    const Perm inv = d.inverse(g);
    Sym sym{g, inv, std::vector<std::uint8_t>(nsets * 256, 0), std::vector<std::uint8_t>(nsets * 256, 0)};
    std::vector<std::uint8_t> seen(nsets * 256, 0);
    bool ok = true;
    for (int i = 0; i < d.positions && ok; ++i) {
      const auto u = static_cast<std::size_t>(i);
      if (d.set_of[static_cast<std::size_t>(g.perm[u])] != d.set_of[u]) ok = false;
    }
    for (int h = 0; h < d.positions && ok; ++h) {  // h: the home of label x
      const auto u = static_cast<std::size_t>(h);
      const auto s = static_cast<std::size_t>(d.set_of[u]);
      const std::uint8_t x = d.solved.lab[u];
      const std::uint8_t L = lab_map[u * 256 + x];
      const std::uint8_t to = lab_map[u * 256 + d.solved.lab[inv.perm[u]]];
      const std::uint8_t add = pd.omod[u] > 1 ? static_cast<std::uint8_t>(inv.twist[u] % pd.omod[u]) : 0;
      if (!seen[s * 256 + L]) {
        seen[s * 256 + L] = 1;
        sym.relabel[s * 256 + L] = to;
        sym.add[s * 256 + L] = add;
      } else if (sym.relabel[s * 256 + L] != to || sym.add[s * 256 + L] != add) {
        ok = false;
      }
    }
    kept_.push_back(ok);
    if (ok) syms_.push_back(std::move(sym));
  }
  if (syms_.size() < 2)
    throw InputError(fmt::format("no symmetry of {}.sym maps the pattern onto itself: it cannot be reduced", d.name));
  if (syms_.size() > kMaxKept)
    throw InputError(fmt::format("{} symmetries map the pattern onto itself; at most {}", syms_.size(), kMaxKept));
  while ((std::size_t{1} << sym_bits_) < syms_.size()) ++sym_bits_;
  sym_mask_ = (std::uint32_t{1} << sym_bits_) - 1;

  // The rest: its moves and its conjugates.
  rest_moves_.resize(nr_ * static_cast<std::uint64_t>(nm_));
  for (std::uint64_t r = 0; r < nr_; ++r)
    rest_->for_each_move_rank(r, [&](int m, std::uint64_t t) {
      rest_moves_[r * static_cast<std::uint64_t>(nm_) + static_cast<std::uint64_t>(m)] = static_cast<std::uint32_t>(t);
    });
  conj_.resize(syms_.size() * nr_);
  for (std::size_t k = 0; k < syms_.size(); ++k)
    for (std::uint64_t r = 0; r < nr_; ++r) {
      const Position q = conjugate(syms_[k], rest_->unrank(r), pdr_);
      if (!rest_->contains(q)) throw std::logic_error("perm: a symmetry leaves the pattern's space");
      conj_[k * nr_ + r] = static_cast<std::uint32_t>(rest_->rank(q));
    }
  if (given) {
    adopt_classes(*given);
  } else if (reps) {
    if (!given_moves) throw InputError("a reduced table without its sym-move table");
    adopt_representatives(*reps);
  } else {
    // At least as many classes as values over symmetries: what a solve and the build hold
    // at the least (the class and sym-move tables, and the cells: tansaku/pdb/build.h, 2-bit
    // cells, the least build).
    const std::uint64_t classes = nb_ / syms_.size(), cells = classes * nr_;
    const std::uint64_t least = solve_bytes_for(classes, cap.bits);
    if (cap.bytes && least > cap.bytes)
      throw MemoryRefused(fmt::format("a solve holds at least {} of this pattern's tables, above {}",
                                      format_size(least), format_size(cap.bytes)));
    if (cap.precheck) cap.precheck(least, cells);
    require_memory(side_bytes_for(classes) + tansaku::pdb::build_bytes(cells, 2), lim.memory,
                   fmt::format("a pattern reduced by {} symmetries (a class table of {} values, about {} cells)",
                               syms_.size(), nb_, cells));
    build_classes(lim);
  }
  build_symmetry_tables();
  build_sym_moves(given_moves, lim);
}

std::uint64_t PatternReduction::solve_bytes_for(std::uint64_t classes, int bits) const {
  const std::uint64_t cells = TwoBitTable::bytes_for(classes * nr_ * static_cast<std::uint64_t>(bits / 2));
  if (bits == 4) return cells + side_bytes_for(classes);
  // The sym-move table, and per class its representative and fixing symmetries (rep_, stab_id_).
  return cells + packed_bytes(classes * static_cast<std::uint64_t>(nm_), entry_bits(classes)) + 5 * classes;
}

std::uint32_t PatternReduction::entry_by_conjugates(std::uint64_t v) const {
  // The least image is the representative; the symmetry giving it takes v there.
  const Position p = big_->unrank(v);
  std::uint64_t least = v;
  std::size_t by = 0;
  for (std::size_t a = 1; a < syms_.size(); ++a) {
    const std::uint64_t w = big_->rank(conjugate(syms_[a], p, pdb_));
    if (w < least) least = w, by = a;
  }
  const auto it = std::lower_bound(rep_.begin(), rep_.end(), least);
  if (it == rep_.end() || *it != least)
    throw std::logic_error("perm: a value whose least conjugate is no representative");
  const auto k = static_cast<std::uint64_t>(it - rep_.begin());
  const std::uint32_t flag = stab_id_[k] ? sym_mask_ + 1 : 0;
  return static_cast<std::uint32_t>(k << (sym_bits_ + 1)) | flag | static_cast<std::uint32_t>(by);
}

void PatternReduction::build_symmetry_tables() {
  // Sample values of each part (all of a small part), as positions and ranks.
  auto samples = [](const Space& sp) {
    std::vector<std::uint64_t> v;
    const std::uint64_t n = sp.size();
    if (n <= 4096) {
      for (std::uint64_t x = 0; x < n; ++x) v.push_back(x);
    } else {
      std::uint64_t x = 0x9e3779b97f4a7c15ull;
      for (int i = 0; i < 256; ++i) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        v.push_back(x % n);
      }
    }
    return v;
  };
  const std::vector<std::uint64_t> bs = samples(*big_), rs = samples(*rest_);
  const std::size_t ns = syms_.size(), nm = static_cast<std::size_t>(nm_);
  // image[s][i]: sample i of the big part conjugated by s (rank).
  std::vector<std::vector<std::uint64_t>> image(ns, std::vector<std::uint64_t>(bs.size()));
  for (std::size_t a = 0; a < ns; ++a)
    for (std::size_t i = 0; i < bs.size(); ++i) image[a][i] = big_->rank(conjugate(syms_[a], big_->unrank(bs[i]), pdb_));
  auto conj_big = [&](std::size_t a, std::uint64_t v) { return big_->rank(conjugate(syms_[a], big_->unrank(v), pdb_)); };
  // compose_[t * ns + s]: the u with conj_u = conj_t after conj_s on both parts.
  compose_.assign(ns * ns, 0);
  std::vector<std::uint64_t> twice(bs.size());
  for (std::size_t t = 0; t < ns; ++t)
    for (std::size_t s = 0; s < ns; ++s) {
      for (std::size_t i = 0; i < bs.size(); ++i) twice[i] = conj_big(t, image[s][i]);
      std::size_t found = ns;
      for (std::size_t u = 0; u < ns && found == ns; ++u) {
        bool same = true;
        for (std::size_t i = 0; i < bs.size() && same; ++i) same = twice[i] == image[u][i];
        for (std::size_t i = 0; i < rs.size() && same; ++i) same = conj_[t * nr_ + conj_[s * nr_ + rs[i]]] == conj_[u * nr_ + rs[i]];
        if (same) found = u;
      }
      if (found == ns) throw std::logic_error("perm: the symmetries that keep a pattern are not closed under composition");
      compose_[t * ns + s] = static_cast<std::uint8_t>(found);
    }
  // move_conj_[s * nm + m]: the move m' with conj_s(m(x)) = m'(conj_s(x)) on the big part.
  move_conj_.assign(ns * nm, 0);
  std::vector<std::vector<std::uint64_t>> moved(bs.size(), std::vector<std::uint64_t>(nm)), moved_image(bs.size());
  for (std::size_t i = 0; i < bs.size(); ++i)
    big_->for_each_move_rank(bs[i], [&](int m, std::uint64_t t) { moved[i][static_cast<std::size_t>(m)] = t; });
  for (std::size_t s = 0; s < ns; ++s) {
    for (std::size_t i = 0; i < bs.size(); ++i) {
      moved_image[i].assign(nm, 0);
      big_->for_each_move_rank(image[s][i], [&](int m, std::uint64_t t) { moved_image[i][static_cast<std::size_t>(m)] = t; });
    }
    for (std::size_t m = 0; m < nm; ++m) {
      for (std::size_t i = 0; i < bs.size(); ++i) twice[i] = conj_big(s, moved[i][m]);
      std::size_t found = nm;
      for (std::size_t c = 0; c < nm && found == nm; ++c) {
        bool same = true;
        for (std::size_t i = 0; i < bs.size() && same; ++i) same = twice[i] == moved_image[i][c];
        if (same) found = c;
      }
      if (found == nm) throw std::logic_error("perm: a symmetry that keeps a pattern does not map its moves onto moves");
      move_conj_[s * nm + m] = static_cast<std::uint16_t>(found);
    }
  }
  // The class table gives representatives the first symmetry: it must be the identity.
  bool identity = true;
  for (std::size_t m = 0; m < nm; ++m) identity = identity && move_conj_[m] == m;
  for (std::size_t s = 0; s < ns; ++s) identity = identity && compose_[s] == s && compose_[s * ns] == s;
  if (!identity) throw std::logic_error("perm: the first symmetry is not the identity");
}

void PatternReduction::build_sym_moves(const SymMoveTable* given, const search::Limits& lim) {
  const std::uint64_t n = classes_ * static_cast<std::uint64_t>(nm_);
  move_bits_ = entry_bits(classes_);
  if (given) {
    if (given->count != n || !given->data) throw InputError("a sym-move table of another size");
    if (given->bits) {  // packed as held
      if (given->bits != move_bits_ || given->bytes != packed_bytes(n, move_bits_))
        throw InputError("a sym-move table of another layout");
      sym_moves_ = static_cast<const std::uint8_t*>(given->data);
      sym_moves_owner_ = given->owner;
      return;
    }
    // 32-bit words (a file written before the packing): packed here.
    const auto* words = static_cast<const std::uint32_t*>(given->data);
    sym_moves_store_.assign(packed_bytes(n, move_bits_) / 8, 0);
    auto* out = reinterpret_cast<std::uint8_t*>(sym_moves_store_.data());
    for (std::uint64_t i = 0; i < n; ++i) {
      if (words[i] >> move_bits_) throw InputError("a sym-move table of another layout");
      packed_put(out, i, move_bits_, words[i]);
    }
    sym_moves_ = out;
    return;
  }
  // Row k: the class table entries of representative k's neighbours, in move order (in
  // parallel: parts of the classes per thread, as 32-bit words), then packed.
  std::vector<std::uint32_t, HugeAlloc<std::uint32_t>> words(n);
  const unsigned threads = std::max(1u, lim.threads);
  std::vector<std::exception_ptr> errors(threads);
  auto part = [&](unsigned p) {
    try {
      const std::uint64_t lo = classes_ * p / threads, hi = classes_ * (p + 1) / threads;
      for (std::uint64_t k = lo; k < hi; ++k) {
        if (p == 0 && (k & 0xffff) == 0) {
          if (lim.deadline) lim.deadline->check();
          if (lim.progress) lim.progress->update("sym-move table of set {}: {}%", big_name_, (k - lo) * 100 / std::max<std::uint64_t>(1, hi - lo));
        }
        std::uint32_t* row = words.data() + k * static_cast<std::uint64_t>(nm_);
        big_->for_each_move_rank(rep_[k], [&](int m, std::uint64_t t) { row[m] = cls_[t]; });
      }
    } catch (...) {
      errors[p] = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> pool;
    for (unsigned p = 1; p < threads; ++p) pool.emplace_back(part, p);
    part(0);
  }
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  sym_moves_store_.assign(packed_bytes(n, move_bits_) / 8, 0);
  auto* out = reinterpret_cast<std::uint8_t*>(sym_moves_store_.data());
  for (std::uint64_t i = 0; i < n; ++i) packed_put(out, i, move_bits_, words[i]);
  sym_moves_ = out;
}

Position PatternReduction::part_of(const Position& projected, const Definition& part) {
  Position q = projected;
  for (int i = 0; i < part.positions; ++i) {
    const auto u = static_cast<std::size_t>(i);
    if (part.solved.lab[u] == kDropped) q.lab[u] = kDropped;
    if (part.omod[u] < 2) q.ori[u] = 0;
  }
  return q;
}

bool PatternReduction::preserved_by(const Perm& s) const {
  for (std::size_t k = 0; k < group_.size(); ++k)
    if (group_[k] == s) return kept_[k] != 0;
  return false;
}

Position PatternReduction::conjugate(const Sym& s, const Position& p, const Definition& part) const {
  Position q;
  for (int i = 0; i < part.positions; ++i) {
    const auto u = static_cast<std::size_t>(i);
    const std::size_t j = s.p.perm[u];
    const std::size_t key = static_cast<std::size_t>(part.set_of[u]) * 256 + p.lab[j];
    // Labels outside the part are one label, which every symmetry keeps.
    q.lab[u] = p.lab[j] == kDropped ? kDropped : s.relabel[key];
    const int n = part.omod[u];
    // S's twist plus the orientation S^-1 G gives there, reversed when S is a mirror.
    q.ori[u] = 0;
    if (n > 1) {
      const int o = (p.ori[j] + s.add[key]) % n;
      q.ori[u] = static_cast<std::uint8_t>((s.p.twist[u] + (s.p.mirror ? n - o : o)) % n);
    }
  }
  return q;
}

void PatternReduction::adopt_classes(const ClassTable& given) {
  if (given.size != nb_ || !given.words) throw InputError("a class table of another size");
  cls_ = given.words;
  cls_owner_ = given.owner;
  // Representatives: the values taken to themselves by the identity (symmetry 0), in order;
  // the symmetries fixing a flagged one, anew.
  stab_masks_.assign(1, 1);
  for (std::uint64_t v = 0; v < nb_; ++v) {
    const std::uint32_t e = cls_[v];
    const std::uint64_t k = e >> (sym_bits_ + 1);
    if ((e & sym_mask_) >= syms_.size() || k > classes_ || (k == classes_ && (e & sym_mask_) != 0))
      throw InputError("a class table that does not fit the pattern");
    if (k < classes_) continue;
    ++classes_;
    rep_.push_back(static_cast<std::uint32_t>(v));
    std::uint8_t id = 0;
    if (e & (sym_mask_ + 1)) id = stab_id_of(stabilizer(v));
    stab_id_.push_back(id);
  }
}

std::uint64_t PatternReduction::stabilizer(std::uint64_t v) const {
  const Position p = big_->unrank(v);
  std::uint64_t stab = 0;
  for (std::size_t a = 0; a < syms_.size(); ++a)
    if (big_->rank(conjugate(syms_[a], p, pdb_)) == v) stab |= std::uint64_t{1} << a;
  return stab;
}

void PatternReduction::adopt_representatives(const ClassReps& given) {
  const std::size_t n = given.reps.size();
  if (given.fixed.size() != n || n == 0) throw InputError("representatives that do not fit the pattern");
  stab_masks_.assign(1, 1);
  rep_.assign(given.reps.begin(), given.reps.end());
  stab_id_.assign(n, 0);
  for (std::size_t k = 0; k < n; ++k) {
    if (rep_[k] >= nb_ || (k && rep_[k] <= rep_[k - 1]) || given.fixed[k] > 1)
      throw InputError("representatives that do not fit the pattern");
    if (!given.fixed[k]) continue;
    const std::uint64_t stab = stabilizer(rep_[k]);
    if (stab == 1) throw InputError("representatives that do not fit the pattern");
    stab_id_[k] = stab_id_of(stab);
  }
  classes_ = n;
  if (classes_ > (std::uint64_t{1} << (32 - sym_bits_ - 1)))
    throw InputError("representatives that do not fit the pattern");
}

std::uint8_t PatternReduction::stab_id_of(std::uint64_t stab) {
  const auto it = std::find(stab_masks_.begin(), stab_masks_.end(), stab);
  if (it != stab_masks_.end()) return static_cast<std::uint8_t>(it - stab_masks_.begin());
  if (stab_masks_.size() >= 255) throw InputError("a reduced pattern with too many kinds of fixed points");
  stab_masks_.push_back(stab);
  return static_cast<std::uint8_t>(stab_masks_.size() - 1);
}

void PatternReduction::build_classes(const search::Limits& lim) {
  // In increasing order: a value not met yet is the least of its orbit, its class's
  // representative; its images under the kept symmetries join the class.
  constexpr std::uint32_t kNone = ~std::uint32_t{0};
  cls_store_.assign(nb_, kNone);
  std::vector<std::uint32_t> inverse(syms_.size());
  for (std::size_t a = 0; a < syms_.size(); ++a)
    for (std::size_t b = 0; b < syms_.size(); ++b)
      if (syms_[b].p == syms_[a].inv) inverse[a] = static_cast<std::uint32_t>(b);
  stab_masks_.assign(1, 1);  // the identity alone
  const std::uint64_t max_classes = std::uint64_t{1} << (32 - sym_bits_ - 1);
  for (std::uint64_t v = 0; v < nb_; ++v) {
    if (cls_store_[v] != kNone) continue;
    const std::uint64_t k = classes_++;
    // The work is per class (its images under every symmetry), and the first values are
    // nearly all new classes: so the deadline is watched per class made, not per value.
    if ((k & 0x3ff) == 0) {
      if (lim.deadline) lim.deadline->check();
      if (lim.progress) lim.progress->update("classes of set {} under {} symmetries: {}%", big_name_, syms_.size(), v * 100 / nb_);
    }
    if (k >= max_classes) throw InputError(fmt::format("a reduced pattern with more than {} classes", max_classes));
    rep_.push_back(static_cast<std::uint32_t>(v));
    const Position p = big_->unrank(v);
    std::uint64_t stab = 0;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> members;
    for (std::size_t a = 0; a < syms_.size(); ++a) {
      const Position q = conjugate(syms_[a], p, pdb_);
      if (!big_->contains(q)) throw std::logic_error("perm: a symmetry leaves the pattern's space");
      const std::uint64_t w = big_->rank(q);
      if (w == v) stab |= std::uint64_t{1} << a;
      if (cls_store_[w] == kNone) {
        cls_store_[w] = 0;
        members.emplace_back(w, inverse[a]);
      }
    }
    std::uint8_t id = 0;
    if (stab != 1) id = stab_id_of(stab);
    stab_id_.push_back(id);
    const std::uint32_t flag = id ? sym_mask_ + 1 : 0;
    for (const auto& [w, s] : members) cls_store_[w] = static_cast<std::uint32_t>(k << (sym_bits_ + 1)) | flag | s;
  }
  cls_ = cls_store_.data();
}

}  // namespace tansaku::perm
