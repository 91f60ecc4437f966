// A board's symmetry group from its geometry (lattice point groups plus a translation), the
// stabilisers of a position, and byte tables for canonical bitboards.
#include "peg/symmetry.h"

#include <algorithm>
#include <array>
#include <set>
#include <stdexcept>
#include <tuple>

namespace tansaku::peg {

namespace {

using Mat = std::array<int, 4>;  // (a, b) -> (m0 a + m1 b, m2 a + m3 b)

Mat mul(const Mat& x, const Mat& y) {
  return {x[0] * y[0] + x[1] * y[2], x[0] * y[1] + x[1] * y[3], x[2] * y[0] + x[3] * y[2], x[2] * y[1] + x[3] * y[3]};
}

// The lattice's point group, as integer matrices in its (a, b) basis.
std::vector<Mat> point_group(Lattice l) {
  std::vector<Mat> gens;
  if (l == Lattice::Triangular) gens = {{0, -1, 1, 1}, {1, 1, 0, -1}};  // rotation by 60 degrees, reflection
  else gens = {{0, -1, 1, 0}, {1, 0, 0, -1}};                            // rotation by 90 degrees, reflection
  std::vector<Mat> group = {{1, 0, 0, 1}};
  for (std::size_t i = 0; i < group.size(); ++i)
    for (const auto& g : gens) {
      Mat m = mul(g, group[i]);
      if (std::find(group.begin(), group.end(), m) == group.end()) group.push_back(m);
    }
  return group;
}

}  // namespace

std::vector<Perm> board_automorphisms(const Board& bd) {
  std::vector<Perm> out;
  auto lexmin = [](const std::vector<std::pair<int, int>>& v) { return *std::min_element(v.begin(), v.end()); };
  std::vector<std::pair<int, int>> orig;
  for (int h = 0; h < bd.n; ++h) orig.emplace_back(bd.a[h], bd.b[h]);
  const auto omin = lexmin(orig);
  std::set<std::tuple<int, int, int>> jumpset;
  for (const auto& j : bd.jumps) jumpset.insert(std::make_tuple(int{j.from}, int{j.over}, int{j.to}));
  for (const Mat& m : point_group(bd.lattice)) {
    std::vector<std::pair<int, int>> img;
    for (auto [a, b] : orig) img.emplace_back(m[0] * a + m[1] * b, m[2] * a + m[3] * b);
    const auto imin = lexmin(img);
    Perm p(static_cast<std::size_t>(bd.n));
    bool ok = true;
    for (int h = 0; h < bd.n && ok; ++h) {
      int t = bd.hole_at(img[h].first - imin.first + omin.first, img[h].second - imin.second + omin.second);
      if (t < 0) ok = false;
      else p[h] = static_cast<std::uint8_t>(t);
    }
    if (!ok || std::find(out.begin(), out.end(), p) != out.end()) continue;
    for (const auto& j : bd.jumps)
      if (!jumpset.count(std::make_tuple(int{p[j.from]}, int{p[j.over]}, int{p[j.to]})))
        throw std::logic_error("board symmetry does not preserve the jumps");
    out.push_back(std::move(p));
  }
  return out;  // the identity matrix comes first, so the identity permutation does too
}

Symmetry::Symmetry(const Board& bd, std::vector<Perm> group) : perms_(std::move(group)) {
  const int n = bd.n;
  bytes_ = (n + 7) / 8;
  jumps_ = static_cast<int>(bd.jumps.size());
  const int G = order();
  table_.assign(static_cast<std::size_t>(G) * bytes_ * 256, 0);
  for (int g = 0; g < G; ++g)
    for (int i = 0; i < bytes_; ++i)
      for (int v = 0; v < 256; ++v) {
        Bits r = 0;
        for (int k = 0; k < 8; ++k)
          if ((v >> k) & 1 && 8 * i + k < n) r |= Bits{1} << perms_[g][8 * i + k];
        table_[(static_cast<std::size_t>(g) * bytes_ + i) * 256 + v] = r;
      }
  inv_.assign(G, 0);
  for (int g = 0; g < G; ++g)
    for (int k = 0; k < G; ++k) {
      bool id = true;
      for (int h = 0; h < n && id; ++h) id = perms_[k][perms_[g][h]] == h;
      if (id) inv_[g] = k;
    }
  jump_img_.resize(static_cast<std::size_t>(G) * jumps_);
  for (int g = 0; g < G; ++g)
    for (int j = 0; j < jumps_; ++j) jump_img_[static_cast<std::size_t>(g) * jumps_ + j] = apply(g, bd.jumps[j].mask);
}

std::vector<Perm> Symmetry::stabiliser(const std::vector<Perm>& group, Bits pegs) {
  std::vector<Perm> out;
  for (const auto& p : group) {
    Bits img = 0;
    for (std::size_t h = 0; h < p.size(); ++h)
      if ((pegs >> h) & 1) img |= Bits{1} << p[h];
    if (img == pegs) out.push_back(p);
  }
  return out;
}

}  // namespace tansaku::peg
