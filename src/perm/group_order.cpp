// Deterministic Schreier-Sims (base, strong generators, Schreier generators sifted level by
// level from the deepest up; a residue joins the strong generators and the levels below
// its level are rebuilt).
#include "perm/group_order.h"

#include <gmpxx.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "tansaku/core/random.h"

namespace tansaku::perm {

namespace {

using P = std::vector<std::uint16_t>;  // image of each point

P mul(const P& a, const P& b) {  // a then b
  P c(a.size());
  for (std::size_t x = 0; x < a.size(); ++x) c[x] = b[a[x]];
  return c;
}
P inv(const P& a) {
  P c(a.size());
  for (std::size_t x = 0; x < a.size(); ++x) c[a[x]] = static_cast<std::uint16_t>(x);
  return c;
}
bool is_id(const P& a) {
  for (std::size_t x = 0; x < a.size(); ++x)
    if (a[x] != x) return false;
  return true;
}

class SchreierSims {
 public:
  SchreierSims(std::size_t n, const std::vector<P>& gens, const Deadline* deadline = nullptr)
      : n_(n), deadline_(deadline) {
    for (const auto& g : gens)
      if (!is_id(g)) add_strong(g);
    for (std::size_t i = 0; i < base_.size(); ++i) rebuild(i);
    std::size_t i = base_.size();
    while (i-- > 0) {
      if (auto j = check(i)) i = *j + 1;  // re-check from the level the residue reached
    }
    deadline_ = nullptr;  // the caller's, which need not outlive this
  }
  // A uniformly random element: every element is uniquely u_{k-1} then ... then u_0 with u_i
  // in the transversal of level i (what sift undoes, level by level), and there are
  // |orbit_0| x ... x |orbit_{k-1}| = |G| such products, so independent uniform choices of
  // the u_i give each element with the same probability.
  P random(SplitMix64& rng) const {
    P g(n_);
    for (std::size_t x = 0; x < n_; ++x) g[x] = static_cast<std::uint16_t>(x);
    for (std::size_t i = levels_.size(); i-- > 0;) {
      const Level& l = levels_[i];
      g = mul(g, *l.u[l.orbit[rng.uniform(l.orbit.size())]]);
    }
    return g;
  }
  // g is in the group: sifting it through every level leaves the identity.
  bool contains(const P& g) const {
    auto [level, residue] = sift(g, 0);
    return level == base_.size() && is_id(residue);
  }
  mpz_class order() const {
    mpz_class o = 1;
    for (const auto& l : levels_) o *= static_cast<unsigned long>(l.orbit.size());
    return o;
  }

 private:
  struct Level {
    std::vector<std::uint16_t> orbit;
    std::vector<std::optional<P>> u;  // u[pt]: base -> pt
  };
  bool fixes_base_prefix(const P& g, std::size_t k) const {
    for (std::size_t j = 0; j < k; ++j)
      if (g[base_[j]] != base_[j]) return false;
    return true;
  }
  void add_strong(const P& g) {
    strong_.push_back(g);
    if (fixes_base_prefix(g, base_.size())) {
      for (std::size_t x = 0; x < n_; ++x)
        if (g[x] != x) {
          base_.push_back(static_cast<std::uint16_t>(x));
          levels_.emplace_back();
          break;
        }
    }
  }
  void rebuild(std::size_t i) {
    Level& l = levels_[i];
    l.u.assign(n_, std::nullopt);
    l.orbit.clear();
    P id(n_);
    for (std::size_t x = 0; x < n_; ++x) id[x] = static_cast<std::uint16_t>(x);
    l.u[base_[i]] = id;
    l.orbit.push_back(base_[i]);
    for (std::size_t k = 0; k < l.orbit.size(); ++k) {
      const auto pt = l.orbit[k];
      for (const auto& s : strong_) {
        if (!fixes_base_prefix(s, i)) continue;
        const auto q = s[pt];
        if (!l.u[q]) {
          l.u[q] = mul(*l.u[pt], s);
          l.orbit.push_back(q);
        }
      }
    }
  }
  // Sifts h from level i; returns the level where it stopped and the residue.
  std::pair<std::size_t, P> sift(P h, std::size_t i) const {
    for (; i < base_.size(); ++i) {
      const auto b = h[base_[i]];
      if (!levels_[i].u[b]) return {i, h};
      h = mul(h, inv(*levels_[i].u[b]));
    }
    return {base_.size(), h};
  }
  // Checks the Schreier generators of level i; on a new strong generator returns the
  // deepest level rebuilt (the caller continues there).
  std::optional<std::size_t> check(std::size_t i) {
    for (std::size_t k = 0; k < levels_[i].orbit.size(); ++k) {
      if (deadline_) deadline_->check();
      const auto beta = levels_[i].orbit[k];
      for (std::size_t si = 0; si < strong_.size(); ++si) {
        const P s = strong_[si];
        if (!fixes_base_prefix(s, i)) continue;
        const P& ub = *levels_[i].u[beta];
        const P h = mul(mul(ub, s), inv(*levels_[i].u[s[beta]]));
        auto [j, r] = sift(h, i + 1);
        if (is_id(r)) continue;
        add_strong(r);
        for (std::size_t l = i + 1; l < base_.size(); ++l) rebuild(l);
        return std::min(j, base_.size() - 1);
      }
    }
    return std::nullopt;
  }

  std::size_t n_;
  const Deadline* deadline_ = nullptr;  // during construction only
  std::vector<P> strong_;
  std::vector<std::uint16_t> base_;
  std::vector<Level> levels_;
};

// The moves as permutations of the points (position i, orientation o) = start[i] + o.
struct Points {
  std::vector<std::size_t> start;
  std::size_t n = 0;
  std::vector<P> gens;
};

Points points_of(const Definition& d, const std::vector<const Perm*>& perms) {
  Points pts;
  pts.start.resize(static_cast<std::size_t>(d.positions));
  for (int i = 0; i < d.positions; ++i) pts.start[static_cast<std::size_t>(i)] = pts.n, pts.n += d.omod[static_cast<std::size_t>(i)];
  for (const Perm* pm : perms) {
    const Perm& m = *pm;
    P g(pts.n);
    for (int i = 0; i < d.positions; ++i) {
      const int from = m.perm[static_cast<std::size_t>(i)];
      const int om = d.omod[static_cast<std::size_t>(i)];
      for (int o = 0; o < om; ++o)
        g[pts.start[static_cast<std::size_t>(from)] + static_cast<std::size_t>(o)] =
            static_cast<std::uint16_t>(pts.start[static_cast<std::size_t>(i)] + static_cast<std::size_t>((o + m.twist[static_cast<std::size_t>(i)]) % om));
    }
    pts.gens.push_back(std::move(g));
  }
  return pts;
}

Points points_of(const Definition& d, const MoveSet& ms) {
  std::vector<const Perm*> perms;
  for (int b : ms.bases) perms.push_back(&d.moves[static_cast<std::size_t>(b)].p);
  return points_of(d, perms);
}

}  // namespace

std::string group_order(const Definition& d, const MoveSet& ms) {
  const Points pts = points_of(d, ms);
  SchreierSims ss(pts.n, pts.gens);
  return ss.order().get_str();
}

std::string group_order(const Definition& d, const std::vector<Perm>& generators) {
  std::vector<const Perm*> perms;
  for (const auto& g : generators) perms.push_back(&g);
  const Points pts = points_of(d, perms);
  SchreierSims ss(pts.n, pts.gens);
  return ss.order().get_str();
}

std::vector<Position> random_positions(const Definition& d, const MoveSet& ms, const Position& goal, std::uint64_t seed,
                                       std::size_t count, const Deadline* deadline) {
  const Points pts = points_of(d, ms);
  SchreierSims ss(pts.n, pts.gens);
  SplitMix64 rng{seed};
  std::vector<Position> out;
  for (std::size_t k = 0; k < count; ++k) {
    if (deadline) deadline->check();
    const P g = ss.random(rng);
    // Back to a Perm: the point (from, o) goes to (i, o + twist[i]).
    Perm m;
    m.perm.assign(static_cast<std::size_t>(d.positions), 0);
    m.twist.assign(static_cast<std::size_t>(d.positions), 0);
    std::vector<int> pos_of(pts.n);
    for (int i = 0; i < d.positions; ++i)
      for (std::size_t o = 0; o < d.omod[static_cast<std::size_t>(i)]; ++o) pos_of[pts.start[static_cast<std::size_t>(i)] + o] = i;
    for (int from = 0; from < d.positions; ++from) {
      const std::size_t to = g[pts.start[static_cast<std::size_t>(from)]];
      const int i = pos_of[to];
      m.perm[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(from);
      m.twist[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(to - pts.start[static_cast<std::size_t>(i)]);
    }
    out.push_back(d.applied(m, goal));
  }
  return out;
}

std::optional<bool> reachable(const Definition& d, const MoveSet& ms, const Position& goal, const Position& p,
                              std::string* order, const Deadline* deadline) {
  const auto N = static_cast<std::size_t>(d.positions);
  // The position in goal of each (set, label): distinct labels per set, else undecided.
  std::vector<int> where(N * 256, -1);
  for (std::size_t i = 0; i < N; ++i) {
    int& w = where[static_cast<std::size_t>(d.set_of[i]) * 256 + goal.lab[i]];
    if (w >= 0) return std::nullopt;
    w = static_cast<int>(i);
  }
  // m with p = goal applied m: p.lab[i] = goal.lab[perm[i]], p.ori[i] = goal.ori[perm[i]] + twist[i].
  const Points pts = points_of(d, ms);
  P g(pts.n);
  std::vector<bool> used(N, false);
  for (std::size_t i = 0; i < N; ++i) {
    const int from = where[static_cast<std::size_t>(d.set_of[i]) * 256 + p.lab[i]];
    if (from < 0 || used[static_cast<std::size_t>(from)]) return false;  // another multiset of pieces
    used[static_cast<std::size_t>(from)] = true;
    const int om = d.omod[i];
    const int twist = ((p.ori[i] - goal.ori[static_cast<std::size_t>(from)]) % om + om) % om;
    for (int o = 0; o < om; ++o)
      g[pts.start[static_cast<std::size_t>(from)] + static_cast<std::size_t>(o)] =
          static_cast<std::uint16_t>(pts.start[i] + static_cast<std::size_t>((o + twist) % om));
  }
  SchreierSims ss(pts.n, pts.gens, deadline);
  if (order) *order = ss.order().get_str();
  return ss.contains(g);
}

}  // namespace tansaku::perm
