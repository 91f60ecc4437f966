// A small, fast, seedable generator (SplitMix64, Steele-Lea-Flood 2014) for the randomised
// heuristics (local search, restarts): deterministic for a given seed, so runs repeat.
#pragma once
#include <cstdint>

namespace tansaku {

struct SplitMix64 {
  std::uint64_t s = 0;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }  // n > 0
};

}  // namespace tansaku
