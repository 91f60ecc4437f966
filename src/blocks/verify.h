// The verifier: replays printed moves on the start picture, cell by cell and independently of
// the search's tables: each unit step stays on the board and moves onto free cells (or the
// piece's own), the metric is respected (one step; one direction; any route that ends
// elsewhere), the goal is reached and the length is as reported. std::logic_error otherwise.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "blocks/board.h"

namespace tansaku::blocks {

void verify(const Board& b, Metric m, bool distinct, const std::vector<Piece>& start, const std::vector<Piece>& goal,
            const std::vector<std::string>& moves, std::int64_t length);

}  // namespace tansaku::blocks
