// Pictures of square-sum (Puzzle::draw*): a row as a snake of numbered discs, each link
// labelled with the square its two numbers sum to (a ring closes with a link back to the
// first; small rings are drawn as a circle); rows too long to read (over kChainNumbers)
// as a plot of the number against its place; and the partner graph of 1..N (pairs summing
// to a square) for small N without a solution.
#pragma once
#include <string>
#include <vector>

#include "tansaku/puzzles/puzzle.h"

namespace tansaku::square_sum {

inline constexpr std::size_t kChainNumbers = 200;  // rows drawn as discs up to this length
inline constexpr std::size_t kPlotPoints = 4000;   // points of the plot of a longer row
inline constexpr int kGraphNumbers = 60;           // partner graphs drawn up to this N

std::string draw_sequence(const std::vector<int>& seq, bool ring);
// The numbers 1..n as a circle with every pair that sums to a square joined (n <= kGraphNumbers),
// else a caption alone.
std::string draw_partners(int n, const std::string& caption);
// A sequence as written in the notation: the numbers, separated by spaces or commas.
std::vector<int> parse_sequence(const std::string& text);
// One frame: the row or ring found, or the partner graph of an N without one.
Drawing draw_report(const SolveReport& r);

// A solve's answer in the family's own types (SolveReport::solution): the numbers 1..n and
// the row or ring found (empty: none).
struct Found final : TypedSolution {
  int n = 0;
  bool ring = false;
  std::vector<int> sequence;
};

}  // namespace tansaku::square_sum
