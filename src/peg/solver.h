// The peg-solitaire questions on one board, independent of the command line:
//  - solve: least moves (or, with the jumps metric, whether it can be done at all) from a
//    start to a goal, with one verified optimal solution or a proof that none exists
//    (position classes, or an exhausted search);
//  - count: the number of jump sequences from the start to the goal;
//  - explore: positions per jump count, and how many can still finish.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "peg/board.h"
#include "peg/bounds.h"
#include "peg/domain.h"
#include "peg/layers.h"
#include "peg/pagoda.h"
#include "peg/symmetry.h"
#include "tansaku/core/count.h"
#include "tansaku/core/deadline.h"
#include "tansaku/core/progress.h"
#include "tansaku/puzzles/puzzle.h"
#include "tansaku/search/limits.h"

namespace tansaku::peg {

enum class Metric { Moves, Jumps };

// The algorithmic choices of a solve; the budgets (memory, deadline, threads, progress)
// come as search::Limits.
struct SolveParams {
  Metric metric = Metric::Moves;
  std::string algorithm;  // a name of Solver::solvers() (canonical), "" = the automatic choice
  // Pagoda functions (the proof before any search, and pruning inside it): -1 as
  // TANSAKU_PEG_PAGODA says (default on), 0 off, 1 on.
  int pagoda = -1;
  // --weight, --beam-width for the non-optimal searches (wastar, greedy, beam).
  std::int64_t weight_num = 2, weight_den = 1;
  std::size_t beam_width = 1000;
};

struct SolveOutcome {
  bool solvable = true;
  std::string reason;                    // why not, when !solvable
  int length = -1;                       // in the metric
  std::vector<std::vector<int>> moves;   // [from, to, to, ...] per move, verified
  std::uint64_t nodes = 0;
  std::uint64_t positions = 0;           // canonical positions stored (layered)
  std::string algorithm;  // the solver that answered (a name of Solver::solvers()), or the proof that settled it first
  std::string method;     // how it went, in words ("" when `algorithm` says it all)
  int lower_bound = 0;                   // the bound at the start
  std::optional<Weights> pagoda_proof;   // the function proving impossibility, if that was the proof
  int pagoda_functions = 0;              // pagoda functions pruning the search (distinct up to symmetry)
  bool optimal = true;                   // false: a non-optimal search's answer ...
  double bound = 0;                      // ... within this factor of the least length (> 0)
};

struct CountOutcome {
  mpz_class count = 0;
  std::uint64_t positions = 0, nodes = 0;
  std::optional<Weights> pagoda_proof;  // the count is 0 by this function, without search
  int pagoda_functions = 0;
  std::string algorithm;  // the solver that counted (a name of Solver::solvers())
};

class Solver {
 public:
  explicit Solver(Board bd);
  const Board& board() const { return bd_; }
  const std::vector<Perm>& group() const { return group_; }
  const PositionClass& classes() const { return classes_; }

  // Goals: one peg anywhere (on a hole of the start's position class), on hole f, or an
  // exact position.
  Goal anywhere(Bits start) const;
  Goal at(int hole) const;
  Goal exactly(Bits pegs) const;
  std::string describe(const Goal& g) const;

  SolveOutcome solve(Bits start, const Goal& goal, const SolveParams& p, const search::Limits& lim) const;
  CountOutcome count(Bits start, const Goal& goal, const SolveParams& p, const search::Limits& lim) const;
  ExploreLayers explore(Bits start, std::optional<int> finish, std::size_t keep, const search::Limits& lim) const;

  // The searches `solve` can run (--algorithm), in the order of the automatic choice.
  static std::vector<SolverSpec> solvers();

  // Lower bound on the moves from `pegs` to the goal (before any move).
  int lower_bound(Bits pegs, const Goal& goal) const;

 private:
  friend struct SolveJob;
  // A proof of impossibility that needs no search, or "".
  std::string quick_proof(Bits start, const Goal& goal) const;
  Symmetry goal_symmetry(const Goal& goal) const;
  DemandBound demand(const Goal& goal) const;
  // Pagoda functions for start -> goal when p asks for them (prune: also the pruning set).
  PagodaSet pagodas(Bits start, const Goal& goal, const SolveParams& p, bool prune) const;
  std::string pagoda_reason(const Weights& w, Bits start, const Goal& goal) const;

  Board bd_;
  std::vector<Perm> group_;
  PositionClass classes_;
};

}  // namespace tansaku::peg
