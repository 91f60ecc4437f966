// The verifier: replays printed moves on the start picture, cell by cell and independently of
// the search's tables: each unit step stays on the board and moves onto free cells (or the
// piece's own), the metric is respected (one step; one direction; any route that ends
// elsewhere), the goal is reached and the length is as reported. std::logic_error otherwise.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "blocks/board.h"

namespace tansaku::blocks {

// The grid of a position: '#' walls, '.' free cells, each piece's label on its cells (row-major).
std::string grid(const Board& b, const std::vector<Piece>& pos);
// One printed move ("Gdr": the piece's label, then its unit steps u d l r) on a grid, under
// the metric; nullopt, and why in `why`, when it does not apply.
std::optional<std::string> apply_printed(const Board& b, Metric m, std::string g, const std::string& mv,
                                         std::string* why = nullptr);
// The label of a goal placement that grid g lacks; 0 when g has them all.
char missing_goal(const Board& b, bool distinct, const std::string& g, const std::vector<Piece>& goal);

void verify(const Board& b, Metric m, bool distinct, const std::vector<Piece>& start, const std::vector<Piece>& goal,
            const std::vector<std::string>& moves, std::int64_t length);

}  // namespace tansaku::blocks
