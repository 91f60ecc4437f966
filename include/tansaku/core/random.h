// A small, fast, seedable generator (SplitMix64, Steele-Lea-Flood 2014) for the randomised
// heuristics (local search, restarts): deterministic for a given seed, so runs repeat.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>

namespace tansaku {

struct SplitMix64 {
  std::uint64_t s = 0;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }  // n > 0 (slightly biased: heuristics)
  // Exactly uniform in [0, n), n > 0 (rejection of the biased tail): random positions.
  std::uint64_t uniform(std::uint64_t n) {
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    for (;;)
      if (std::uint64_t x = next(); x < limit) return x % n;
  }
  // Fisher-Yates shuffle of v, uniform over its permutations.
  template <class V>
  void shuffle(V& v) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[uniform(i)]);
  }
};

}  // namespace tansaku
