// Cheap facts about knight's tours on a board: proofs that no tour exists that need no
// search (colour parity, unreachable squares, dead ends), and the vertex order that keeps
// the counting frontier narrow.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "knights/board.h"
#include "tansaku/graph/graph.h"

namespace tansaku::knights {

// Why no tour can exist (from `from`, or from any square when from < 0), or nullopt when
// these arguments decide nothing. Each reason is a proof.
std::optional<std::string> no_tour_reason(const Board& b, std::int64_t from, bool closed, Deadline* deadline = nullptr);

// The knight's graph numbered along the board's narrow direction (row-major when
// cols <= rows, column-major otherwise): adj over positions, square_at[pos], pos_of[square].
struct NarrowGraph {
  graph::AdjacencyGraph adj;
  std::vector<int> square_at, pos_of;
};
NarrowGraph narrow_graph(const Board& b);

// rep[s]: the smallest square that a symmetry of the board (reflections, the half turn,
// and on square boards the quarter turns and diagonal reflections) maps s to.
std::vector<int> symmetry_classes(const Board& b);

}  // namespace tansaku::knights
