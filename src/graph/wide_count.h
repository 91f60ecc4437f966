// Counter types for the frontier DP: 64 and 128-bit integers, fixed-width multi-word
// integers for counts beyond 128 bits (tours of long boards), and a saturating counter
// for when only "zero or not" matters. add_overflow(a, b) adds b to a and reports overflow;
// to_mpz(a) hands the total over as the one count type (core/count.h).
#pragma once
#include <array>
#include <cstdint>
#include <limits>

#include "tansaku/core/count.h"

namespace tansaku::graph {

template <int N>
struct Wide {
  std::array<std::uint64_t, N> w{};  // little-endian words
  Wide(std::uint64_t x = 0) { w[0] = x; }  // NOLINT: counts convert from small integers
};

// Only tells zero from non-zero (adds saturate).
struct Saturating {
  std::uint64_t v = 0;
  Saturating(std::uint64_t x = 0) : v(x) {}  // NOLINT
};

inline bool add_overflow(std::uint64_t& a, std::uint64_t b) { return __builtin_add_overflow(a, b, &a); }
inline bool add_overflow(unsigned __int128& a, unsigned __int128 b) { return __builtin_add_overflow(a, b, &a); }
inline bool add_overflow(Saturating& a, Saturating b) {
  if (__builtin_add_overflow(a.v, b.v, &a.v)) a.v = std::numeric_limits<std::uint64_t>::max();
  return false;
}
template <int N>
bool add_overflow(Wide<N>& a, const Wide<N>& b) {
  unsigned carry = 0;
  for (int i = 0; i < N; ++i) {
    unsigned __int128 s = static_cast<unsigned __int128>(a.w[i]) + b.w[i] + carry;
    a.w[i] = static_cast<std::uint64_t>(s);
    carry = static_cast<unsigned>(s >> 64);
  }
  return carry != 0;
}

inline mpz_class to_mpz(Saturating x) { return x.v ? 1 : 0; }
template <int N>
mpz_class to_mpz(const Wide<N>& x) {
  return tansaku::to_mpz(x.w.data(), x.w.size());
}
using tansaku::to_mpz;

}  // namespace tansaku::graph
