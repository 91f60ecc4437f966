// Counts beyond 64 bits: GMP's mpz_class is the one type every interface uses for a count
// (inner loops may accumulate in machine integers and convert here at the boundary), and
// count_json is the one JSON rule: a number when the count fits 64 bits unsigned, a decimal
// string otherwise.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include <gmpxx.h>
#include <nlohmann/json.hpp>

namespace tansaku {

static_assert(sizeof(unsigned long) == 8, "mpz_class's unsigned long must hold 64 bits");

inline mpz_class to_mpz(std::uint64_t v) { return mpz_class(static_cast<unsigned long>(v)); }
inline mpz_class to_mpz(unsigned __int128 v) {
  mpz_class r = static_cast<unsigned long>(v >> 64);
  r <<= 64;
  r += static_cast<unsigned long>(v);
  return r;
}
// `n` little-endian 64-bit words.
inline mpz_class to_mpz(const std::uint64_t* words, std::size_t n) {
  mpz_class r;
  mpz_import(r.get_mpz_t(), n, -1, sizeof(std::uint64_t), 0, 0, words);
  return r;
}

inline bool fits_u64(const mpz_class& x) { return x.fits_ulong_p(); }
inline std::uint64_t to_u64(const mpz_class& x) { return x.get_ui(); }  // requires fits_u64(x)
inline std::string to_string(const mpz_class& x) { return x.get_str(); }

inline nlohmann::ordered_json count_json(const mpz_class& x) {
  return fits_u64(x) ? nlohmann::ordered_json(to_u64(x)) : nlohmann::ordered_json(to_string(x));
}

}  // namespace tansaku
