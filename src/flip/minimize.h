// The fewest presses: every solution is x0 + (a member of the null space), so the minimum is
// the lightest member of that coset. With nullity k the weights of all 2^k members come
// from one Walsh-Hadamard transform: group the cells by their k-bit signature (which quiet
// patterns contain them), then weight(c) = (n - F^(c)) / 2 with F(s) = sum of (-1)^x0 over
// the cells of signature s. Exact up to k = kExactNullity; beyond, the same transform over
// windows of the basis improves x0 (local search, reported as not proved optimal).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "flip/bitvec.h"
#include "tansaku/core/deadline.h"
#include "tansaku/search/limits.h"

namespace tansaku::flip {

inline constexpr int kExactNullity = 28;
inline constexpr std::uint64_t kLocalSearchWork = 2'000'000'000;  // cell and transform steps
inline constexpr std::uint64_t kExpandMinima = 256;  // fewer minima than this: the lexicographically first is reported

// The algorithmic knobs; the budget (memory, deadline) comes as search::Limits.
struct MinimizeOptions {
  bool want_all = false;                    // every minimal press set
  std::uint64_t max_all_bits = 1ull << 31;  // refuse (LimitError) listing more than this many press bits
  int exact_limit = kExactNullity;
};

struct CosetMinimum {
  bool exact = false;            // the minimum is proved
  std::int64_t weight = 0;       // presses of `best`
  Bits best;                     // a lightest member found (lexicographically first when few)
  std::uint64_t examined = 0;    // coset members whose weight was computed
  std::uint64_t count = 0;       // number of minimal members (exact only)
  std::vector<Bits> all;         // every minimal member (exact and want_all)
  std::vector<std::uint64_t> weights;  // number of coset members of each weight (exact only)
  std::string method;
};

// Minimum weight of x0 + span(kernel). Throws LimitError when want_all and the minimum is
// out of exact reach or the list too long.
CosetMinimum minimize(const Bits& x0, const std::vector<Bits>& kernel, const MinimizeOptions& opt,
                      const search::Limits& lim = {});

// In-place Walsh-Hadamard transform of 2^k entries (exposed for tests).
void walsh_hadamard(std::int32_t* a, int k, const search::Limits& lim = {});

}  // namespace tansaku::flip
