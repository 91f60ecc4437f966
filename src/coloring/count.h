// Counting proper colourings with colours 1..K (the chromatic polynomial at K), and listing
// them. The count runs per connected component (counts multiply) over colourings in which
// colours appear in order of first use, each standing for K(K-1)...(K-m+1) labelled ones.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "coloring/graph.h"
#include "tansaku/core/deadline.h"
#include "tansaku/core/progress.h"

namespace tansaku::coloring {

// Unsigned integer of any size (base 1e9 limbs): enough for counts and their products.
class BigUInt {
 public:
  BigUInt(std::uint64_t v = 0);
  BigUInt& operator+=(const BigUInt& o);
  BigUInt& operator*=(const BigUInt& o);
  // Division by a small number; returns the remainder.
  std::uint32_t divide(std::uint32_t d);
  bool fits_u64() const;
  std::uint64_t to_u64() const;  // requires fits_u64()
  std::string str() const;
  bool is_zero() const { return limbs_.empty(); }

 private:
  void trim();
  std::vector<std::uint32_t> limbs_;  // little endian, base 1e9
};

struct CountResult {
  BigUInt total;       // proper colourings with colours 1..K
  std::uint64_t nodes = 0;
};

CountResult count_colourings(const Graph& g, int K, Deadline* deadline, Progress* progress);

// Every proper colouring with colours 1..K (vertex order = lexicographic); throws
// LimitError when there are more than `limit`.
std::vector<std::vector<int>> all_colourings(const Graph& g, int K, std::uint64_t limit, Deadline* deadline,
                                             std::uint64_t* nodes);

}  // namespace tansaku::coloring
