// The lists of claims the distributed explore sends another rank (explore_distributed.h,
// explore_spill.h per rank) are sets of states of the owner's block: sent as 8-byte ranks they
// cost 8 bytes a claim. Sorted and delta-coded (the gaps between successive offsets within the
// owner's block, zigzag LEB128 varints packed into 64-bit words) they cost about a byte or two
// a claim when the list is dense in the block, never more than 8 (every gap is below 2^55), and
// the owner claims them in (nearly) ascending order (sequential access to its table). Everything here
// works in place in the sender's buffer, so that the coding needs no memory beyond it and a
// scratch buffer of the same size for the sort (the receive buffer, unused before the exchange).
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace tansaku::search {

// Makes a[0, n) offsets from base (every value in [base, base + 2^bits)) ordered by their top
// 22 bits: one pass subtracts base and counts both 11-bit digits, two least-significant-digit
// radix passes scatter through scratch[0, n) and back. Offsets that agree on those bits stay
// in their order: below 2^22 states the order is total; for a block of 2^27 states (the
// 3x4's), the claims on one 32-state table word stay together. The coding takes any order,
// this only makes its gaps small (a full sort would cost more passes for the bits of a word,
// whose claims land on one cache line anyway). Small lists by std::sort.
inline void order_claims(std::uint64_t* a, std::uint64_t n, std::uint64_t base, std::uint64_t* scratch, unsigned bits) {
  if (n < 1024) {
    for (std::uint64_t i = 0; i < n; ++i) a[i] -= base;
    std::sort(a, a + n);
    return;
  }
  constexpr unsigned kDigit = 11;
  constexpr std::uint64_t kMask = (std::uint64_t{1} << kDigit) - 1, kBuckets = std::uint64_t{1} << kDigit;
  const unsigned lo = bits > 2 * kDigit ? bits - 2 * kDigit : 0, hi = lo + kDigit;
  std::vector<std::uint64_t> pos(2 * kBuckets, 0);
  std::uint64_t* const p0 = pos.data();
  std::uint64_t* const p1 = p0 + kBuckets;
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t x = a[i] - base;
    a[i] = x;
    ++p0[(x >> lo) & kMask], ++p1[(x >> hi) & kMask];
  }
  for (std::uint64_t* p : {p0, p1}) {
    std::uint64_t sum = 0;
    for (std::uint64_t b = 0; b < kBuckets; ++b) {
      const std::uint64_t c = p[b];
      p[b] = sum;
      sum += c;
    }
  }
  for (std::uint64_t i = 0; i < n; ++i) scratch[p0[(a[i] >> lo) & kMask]++] = a[i];
  for (std::uint64_t i = 0; i < n; ++i) a[p1[(scratch[i] >> hi) & kMask]++] = scratch[i];
}

// Writes values as the LEB128 varints of their gaps, zigzag-coded (0, -1, 1, -2 ... -> 0, 1,
// 2, 3 ...: a gap may be negative where the order is not total), bytes packed into words
// from the lowest byte up (the same words on any byte order); finish() fills the last word's
// unused bytes with 0x80 (an unfinished varint: the decoder stops there). Each value must be
// within 2^55 of the one before it (the first: of 0), so that no varint is longer than 8
// bytes: after k values at most k words are written, and `out` may be where the values are
// read from (in place), the writer never passing the reader.
class GapEncoder {
 public:
  explicit GapEncoder(std::uint64_t* out) : out_(out) {}
  std::uint64_t prev() const { return prev_; }
  void put(std::uint64_t v) {
    constexpr std::uint64_t kLimit = std::uint64_t{1} << 55;
    const std::uint64_t up = v - prev_, down = prev_ - v;
    if ((v >= prev_ && up >= kLimit) || (v < prev_ && down > kLimit))
      throw std::length_error("encode_gaps: a gap of 2^55 or more");
    std::uint64_t z = v >= prev_ ? up << 1 : (down << 1) - 1;  // zigzag, below 2^56
    prev_ = v;
    std::uint64_t code;  // the varint's bytes, lowest first
    unsigned len;
    if (z < 0x80) {
      code = z, len = 1;
    } else if (z < 0x4000) {
      code = (z & 0x7f) | 0x80 | (z >> 7) << 8, len = 2;
    } else {
      code = 0, len = 0;
      for (; z >= 0x80; z >>= 7, ++len) code |= ((z & 0x7f) | 0x80) << (8 * len);
      code |= z << (8 * len++);
    }
    acc_ |= code << (8 * bytes_);
    if (bytes_ + len >= 8) {  // a word is full
      out_[words_++] = acc_;
      acc_ = bytes_ ? code >> (8 * (8 - bytes_)) : 0;
      bytes_ = bytes_ + len - 8;
    } else {
      bytes_ += len;
    }
  }
  // The words written.
  std::uint64_t finish() {
    if (bytes_) out_[words_++] = acc_ | (~std::uint64_t{0} << (8 * bytes_) & 0x8080808080808080ull);
    acc_ = 0, bytes_ = 0;
    return words_;
  }

 private:
  std::uint64_t* out_;
  std::uint64_t prev_ = 0, acc_ = 0, words_ = 0;
  unsigned bytes_ = 0;  // in acc_, below 8
};

// Values a[0, n) coded in place (GapEncoder); returns the words used (at most n). A duplicate
// is a gap of 0 (one byte).
inline std::uint64_t encode_gaps(std::uint64_t* a, std::uint64_t n) {
  GapEncoder e(a);
  for (std::uint64_t i = 0; i < n; ++i) e.put(a[i]);
  return e.finish();
}

// Calls f(value) for each value encode_gaps() coded into in[0, words), in order.
template <class F>
inline void decode_gaps(const std::uint64_t* in, std::uint64_t words, F&& f) {
  std::uint64_t prev = 0, z = 0;
  unsigned shift = 0;
  for (std::uint64_t w = 0; w < words; ++w) {
    std::uint64_t x = in[w];
    for (unsigned b = 0; b < 8; ++b, x >>= 8) {
      const std::uint64_t byte = x & 0xff;
      if (shift > 49) throw std::length_error("decode_gaps: a varint longer than 8 bytes");
      z |= (byte & 0x7f) << shift;
      if (byte & 0x80) {
        shift += 7;
        continue;
      }
      prev += (z & 1) ? ~(z >> 1) : z >> 1;  // -(z+1)/2 or z/2, modulo 2^64
      f(prev);
      z = 0, shift = 0;
    }
  }
}

// A list of claims on the states [base, base + 2^bits) for one owner, in place: offsets from
// base, ordered (order_claims; scratch: n words), delta-coded, a repeat next to its twin
// dropped. Returns the words to send (0 for an empty list); decode_gaps() gives the offsets
// back (each once or more, in an order close to ascending).
inline std::uint64_t pack_claims(std::uint64_t* a, std::uint64_t n, std::uint64_t base, std::uint64_t* scratch,
                                 unsigned bits) {
  order_claims(a, n, base, scratch, bits);
  GapEncoder e(a);
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t v = a[i];
    if (i && v == e.prev()) continue;
    e.put(v);
  }
  return e.finish();
}

}  // namespace tansaku::search
