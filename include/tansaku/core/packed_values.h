// Fixed-width unsigned values packed end to end: value i at bits [i w, i w + w) of a
// little-endian byte array, read with one unaligned 8-byte load. A table of many values of,
// say, 30 bits then takes 30 bits a value, not the 32 of a word (a sym-move table of half a
// billion entries: 120 MB less).
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

namespace tansaku {

static_assert(std::endian::native == std::endian::little, "packed values assume a little-endian machine");

// The bits a width must have for values up to `most`.
inline unsigned packed_width(std::uint64_t most) { return std::max(1u, static_cast<unsigned>(std::bit_width(most))); }

// The bytes `count` values of `bits` take, in whole 8-byte words, with one word more so that
// the 8-byte load of the last value stays inside.
inline std::uint64_t packed_bytes(std::uint64_t count, unsigned bits) { return ((count * bits + 63) / 64 + 1) * 8; }

// Value i (bits <= 57).
inline std::uint64_t packed_get(const std::uint8_t* base, std::uint64_t i, unsigned bits) {
  const std::uint64_t at = i * bits;
  std::uint64_t x;
  std::memcpy(&x, base + (at >> 3), 8);
  return (x >> (at & 7)) & ((std::uint64_t{1} << bits) - 1);
}

// Sets value i to v (below 2^bits; the other values' bits as they were; not thread-safe
// between neighbouring values).
inline void packed_put(std::uint8_t* base, std::uint64_t i, unsigned bits, std::uint64_t v) {
  const std::uint64_t at = i * bits;
  const std::uint64_t mask = ((std::uint64_t{1} << bits) - 1) << (at & 7);
  std::uint64_t x;
  std::memcpy(&x, base + (at >> 3), 8);
  x = (x & ~mask) | (v << (at & 7));
  std::memcpy(base + (at >> 3), &x, 8);
}

// The first and one past the last byte that values [i, j) occupy (to fetch them ahead).
inline std::uint64_t packed_first_byte(std::uint64_t i, unsigned bits) { return i * bits >> 3; }
inline std::uint64_t packed_end_byte(std::uint64_t j, unsigned bits) { return (j * bits + 7) >> 3; }

}  // namespace tansaku
