// The classes of a coordinate's values under a group of symmetries, for tables stored one
// cell per class: a symmetry maps a value to one at the same distance, so a table keeps one
// cell for each orbit. Each value's class is the orbit of its least member (the class's
// representative); classes are numbered in the order of their representatives; each value
// keeps the symmetry that takes it to its representative, so a lookup maps the rest of its
// state by that symmetry before reading the class's cells. Generic over the coordinate: the
// caller says what symmetry s does to a value (`image(s, v)`, s = 0 the identity).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace tansaku::pdb {

class SymClasses {
 public:
  static constexpr int kMaxSymmetries = 256;
  static constexpr std::uint64_t kMaxValues = std::uint64_t{1} << 24;

  // `values` values (at most 2^24), `symmetries` symmetries (at most 256, the identity 0),
  // image(s, v): the value symmetry s maps v to.
  template <class Image>
  SymClasses(std::uint64_t values, int symmetries, Image&& image) {
    if (values > kMaxValues || symmetries < 1 || symmetries > kMaxSymmetries)
      throw std::invalid_argument("SymClasses: too many values or symmetries");
    of_.resize(values);
    for (std::uint64_t v = 0; v < values; ++v) {
      std::uint64_t least = v;
      int by = 0;
      for (int s = 1; s < symmetries; ++s) {
        const std::uint64_t w = image(s, v);
        if (w < least) least = w, by = s;
      }
      // The representative is met first (it is the least of its orbit), so its class is known.
      const std::uint32_t cls = least == v ? static_cast<std::uint32_t>(reps_.size()) : of_[least] >> 8;
      if (least == v) reps_.push_back(v);
      of_[v] = cls << 8 | static_cast<std::uint32_t>(by);
    }
  }

  std::uint64_t values() const { return of_.size(); }
  std::uint64_t classes() const { return reps_.size(); }
  // v's class, and the symmetry that takes v to the class's representative.
  std::uint64_t class_of(std::uint64_t v) const { return of_[v] >> 8; }
  int symmetry_of(std::uint64_t v) const { return static_cast<int>(of_[v] & 255); }
  // Both at once: class << 8 | symmetry.
  std::uint32_t packed(std::uint64_t v) const { return of_[v]; }
  std::uint64_t representative(std::uint64_t cls) const { return reps_[cls]; }
  std::uint64_t bytes() const { return of_.size() * 4 + reps_.size() * 8; }

 private:
  std::vector<std::uint32_t> of_;
  std::vector<std::uint64_t> reps_;
};

}  // namespace tansaku::pdb
