// The symmetry group of a board, found from its geometry: every rotation/reflection of the
// lattice (the 8 of the square lattices, the 12 of the triangular one) that, after a
// translation, maps the set of holes onto itself. Such a map also maps jumps to jumps, so
// positions related by it are equivalent. `Symmetry` applies a group (or a subgroup, e.g.
// the stabiliser of the start or of the finishing hole) to bitboards with byte tables and
// gives canonical representatives (the smallest image).
#pragma once
#include <cstdint>
#include <vector>

#include "peg/board.h"

namespace tansaku::peg {

using Perm = std::vector<std::uint8_t>;  // hole -> image hole

// Every automorphism of the board (the identity first).
std::vector<Perm> board_automorphisms(const Board& bd);

class Symmetry {
 public:
  Symmetry() = default;
  Symmetry(const Board& bd, std::vector<Perm> group);
  // The elements of `group` that map `pegs` onto itself.
  static std::vector<Perm> stabiliser(const std::vector<Perm>& group, Bits pegs);

  int order() const { return static_cast<int>(perms_.size()); }
  const Perm& perm(int g) const { return perms_[g]; }
  int inverse(int g) const { return inv_[g]; }
  const std::vector<Perm>& perms() const { return perms_; }

  Bits apply(int g, Bits b) const {
    const Bits* t = &table_[static_cast<std::size_t>(g) * bytes_ * 256];
    Bits r = 0;
    for (int i = 0; i < bytes_; ++i, t += 256) r |= t[(b >> (8 * i)) & 255];
    return r;
  }
  // Smallest image of b; *which = an element achieving it.
  Bits canonical(Bits b, int* which = nullptr) const {
    Bits best = b;
    int w = 0;
    for (int g = 1; g < order(); ++g) {
      Bits t = apply(g, b);
      if (t < best) best = t, w = g;
    }
    if (which) *which = w;
    return best;
  }
  // Number of elements fixing b.
  int stabiliser_size(Bits b) const {
    int s = 0;
    for (int g = 0; g < order(); ++g) s += apply(g, b) == b;
    return s;
  }
  // Image of the jump's mask under g, for incremental transforms of successors.
  Bits jump_image(int g, int j) const { return jump_img_[static_cast<std::size_t>(g) * jumps_ + j]; }
  int jumps() const { return jumps_; }

 private:
  std::vector<Perm> perms_;
  std::vector<int> inv_;
  int bytes_ = 0, jumps_ = 0;
  std::vector<Bits> table_;     // [g][byte][256]
  std::vector<Bits> jump_img_;  // [g][jump]
};

}  // namespace tansaku::peg
