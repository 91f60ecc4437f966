// TabuCol (Hertz & de Werra, with Galinier & Hao's dynamic tenure): local search for a
// K-colouring that minimises conflicting edges. It only ever finds colourings (upper
// bounds); proofs that none exists come from dsatur_decide or the SAT solver.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "coloring/graph.h"
#include "tansaku/search/limits.h"

namespace tansaku::coloring {

// Starts from `init` (colours above K are moved into 1..K); deterministic for a given seed.
// Gives up (nullopt) after max_iterations or at lim.deadline.
std::optional<std::vector<int>> tabucol(const Graph& g, int K, std::vector<int> init, std::uint64_t max_iterations,
                                        std::uint64_t seed, const search::Limits& lim = {});

}  // namespace tansaku::coloring
