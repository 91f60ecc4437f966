// A peg-solitaire board as data: holes on a lattice (square, square with diagonals, or
// triangular), the jumps derived from the geometry (a peg jumps over a neighbour along a
// lattice direction into the hole beyond), hole numbering (row-major from the top-left),
// the standard vacancy, and the picture format of board files. Boards hold at most 64
// holes, so a position is one 64-bit word (bit h = a peg in hole h).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tansaku/core/deadline.h"

namespace tansaku::peg {

using Bits = std::uint64_t;
constexpr int kMaxHoles = 64;

enum class Lattice { Square, SquareDiagonal, Triangular };

// Lattice name as written in board files and reports.
const char* lattice_name(Lattice l);

struct Jump {
  std::uint8_t from, over, to;
  Bits mask;  // bits of from, over and to: a jump toggles exactly these
};

struct Board {
  std::string name;  // "peg:english", or the file's name
  Lattice lattice = Lattice::Square;
  int n = 0;                       // number of holes
  std::vector<int> x, y;           // picture column (doubled on the triangular lattice) and row of each hole
  std::vector<int> a, b;           // lattice coordinates in the basis of the lattice's directions
  std::vector<Jump> jumps;         // every (from, over, to) of the board
  std::vector<std::vector<int>> jumps_from;  // indices into jumps, by from hole
  std::vector<std::vector<int>> jumps_to;    // indices into jumps, by to hole
  Bits all = 0;                    // mask of every hole
  Bits standard_empty = 0;         // the board's standard vacancy
  std::optional<int> standard_finish;  // default finishing hole (none: anywhere)

  Bits bit(int h) const { return Bits{1} << h; }
  // Hole at lattice coordinates (a, b), or -1.
  int hole_at(int la, int lb) const;
};

// Parses a board file's text (format in docs/peg.md). `source` names it in messages.
// Throws InputError with a one-line message on any malformed input.
Board parse_board(const std::string& text, const std::string& source);
// Reads (core/input.h: a regular text file within a quarter of `memory`, 0 = the default
// budget, `deadline` polled) and parses a board file.
Board load_board_file(const std::string& path, std::uint64_t memory = 0, const Deadline* deadline = nullptr);
// Builtins: "triangleN" (N = 4..10), "trytry", "english", "french". Throws InputError.
Board builtin_board(const std::string& variant);
// The builtin variants for `tansaku list`.
std::vector<std::pair<std::string, std::string>> builtin_list();

// Picture of the board with a character per hole chosen by `cell(h)` (width w each).
std::string render(const Board& bd, int w, const std::vector<std::string>& cells);
// Picture with hole numbers.
std::string render_numbers(const Board& bd);
// Picture of a position: 'o' peg, '.' empty hole.
std::string render_position(const Board& bd, Bits pegs);

// Positions as text: one character per hole in hole order, '1' peg '0' empty.
std::string format_position(const Board& bd, Bits pegs);
// Parses "1101...", "o.oo..", or whitespace/comma-separated 0/1 tokens. Throws InputError.
Bits parse_position(const Board& bd, const std::string& text, const std::string& what);
// Parses a hole list "3,12" (or a single hole). Throws InputError naming holes off the board.
std::vector<int> parse_holes(const Board& bd, const std::string& text, const std::string& what);

}  // namespace tansaku::peg
