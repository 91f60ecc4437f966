// The square-sum verifier (every row or ring is checked here before it is reported) and
// the canonical orientation rows and rings are printed in.
#pragma once
#include <vector>

namespace tansaku::square_sum {

// Throws std::logic_error unless `seq` is a permutation of 1..n whose neighbouring sums are
// squares (and, for a ring of n >= 3, the last plus the first too).
void verify_sequence(int n, const std::vector<int>& seq, bool ring);

// Rows: the smaller end first. Rings: 1 first, then the smaller of its two neighbours.
std::vector<int> canonical(std::vector<int> seq, bool ring);

}  // namespace tansaku::square_sum
