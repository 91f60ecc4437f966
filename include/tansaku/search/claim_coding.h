// The lists of claims the distributed explore sends another rank (explore_distributed.h,
// explore_spill.h per rank) are sets of states of the owner's block: sent as 8-byte ranks they
// cost 8 bytes a claim. Sorted and delta-coded (the gaps between successive offsets within the
// owner's block, as LEB128 varints packed into 64-bit words) they cost about a byte or two a
// claim when the list is dense in the block, never more than 8 (every gap is below 2^56), and
// the owner claims them in ascending order (sequential access to its table). Everything here
// works in place in the sender's buffer, so that the coding needs no memory beyond it and a
// scratch buffer of the same size for the sort (the receive buffer, unused before the exchange).
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <stdexcept>

namespace tansaku::search {

// Sorts a[0, n) ascending; every value is below 2^bits. A least-significant-digit radix sort
// (11-bit digits: 3 passes for a block of 2^27 states) through scratch[0, n); small lists by
// std::sort.
inline void sort_claims(std::uint64_t* a, std::uint64_t n, std::uint64_t* scratch, unsigned bits) {
  if (n < 1024) {
    std::sort(a, a + n);
    return;
  }
  constexpr unsigned kDigit = 11;
  constexpr std::uint64_t kMask = (std::uint64_t{1} << kDigit) - 1;
  std::array<std::uint64_t, std::size_t{1} << kDigit> pos;
  std::uint64_t *from = a, *to = scratch;
  for (unsigned shift = 0; shift < bits; shift += kDigit) {
    pos.fill(0);
    for (std::uint64_t i = 0; i < n; ++i) ++pos[(from[i] >> shift) & kMask];
    if (*std::max_element(pos.begin(), pos.end()) == n) continue;  // one digit for all: in order already
    std::uint64_t sum = 0;
    for (auto& c : pos) {
      const std::uint64_t x = c;
      c = sum;
      sum += x;
    }
    for (std::uint64_t i = 0; i < n; ++i) to[pos[(from[i] >> shift) & kMask]++] = from[i];
    std::swap(from, to);
  }
  if (from != a) std::copy(from, from + n, a);
}

// Ascending values a[0, n) (each at most 2^56 - 1 beyond the one before it; the first beyond
// 0) become, in place, the LEB128 varints of their gaps, bytes packed into words from the
// lowest byte up (the same words on any byte order); the last word's unused bytes are 0x80 (an
// unfinished varint: the decoder stops there). Returns the words used: at most n, as no
// varint is longer than 8 bytes. Duplicates are gaps of 0 (one byte each).
inline std::uint64_t encode_gaps(std::uint64_t* a, std::uint64_t n) {
  constexpr std::uint64_t kMaxGap = (std::uint64_t{1} << 56) - 1;
  std::uint64_t prev = 0, acc = 0, words = 0;
  unsigned bytes = 0;  // in acc
  auto put = [&](std::uint64_t b) {
    acc |= b << (8 * bytes);
    if (++bytes == 8) a[words++] = acc, acc = 0, bytes = 0;  // never beyond the value read last
  };
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t v = a[i];
    if (v < prev || v - prev > kMaxGap) throw std::length_error("encode_gaps: not ascending, or a gap of 2^56 or more");
    std::uint64_t gap = v - prev;
    prev = v;
    while (gap >= 0x80) put((gap & 0x7f) | 0x80), gap >>= 7;
    put(gap);
  }
  if (bytes)
    while (bytes) put(0x80);
  return words;
}

// Calls f(value) for each value encode_gaps() coded into in[0, words), in order.
template <class F>
inline void decode_gaps(const std::uint64_t* in, std::uint64_t words, F&& f) {
  std::uint64_t prev = 0, gap = 0;
  unsigned shift = 0;
  for (std::uint64_t w = 0; w < words; ++w) {
    std::uint64_t x = in[w];
    for (unsigned b = 0; b < 8; ++b, x >>= 8) {
      const std::uint64_t byte = x & 0xff;
      if (shift > 56) throw std::length_error("decode_gaps: a varint longer than 8 bytes");
      gap |= (byte & 0x7f) << shift;
      if (byte & 0x80) {
        shift += 7;
        continue;
      }
      prev += gap;
      f(prev);
      gap = 0, shift = 0;
    }
  }
}

// A list of claims on the states [base, base + 2^bits) for one owner, in place: offsets from
// base, sorted (scratch: n words), duplicates dropped, delta-coded. Returns the words to send
// (0 for an empty list); decode_gaps() gives the offsets back.
inline std::uint64_t pack_claims(std::uint64_t* a, std::uint64_t n, std::uint64_t base, std::uint64_t* scratch) {
  if (n == 0) return 0;
  std::uint64_t top = 0;
  for (std::uint64_t i = 0; i < n; ++i) top |= a[i] -= base;
  sort_claims(a, n, scratch, static_cast<unsigned>(std::bit_width(top)));
  n = static_cast<std::uint64_t>(std::unique(a, a + n) - a);
  return encode_gaps(a, n);
}

}  // namespace tansaku::search
