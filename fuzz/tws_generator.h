// Random permutation-puzzle definitions (.tws) built from a byte string, and the properties
// every definition that loads must have: shared by the libFuzzer harness
// fuzz_perm_generated.cpp and the deterministic walk of tests/perm_names.cpp (issue 37: a base
// move R2 beside R loaded, so a printed solution could not be read back; a Solved row "1 3 3"
// loaded though twsearch refuses it). The generator favours what found those: move names that
// are powers of one another, primes, digits, commas; piece numbers with gaps.
#pragma once
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "perm/definition.h"
#include "perm/generators.h"
#include "tansaku/core/error.h"

namespace tansaku::fuzz {

// Reads the bytes in turn (zeros once they run out).
struct ByteSource {
  const std::uint8_t* p;
  std::size_t n, i = 0;
  unsigned next() { return i < n ? p[i++] : 0u; }
  int below(int k) { return static_cast<int>(next() % static_cast<unsigned>(k)); }
};

inline std::string generate_tws(ByteSource& b) {
  static const char* const kMoveNames[] = {"R", "R2",  "R'",  "R3", "U",   "U2", "U'",
                                           "F", "R2'", "R22", "RU", "R,U", "2",  "x"};
  static const char* const kSetNames[] = {"P", "Q", "C", "3P", "?", "P,Q", "E"};
  std::string t;
  if (b.below(2)) t += "Name gen\n";
  const int sets = 1 + b.below(2);
  std::vector<std::string> names;
  std::vector<int> size, omod;
  for (int s = 0; s < sets; ++s) {
    names.push_back(kSetNames[b.below(7)]);
    size.push_back(1 + b.below(5));
    omod.push_back(1 + b.below(3));
    t += "Set " + names.back() + " " + std::to_string(size.back()) + " " + std::to_string(omod.back()) + "\n";
  }
  t += "Solved\n";
  for (int s = 0; s < sets; ++s) {
    if (b.below(4) == 0) continue;  // the identity
    t += names[static_cast<std::size_t>(s)] + "\n";
    const bool gaps = b.below(3) == 0;
    for (int j = 0; j < size[static_cast<std::size_t>(s)]; ++j)
      t += std::to_string(gaps ? 1 + b.below(size[static_cast<std::size_t>(s)] + 1) : j + 1) + " ";
    t += "\n";
  }
  t += "End\n";
  const int moves = 1 + b.below(4);
  for (int m = 0; m < moves; ++m) {
    t += std::string("Move ") + kMoveNames[b.below(14)] + "\n";
    for (int s = 0; s < sets; ++s) {
      if (b.below(3) == 0) continue;
      const auto n = static_cast<std::size_t>(size[static_cast<std::size_t>(s)]);
      std::vector<int> perm(n);
      for (std::size_t j = 0; j < n; ++j) perm[j] = static_cast<int>(j) + 1;
      for (std::size_t j = n; j > 1; --j)
        std::swap(perm[j - 1], perm[static_cast<std::size_t>(b.below(static_cast<int>(j)))]);
      t += names[static_cast<std::size_t>(s)] + "\n";
      for (int v : perm) t += std::to_string(v) + " ";
      t += "\n";
      if (omod[static_cast<std::size_t>(s)] > 1 && b.below(2)) {
        for (std::size_t j = 0; j < n; ++j) t += std::to_string(b.below(omod[static_cast<std::size_t>(s)])) + " ";
        t += "\n";
      }
    }
    t += "End\n";
  }
  return t;
}

// "" when the loaded definition `d` keeps the promises (every move name, power included,
// written one way only and read back as itself; piece numbers 1..k per set), else what broke.
inline std::string broken_promise(const perm::Definition& d) {
  for (const auto& sd : d.sets)
    for (std::size_t k = 0; k < sd.numbers.size(); ++k)
      if (sd.numbers[k] != static_cast<int>(k) + 1) return "set " + sd.name + ": piece numbers are not 1..k";
  perm::MoveSet ms;
  try {
    ms = perm::build_moves(d, "htm", "");
  } catch (const InputError&) {
    return "";  // a move that changes nothing: refused when the moves are built
  }
  std::set<std::string> seen;
  for (std::size_t i = 0; i < ms.gens.size(); ++i) {
    const auto& g = ms.gens[i];
    if (!seen.insert(g.name).second) return "two moves are written '" + g.name + "'";
    try {
      const auto back = perm::parse_sequence(d, ms, g.name, "fuzz");
      if (back.size() != 1 || back[0] != static_cast<int>(i)) return "'" + g.name + "' does not read back as itself";
      const auto any = perm::parse_sequence_any(d, g.name, "fuzz");
      if (any.size() != 1 || !(any[0] == g.p)) return "'" + g.name + "' reads back as another move of the definition";
    } catch (const InputError& e) {
      return "'" + g.name + "' cannot be read back: " + e.what();
    }
  }
  return "";
}

}  // namespace tansaku::fuzz
