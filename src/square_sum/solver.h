// The square-sum solvers as one table (--algorithm): the exact search (it also proves that
// none exists, counts and lists), the Warnsdorff + Posa heuristic (a large N fast, never a
// proof), and the default that combines them: the exact search with a small budget for
// N <= 2000, then the heuristic, then the exact search without limit.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "square_sum/path_search.h"
#include "tansaku/graph/warnsdorff_posa.h"
#include "tansaku/puzzles/solver_table.h"
#include "tansaku/search/limits.h"

namespace tansaku::square_sum {

struct FindResult {
  bool found = false;          // false = proved that none exists
  std::vector<int> sequence;   // verified, canonical orientation
  std::string method;          // the solver that found it (or proved none): "dfs" or "warnsdorff+posa"
  std::uint64_t nodes = 0;     // search nodes (+ heuristic steps)
};

// What a solve asks: a row (ring) of 1..n, or of the least N that has one (n = 0), and with
// it (mode) how many there are, or all of them.
struct Question {
  int n = 0;
  bool ring = false;
  Mode mode = Mode::First;
};

struct Answer {
  int n = 0;                          // the N answered (the least one when asked)
  FindResult found;                   // its row / ring, or the proof that there is none
  std::vector<int> none_for;          // the least N: every smaller one, refuted by the exact search
  std::optional<SearchResult> listed; // Count / All mode: the exact search's count (and list)
  std::uint64_t nodes = 0;            // every search together
};

// In the order of the automatic choice (the default first).
const SolverTable<Question, Answer>& solvers();

// The default's way to one row / ring of 1..n (or a proof that none exists).
FindResult find_sequence(int n, bool ring, const search::Limits& lim = {});

// The large-N method: the graph module's Warnsdorff + Posa walk from a vertex of least
// degree (the largest such number), ties to the larger number, free to turn around and
// work on its other end; a ring is closed by rotations. A row (or ring) of 1..n, or nullopt when `work_budget` (moves,
// scanned neighbours and reversed entries, for the walk and again for closing) is spent.
// Deterministic for a given seed.
std::optional<std::vector<int>> posa_search(int n, bool ring, std::uint64_t work_budget, std::uint64_t seed,
                                            const search::Limits& lim = {}, graph::PosaStats* stats = nullptr);

// Bytes the searches need for N (for the memory budget).
std::uint64_t search_bytes(std::uint64_t n);

}  // namespace tansaku::square_sum
