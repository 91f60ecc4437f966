// A flip instance as the options give it: the start and goal grids (or '@FILE'), explore's
// source, and the budget check a board passes before anything is parsed or allocated; with
// the small conversions the reports share (press sets as cell lists, small boards as words).
#pragma once
#include <cstdint>
#include <string>

#include "flip/bitvec.h"
#include "flip/board.h"
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::flip {

inline constexpr int kPictureSide = 64;             // boards drawn in text output
inline constexpr std::uint64_t kBytesPerCell = 64;  // solve / show: the least a cell costs (require_cells)

// Refuses a board whose per-cell cost cannot fit the budget before anything is parsed or
// allocated: the chase's bookkeeping (deciders, equations, lanes: 25 bytes a cell), the
// grids and the report (start, goal and the presses, as text and JSON: ~40 bytes a cell).
void require_cells(const Board& board, const std::string& name, const Options& o);
Bits start_of(const Board& board, const Options& o);   // --start, else all on
Bits goal_of(const Board& board, const Options& o);    // --goal, else all off
Bits source_of(const Board& board, const Options& o);  // explore's: --from (or --goal), else all off

json cells_json(const Bits& x);                           // the cells set, as a JSON array
std::string cell_list(const Bits& x, std::size_t limit);  // the same as text, the first `limit`
Bits from_word(std::uint64_t w, std::size_t n);           // boards of at most 64 cells
std::uint64_t to_word(const Bits& b);

}  // namespace tansaku::flip
