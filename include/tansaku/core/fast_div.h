// Division of 32-bit numbers by a divisor fixed at run time, by one 64x64->128-bit
// multiply (Lemire, Kaser & Kurz 2019: with c = ceil(2^64 / d), n / d = (c * n) >> 64 for
// every 32-bit n). Rank decoders divide by the same few weights billions of times.
#pragma once
#include <cstdint>

namespace tansaku {

class FastDiv32 {
 public:
  FastDiv32() = default;
  explicit FastDiv32(std::uint32_t d) : d_(d), c_(d > 1 ? ~std::uint64_t{0} / d + 1 : 0) {}
  std::uint32_t divisor() const { return d_; }
  std::uint32_t div(std::uint32_t n) const {
    if (d_ == 1) return n;
    return static_cast<std::uint32_t>((static_cast<unsigned __int128>(c_) * n) >> 64);
  }

 private:
  std::uint32_t d_ = 1;
  std::uint64_t c_ = 0;
};

}  // namespace tansaku
