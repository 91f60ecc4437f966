// Deterministic Schreier-Sims (base, strong generators, Schreier generators sifted level by
// level from the deepest up; a residue joins the strong generators and the levels below
// its level are rebuilt).
#include "perm/group_order.h"

#include <gmpxx.h>

#include <cstdint>
#include <optional>
#include <vector>

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
  SchreierSims(std::size_t n, const std::vector<P>& gens) : n_(n) {
    for (const auto& g : gens)
      if (!is_id(g)) add_strong(g);
    for (std::size_t i = 0; i < base_.size(); ++i) rebuild(i);
    std::size_t i = base_.size();
    while (i-- > 0) {
      if (auto j = check(i)) i = *j + 1;  // re-check from the level the residue reached
    }
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
  std::vector<P> strong_;
  std::vector<std::uint16_t> base_;
  std::vector<Level> levels_;
};

}  // namespace

std::string group_order(const Definition& d, const MoveSet& ms) {
  // Point (position i, orientation o) = start[i] + o.
  std::vector<std::size_t> start(static_cast<std::size_t>(d.positions));
  std::size_t n = 0;
  for (int i = 0; i < d.positions; ++i) start[static_cast<std::size_t>(i)] = n, n += d.omod[static_cast<std::size_t>(i)];
  std::vector<P> gens;
  for (int b : ms.bases) {
    const Perm& m = d.moves[static_cast<std::size_t>(b)].p;
    P g(n);
    for (int i = 0; i < d.positions; ++i) {
      const int from = m.perm[static_cast<std::size_t>(i)];
      const int om = d.omod[static_cast<std::size_t>(i)];
      for (int o = 0; o < om; ++o)
        g[start[static_cast<std::size_t>(from)] + static_cast<std::size_t>(o)] =
            static_cast<std::uint16_t>(start[static_cast<std::size_t>(i)] + static_cast<std::size_t>((o + m.twist[static_cast<std::size_t>(i)]) % om));
    }
    gens.push_back(std::move(g));
  }
  SchreierSims ss(n, gens);
  return ss.order().get_str();
}

}  // namespace tansaku::perm
