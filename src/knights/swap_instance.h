// Reading and writing knight-swap positions: a position is one token per square (its army's
// label, 0 or . for an empty square); the armies are numbered from the goal's labels, and
// the usual goal exchanges the start's two armies.
#pragma once
#include <string>
#include <vector>

#include <gmpxx.h>

#include "knights/board.h"
#include "knights/swap_domain.h"
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::knights {

// A solve's (or show's) instance: the armies, the goal and, where given, the start.
struct Instance {
  Armies armies;
  Cells start, goal;
  bool has_start = false;
};

// The tokens of a position; exit 2 unless there is one per square.
std::vector<std::string> position_tokens(const Board& b, const std::string& text, const std::string& what);
// The armies of a position's tokens, "0" (empty) first, then the labels in order.
Armies make_armies(const std::vector<std::string>& tokens);
// A position over the armies; exit 2 unless it has each army's count of pieces.
Cells parse_position(const Board& b, const Armies& a, const std::string& text, const std::string& what);
// --start and --goal; without them the variant's default pair, and with --start alone its
// two armies exchanged. `need_start`: exit 2 without a start.
Instance read_instance(const Board& b, const std::string& name, const Options& o, bool need_start,
                       const std::string& def_start, const std::string& def_goal);
std::string format_cells(const Armies& a, const Cells& cells);
std::string cells_picture(const Board& b, const Armies& a, const Cells& cells);  // '.' for the empty squares
// Arrangements of these pieces on the board (the multinomial).
mpz_class arrangement_count(const Armies& a);

}  // namespace tansaku::knights
