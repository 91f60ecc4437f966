// Checks that a square-sum row or ring uses 1..N once with square-sum neighbours, and puts
// it in canonical orientation.
#include "square_sum/verify.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "square_sum/squares.h"

namespace tansaku::square_sum {

void verify_sequence(int n, const std::vector<int>& seq, bool ring) {
  if (seq.size() != static_cast<std::size_t>(n))
    throw std::logic_error(fmt::format("square-sum: {} numbers for N = {}", seq.size(), n));
  std::vector<char> seen(static_cast<std::size_t>(n) + 1, 0);
  for (int x : seq) {
    if (x < 1 || x > n) throw std::logic_error(fmt::format("square-sum: {} is outside 1..{}", x, n));
    if (seen[x]++) throw std::logic_error(fmt::format("square-sum: {} appears twice", x));
  }
  for (std::size_t i = 1; i < seq.size(); ++i)
    if (!is_square(static_cast<std::int64_t>(seq[i - 1]) + seq[i]))
      throw std::logic_error(fmt::format("square-sum: {} + {} is not a square", seq[i - 1], seq[i]));
  if (ring && n >= 3 && !is_square(static_cast<std::int64_t>(seq.back()) + seq.front()))
    throw std::logic_error(fmt::format("square-sum: ring closes with {} + {}, not a square", seq.back(), seq.front()));
}

std::vector<int> canonical(std::vector<int> seq, bool ring) {
  if (seq.size() < 2) return seq;
  if (!ring) {
    if (seq.front() > seq.back()) std::reverse(seq.begin(), seq.end());
    return seq;
  }
  auto one = std::find(seq.begin(), seq.end(), 1);
  std::rotate(seq.begin(), one, seq.end());
  if (seq.size() > 2 && seq[1] > seq.back()) std::reverse(seq.begin() + 1, seq.end());
  return seq;
}

}  // namespace tansaku::square_sum
