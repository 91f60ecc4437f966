// The whole configuration space of a small flip board (at most 63 cells, one machine word a
// configuration): the search domain for the generic BFS / 2-bit explore, and the algebraic
// explore that gets the same distance histogram without a search. Configurations reachable
// from a source s are s + image(A); the distance of s + A w is the lightest press set in
// w + ker(A). Taking the pivot presses P (a basis of the image) as coordinates, that is
// min over quiet patterns k of |w + k_P| + |k outside P|: one L1 distance transform over
// the cube of the pivots the quiet patterns touch, seeded with the 2^nullity quiet patterns
// (a byte per class); the untouched pivots only add binomial counts.
#pragma once
#include <cstdint>
#include <vector>

#include "flip/board.h"
#include "tansaku/core/deadline.h"
#include "tansaku/search/limits.h"

namespace tansaku::flip {

// Largest cube the distance transform runs over (and largest nullity enumerated): 1 GiB.
inline constexpr int kMaxCoupled = 30;

// Press patterns of a board of <= 63 cells as words: bit q of pattern(p) = pressing p toggles q.
std::vector<std::uint64_t> word_patterns(const Board& board);

// A flip board as a search domain over whole configurations (rank = the configuration).
struct SpaceDomain {
  using State = std::uint64_t;
  using Move = int;  // cell pressed
  std::vector<std::uint64_t> pattern;
  int n = 0;
  std::uint64_t target = 0;

  bool is_goal(State s) const { return s == target; }
  State goal() const { return target; }
  template <class F>
  void for_each_move(State s, F&& f) const {
    for (int p = 0; p < n; ++p) f(p, s ^ pattern[static_cast<std::size_t>(p)]);
  }
  std::uint64_t size() const { return std::uint64_t{1} << n; }
  std::uint64_t rank(State s) const { return s; }
  State unrank(std::uint64_t r) const { return r; }
  template <class F>
  void for_each_neighbor_rank(std::uint64_t r, F&& f) const {
    for (int p = 0; p < n; ++p) f(r ^ pattern[static_cast<std::size_t>(p)]);
  }
};

struct SpaceReport {
  std::vector<std::uint64_t> histogram;
  std::uint64_t states = 0;
  int depth = 0;
  std::vector<std::uint64_t> farthest;  // lowest configurations at the largest distance, ascending
  std::uint64_t farthest_count = 0;
  int rank = 0, nullity = 0;
  std::uint64_t table_bytes = 0;  // the distance table (2^coupled pivots bytes)
  std::uint64_t nodes = 0;  // quiet patterns seeded + cube entries relaxed
};

// Algebraic explore from configuration `source`. Refuses (InputError) a table beyond `memory`.
SpaceReport explore_algebra(const Board& board, std::uint64_t source, std::size_t keep, const search::Limits& lim);

}  // namespace tansaku::flip
