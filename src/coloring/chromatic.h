// The colouring solver as the family uses it: bounds (clique below, DSATUR greedy and
// TabuCol above) closed by exact decisions "K colours?" (DSATUR branch and bound, then the
// SAT solver for the hard ones). Every colouring returned is verified.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "coloring/graph.h"
#include "tansaku/core/deadline.h"
#include "tansaku/core/progress.h"
#include "tansaku/search/limits.h"

namespace tansaku::coloring {

// How the exact decisions "K colours?" are made: auto (DSATUR, TabuCol, then the SAT solver
// when DSATUR runs long), dsatur (DSATUR only), sat (the SAT solver for every decision),
// greedy (bounds only: no exact search).
enum class Strategy { Auto, Dsatur, Sat, Greedy };

// The algorithmic parameters; the budgets (deadline, progress, memory for the CNF handed to
// the SAT solver) come as search::Limits.
struct SolverOptions {
  Strategy strategy = Strategy::Auto;
  std::uint64_t clique_budget = 2000000;   // max-clique nodes
  std::uint64_t quick_budget = 20000;      // DSATUR nodes before TabuCol
  std::uint64_t tabu_iterations = 100000;   // at least; 200 x core vertices x K when larger
  std::uint64_t dsatur_budget = 3000000;   // DSATUR nodes before the SAT solver (auto)
};

// One exact decision, as recorded in the report.
struct Step {
  int colors = 0;
  bool found = false;
  std::string by;  // clique | greedy | tabucol | dsatur | cadical
  std::uint64_t nodes = 0;
};

struct ChromaticResult {
  int lower = 0, upper = 0;
  bool exact = false;            // lower == upper, proved
  std::vector<int> colouring;    // `upper` colours, verified
  std::vector<int> clique;       // verified
  bool clique_exact = false;     // no larger clique exists
  std::string lower_by, upper_by;
  std::uint64_t nodes = 0;
  std::vector<Step> steps;
};

// The chromatic number with a proof (strategy != Greedy). A deadline that expires throws
// LimitError naming the bounds reached.
ChromaticResult chromatic_number(const Graph& g, const SolverOptions& o, const search::Limits& lim = {});

struct KResult {
  bool found = false;
  std::vector<int> colouring;  // verified, colours 1..K
  std::string by;              // how it was found / refuted
  std::vector<int> clique;
  bool clique_exact = false;
  std::uint64_t nodes = 0;
  std::vector<Step> steps;
};

// A K-colouring, or a proof that none exists.
KResult colour_with(const Graph& g, int K, const SolverOptions& o, const search::Limits& lim = {});

}  // namespace tansaku::coloring
