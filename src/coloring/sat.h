// "Is there a K-colouring?" decided by CaDiCaL through its C++ library (Debian package
// libcadical-dev), incrementally: one solver holds the formula for colours 1..K_max of the
// graph's core — one variable per (vertex, colour), at-least-one-colour clauses, one clause
// per edge and colour, colour-precedence symmetry breaking (auxiliary variables; it takes
// myciel6's refutation from minutes to ~17 s) and one selector per colour, "colour c is
// unused". Asking for K colours assumes the selectors of colours K+1..K_max, so the clauses
// learnt for one K are kept for the next.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "coloring/dsatur.h"
#include "coloring/graph.h"
#include "tansaku/search/limits.h"

namespace CaDiCaL {
class Solver;
}

namespace tansaku::coloring {

enum class SatStatus { Sat, Unsat, Unavailable, Failed };

struct SatResult {
  SatStatus status = SatStatus::Unavailable;
  std::vector<int> colours;  // size g.n, 1..K, when Sat
  std::string message;       // why Unavailable / Failed
};

class SatColouring {
 public:
  // The formula for every K in [k_min, k_max] on the k_min-core of g (vertices of smaller
  // degree are coloured greedily afterwards). Unavailable when it would exceed lim.memory.
  SatColouring(const Graph& g, int k_min, int k_max, const search::Limits& lim = {});
  ~SatColouring();
  bool available() const { return solver_ != nullptr; }
  const std::string& message() const { return message_; }  // why not available
  int k_min() const { return k_min_; }
  int k_max() const { return k_max_; }
  int variables() const { return vars_; }
  std::int64_t clauses() const { return clauses_; }

  // A K-colouring of g (k_min <= K <= k_max) or a proof that none exists; lim.deadline
  // stops the solver (LimitError).
  SatResult decide(int K, const std::vector<int>& clique, const search::Limits& lim = {});

 private:
  int x(int v, int c) const { return v * k_max_ + c; }
  int y(int i, int c) const { return core_.n * k_max_ + i * k_max_ + c; }
  int unused(int c) const { return 2 * core_.n * k_max_ + c; }
  void clause(std::initializer_list<int> lits);

  const Graph& g_;
  int k_min_, k_max_;
  Peel peel_;
  Graph core_;
  std::unique_ptr<CaDiCaL::Solver> solver_;
  std::string message_;
  int vars_ = 0;
  std::int64_t clauses_ = 0;
};

// One decision on its own (a solver for K alone), under lim.memory and lim.deadline.
SatResult sat_decide(const Graph& g, int K, const std::vector<int>& clique, const search::Limits& lim = {});

}  // namespace tansaku::coloring
