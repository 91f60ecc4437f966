// "Is there a K-colouring?" handed to an external SAT solver (CaDiCaL, Debian package
// `cadical`) as CNF: one variable per (vertex, colour), at-least-one-colour clauses, one
// clause per edge and colour, and colour-precedence symmetry breaking (auxiliary
// variables; it takes myciel6's refutation from minutes to ~17 s). Optional: when the binary
// is missing the caller falls back to DSATUR.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "coloring/graph.h"
#include "tansaku/core/deadline.h"

namespace tansaku::coloring {

enum class SatStatus { Sat, Unsat, Unavailable, Failed };

struct SatResult {
  SatStatus status = SatStatus::Unavailable;
  std::vector<int> colours;  // size g.n, 1..K, when Sat
  std::string solver;        // path of the binary used
  std::string message;       // why Unavailable / Failed
};

// The solver binary: $TANSAKU_SAT_SOLVER if set (empty = none), else `cadical` on PATH.
std::string sat_solver_path();

// The DIMACS CNF text (exposed for tests).
std::string colouring_cnf(const Graph& g, int K);

// Runs the solver on the K-core of g (a clique larger than K refutes at once); the deadline
// kills it (LimitError).
// Unavailable (with a message) when the CNF would exceed `memory` bytes.
SatResult sat_decide(const Graph& g, int K, const std::vector<int>& clique, Deadline* deadline,
                     std::uint64_t memory = UINT64_MAX);

}  // namespace tansaku::coloring
