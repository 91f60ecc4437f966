// Branch-free generation of the legal jumps of a position. The jumps are split into
// families that share a lattice direction, and each family into classes in which every
// start hole appears once. For a class, two byte-table maps give the start holes whose
// jumped-over hole holds a peg and those whose landing hole is empty; their AND with the
// position is the set of legal starts, read off bit by bit. A position of a 33-hole board
// costs a few dozen table lookups instead of a branch per candidate jump.
#pragma once
#include <bit>
#include <cstdint>
#include <vector>

#include "peg/board.h"

namespace tansaku::peg {

class JumpGen {
 public:
  explicit JumpGen(const Board& bd) : bytes_((bd.n + 7) / 8), all_(bd.all) {
    // Classes: one per (from, direction index); a direction is identified by the offset in
    // lattice coordinates, and every hole has at most one jump per direction.
    std::vector<std::pair<int, int>> dirs;
    std::vector<int> dir_of(bd.jumps.size());
    for (std::size_t i = 0; i < bd.jumps.size(); ++i) {
      const Jump& j = bd.jumps[i];
      std::pair<int, int> d{bd.a[j.over] - bd.a[j.from], bd.b[j.over] - bd.b[j.from]};
      int k = 0;
      while (k < static_cast<int>(dirs.size()) && dirs[k] != d) ++k;
      if (k == static_cast<int>(dirs.size())) dirs.push_back(d);
      dir_of[i] = k;
    }
    classes_.resize(dirs.size());
    for (auto& c : classes_) {
      c.over.assign(static_cast<std::size_t>(bytes_) * 256, 0);
      c.to.assign(static_cast<std::size_t>(bytes_) * 256, 0);
      c.jump.assign(64, -1);
    }
    for (std::size_t i = 0; i < bd.jumps.size(); ++i) {
      const Jump& j = bd.jumps[i];
      Class& c = classes_[dir_of[i]];
      c.jump[j.from] = static_cast<int>(i);
      c.starts |= Bits{1} << j.from;
      // over-map: bit `over` of the input sets bit `from`; to-map likewise for `to`.
      for (int v = 0; v < 256; ++v) {
        if ((v >> (j.over % 8)) & 1) c.over[(j.over / 8) * 256 + v] |= Bits{1} << j.from;
        if ((v >> (j.to % 8)) & 1) c.to[(j.to / 8) * 256 + v] |= Bits{1} << j.from;
      }
    }
  }

  // Calls f(jump index) for every legal jump of b.
  template <class F>
  void for_each(Bits b, F&& f) const {
    const Bits empty = all_ & ~b;
    for (const Class& c : classes_) {
      Bits ok = b & c.starts;
      if (!ok) continue;
      ok &= map(c.over, b);
      if (!ok) continue;
      ok &= map(c.to, empty);
      for (; ok; ok &= ok - 1) f(c.jump[std::countr_zero(ok)]);
    }
  }
  int count(Bits b) const {
    int n = 0;
    for_each(b, [&](int) { ++n; });
    return n;
  }

 private:
  struct Class {
    Bits starts = 0;
    std::vector<Bits> over, to;  // [byte][256]
    std::vector<int> jump;       // by start hole
  };
  Bits map(const std::vector<Bits>& t, Bits x) const {
    Bits r = 0;
    const Bits* p = t.data();
    for (int i = 0; i < bytes_; ++i, p += 256) r |= p[(x >> (8 * i)) & 255];
    return r;
  }
  int bytes_;
  Bits all_;
  std::vector<Class> classes_;
};

}  // namespace tansaku::peg
