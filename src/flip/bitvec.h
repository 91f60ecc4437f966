// A plain n-bit vector over GF(2) (64 bits a word, bit i of the vector = bit i%64 of word
// i/64): press sets and light configurations of a flip board, row-major by cell.
#pragma once
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tansaku::flip {

class Bits {
 public:
  Bits() = default;
  explicit Bits(std::size_t n) : n_(n), w_((n + 63) / 64, 0) {}

  std::size_t size() const { return n_; }
  std::size_t words() const { return w_.size(); }
  std::uint64_t* data() { return w_.data(); }
  const std::uint64_t* data() const { return w_.data(); }
  std::uint64_t word(std::size_t i) const { return w_[i]; }

  bool get(std::size_t i) const { return (w_[i >> 6] >> (i & 63)) & 1u; }
  void set(std::size_t i, bool v = true) {
    const std::uint64_t m = std::uint64_t{1} << (i & 63);
    w_[i >> 6] = v ? (w_[i >> 6] | m) : (w_[i >> 6] & ~m);
  }
  void flip(std::size_t i) { w_[i >> 6] ^= std::uint64_t{1} << (i & 63); }
  void fill(bool v) {
    for (auto& x : w_) x = v ? ~std::uint64_t{0} : 0;
    trim();
  }

  Bits& operator^=(const Bits& o) {
    for (std::size_t i = 0; i < w_.size(); ++i) w_[i] ^= o.w_[i];
    return *this;
  }
  Bits& operator&=(const Bits& o) {
    for (std::size_t i = 0; i < w_.size(); ++i) w_[i] &= o.w_[i];
    return *this;
  }
  Bits& operator|=(const Bits& o) {
    for (std::size_t i = 0; i < w_.size(); ++i) w_[i] |= o.w_[i];
    return *this;
  }
  friend Bits operator^(Bits a, const Bits& b) { return a ^= b; }
  bool operator==(const Bits&) const = default;

  std::size_t count() const {
    std::size_t c = 0;
    for (auto x : w_) c += static_cast<std::size_t>(std::popcount(x));
    return c;
  }
  bool none() const {
    for (auto x : w_)
      if (x) return false;
    return true;
  }
  // Parity of the common set bits.
  bool dot(const Bits& o) const {
    std::uint64_t acc = 0;
    for (std::size_t i = 0; i < w_.size(); ++i) acc ^= w_[i] & o.w_[i];
    return std::popcount(acc) & 1;
  }
  // Number of bits where the two differ.
  std::size_t distance(const Bits& o) const {
    std::size_t c = 0;
    for (std::size_t i = 0; i < w_.size(); ++i) c += static_cast<std::size_t>(std::popcount(w_[i] ^ o.w_[i]));
    return c;
  }
  // Indices of the set bits, ascending.
  std::vector<std::int64_t> ones() const {
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < w_.size(); ++i)
      for (std::uint64_t x = w_[i]; x; x &= x - 1)
        out.push_back(static_cast<std::int64_t>(i * 64 + static_cast<std::size_t>(std::countr_zero(x))));
    return out;
  }
  // Clears the bits beyond size() in the last word.
  void trim() {
    if (n_ & 63) w_.back() &= (std::uint64_t{1} << (n_ & 63)) - 1;
  }

 private:
  std::size_t n_ = 0;
  std::vector<std::uint64_t> w_;
};

}  // namespace tansaku::flip
