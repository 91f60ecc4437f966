// Fast ranking of k-permutations of n cells (k distinct pieces placed on n <= 64 cells, the
// index of a pattern database): mixed radix n, n-1, ..., n-k+1 over the Lehmer digits
// d_i = pos_i - #{j < i : pos_j < pos_i}. Header-only and allocation-free: the inner loops
// of pattern-database builds and IDA* lookups call it per node. Digits can also be stepped
// like an odometer, so a sequential scan over ranks never divides.
#pragma once
#include <array>
#include <cstdint>
#include <stdexcept>

#include "tansaku/core/bits.h"

namespace tansaku {

class KPermRanker {
 public:
  static constexpr int kMaxPieces = 16;

  KPermRanker() = default;
  KPermRanker(int n, int k) : n_(n), k_(k) {
    if (n < 1 || n > 64 || k < 0 || k > n || k > kMaxPieces) throw std::invalid_argument("KPermRanker: bad n or k");
    size_ = 1;
    for (int i = k - 1; i >= 0; --i) {
      weight_[i] = size_;
      const auto radix = static_cast<std::uint64_t>(n - i);
      if (size_ > UINT64_MAX / radix) throw std::invalid_argument("KPermRanker: size overflows 64 bits");
      size_ *= radix;
    }
  }
  int n() const { return n_; }
  int k() const { return k_; }
  std::uint64_t size() const { return size_; }      // n! / (n-k)!
  std::uint64_t weight(int i) const { return weight_[i]; }

  // pos[i] = cell of piece i (distinct, < n).
  std::uint64_t rank(const std::uint8_t* pos) const {
    std::uint64_t used = 0, r = 0;
    for (int i = 0; i < k_; ++i) {
      const std::uint64_t bit = std::uint64_t{1} << pos[i];
      r = r * static_cast<std::uint64_t>(n_ - i) + (pos[i] - bits::popcount(used & (bit - 1)));
      used |= bit;
    }
    return r;
  }

  void digits(std::uint64_t r, std::uint8_t* d) const {
    for (int i = k_ - 1; i >= 0; --i) {
      const auto radix = static_cast<std::uint64_t>(n_ - i);
      d[i] = static_cast<std::uint8_t>(r % radix);
      r /= radix;
    }
  }
  // The next rank's digits; false after the last rank (digits wrap to zero).
  bool next_digits(std::uint8_t* d) const {
    for (int i = k_ - 1; i >= 0; --i) {
      if (++d[i] < n_ - i) return true;
      d[i] = 0;
    }
    return false;
  }
  // Cells from digits; returns the mask of the cells taken.
  std::uint64_t positions(const std::uint8_t* d, std::uint8_t* pos) const {
    const std::uint64_t all = n_ == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n_) - 1;
    std::uint64_t used = 0;
    for (int i = 0; i < k_; ++i) {
      pos[i] = static_cast<std::uint8_t>(bits::select(all & ~used, d[i]));
      used |= std::uint64_t{1} << pos[i];
    }
    return used;
  }
  std::uint64_t unrank(std::uint64_t r, std::uint8_t* pos) const {
    std::uint8_t d[kMaxPieces];
    digits(r, d);
    return positions(d, pos);
  }

 private:
  int n_ = 0, k_ = 0;
  std::uint64_t size_ = 1;
  std::array<std::uint64_t, kMaxPieces> weight_{};
};

}  // namespace tansaku
