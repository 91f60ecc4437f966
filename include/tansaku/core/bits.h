// Bit tricks used by rankers and bitboards: popcount, parallel bit extract/deposit
// (BMI2 when the target has it, portable loops otherwise).
#pragma once
#include <bit>
#include <cstdint>
#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace tansaku::bits {

inline int popcount(std::uint64_t x) { return std::popcount(x); }

// A 64-bit mixer (the finaliser of MurmurHash3) for open-addressing hash tables.
inline std::uint64_t mix64(std::uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  return k ^ (k >> 33);
}
inline int lowest(std::uint64_t x) { return std::countr_zero(x); }

// Gathers the bits of x selected by mask into the low bits of the result.
inline std::uint64_t extract(std::uint64_t x, std::uint64_t mask) {
#if defined(__BMI2__)
  return _pext_u64(x, mask);
#else
  std::uint64_t r = 0;
  for (std::uint64_t bit = 1; mask; mask &= mask - 1, bit <<= 1)
    if (x & mask & -mask) r |= bit;
  return r;
#endif
}

// Scatters the low bits of x to the positions selected by mask.
inline std::uint64_t deposit(std::uint64_t x, std::uint64_t mask) {
#if defined(__BMI2__)
  return _pdep_u64(x, mask);
#else
  std::uint64_t r = 0;
  for (std::uint64_t bit = 1; mask; mask &= mask - 1, bit <<= 1)
    if (x & bit) r |= mask & -mask;
  return r;
#endif
}

// Position of the k-th (0-based) set bit of mask.
inline int select(std::uint64_t mask, int k) { return lowest(deposit(std::uint64_t{1} << k, mask)); }

}  // namespace tansaku::bits
