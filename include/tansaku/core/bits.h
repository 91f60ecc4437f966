// Bit tricks used by rankers and bitboards: popcount, parallel bit extract/deposit
// (BMI2 when the target has it; in a portable x86-64 build, the CPU's BMI2 chosen at run
// time when it has a fast one, else portable loops).
#pragma once
#include <bit>
#include <cstdint>
#if defined(__BMI2__)
#include <immintrin.h>
#elif defined(__x86_64__) && defined(__GNUC__) && defined(__linux__)
#define TANSAKU_BITS_RUNTIME_BMI2 1
#endif

namespace tansaku::bits {

#ifdef TANSAKU_BITS_RUNTIME_BMI2
// core/bits.cpp: whether the CPU has fast pext/pdep (set at start-up; false before), and the
// two instructions, compiled for BMI2 out of line.
extern const bool kCpuHasBmi2;
std::uint64_t extract_bmi2(std::uint64_t x, std::uint64_t mask);
std::uint64_t deposit_bmi2(std::uint64_t x, std::uint64_t mask);
#endif

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
#ifdef TANSAKU_BITS_RUNTIME_BMI2
  if (kCpuHasBmi2) return extract_bmi2(x, mask);
#endif
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
#ifdef TANSAKU_BITS_RUNTIME_BMI2
  if (kCpuHasBmi2) return deposit_bmi2(x, mask);
#endif
  std::uint64_t r = 0;
  for (std::uint64_t bit = 1; mask; mask &= mask - 1, bit <<= 1)
    if (x & bit) r |= mask & -mask;
  return r;
#endif
}

// Position of the k-th (0-based) set bit of mask.
inline int select(std::uint64_t mask, int k) { return lowest(deposit(std::uint64_t{1} << k, mask)); }

}  // namespace tansaku::bits
