// A sliding-block puzzle as data: the board (its cells and fixed walls), the piece shapes,
// the pieces with the characters they are drawn with and their start placements, the goal's
// required placements, and the file's defaults. Read from a picture file (parse.cpp) or from
// Knuth's SLIDING input (knuth.cpp); the search domain, the renderer and the verifier all
// work from it.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tansaku::blocks {

enum class Metric { Step, Line, Path };
// "step" | "line" | "path"; InputError naming `where` otherwise.
Metric parse_metric(std::string_view text, std::string_view where);
const char* metric_name(Metric m);

constexpr int kMaxCells = 64;  // rows * cols: a bitboard is one 64-bit word

// A piece's cells relative to its anchor, the first of its cells in row-major order, so the
// first offset is (0, 0); offsets are sorted row-major. Two pieces are alike when their
// shapes are equal (translation only: a rotated piece is another shape).
struct Shape {
  std::vector<std::pair<int, int>> cells;  // (row offset, column offset)
  bool operator==(const Shape&) const = default;
};

// One piece at one place: its kind (index into Board::kinds), its anchor cell (row * cols +
// column) and the character it is drawn with.
struct Piece {
  char label = '?';
  int kind = 0;
  int anchor = 0;
  bool operator==(const Piece&) const = default;
};

struct Board {
  std::string name;    // the file's `name:`, else the file name
  std::string source;  // where it was read from, for messages
  int rows = 0, cols = 0;
  std::uint64_t walls = 0;      // fixed wall cells
  std::vector<Shape> kinds;     // distinct shapes, in order of first appearance
  std::vector<Piece> pieces;    // the start position, in anchor order
  std::vector<Piece> goal;      // required placements: a piece of that kind (that label with
                                // `distinct`) covers exactly those cells
  std::optional<Metric> metric; // the file's default
  bool distinct = false;        // the file's `distinct: yes`
  bool knuth = false;           // read from Knuth's format (pieces of one name are alike)

  int cells() const { return rows * cols; }
  std::uint64_t board_mask() const { return cells() == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << cells()) - 1; }
  // Bitboard of the cells a piece of `kind` covers at `anchor`, or 0 when it does not fit on
  // the board (off an edge or on a wall).
  std::uint64_t cover(int kind, int anchor) const;
};

// Reads a board file; the format is detected (Knuth's starts with "R x C").
Board load_board(const std::string& path);
// Parses board text; `source` names it in messages.
Board parse_board(std::string_view text, const std::string& source);
// Parses Knuth's SLIDING input (knuth.cpp).
Board parse_knuth(std::string_view text, const std::string& source);

// A position as labelled pieces, checked against the board: same walls, and the same pieces
// (with `distinct`, the same labels with the same shapes; otherwise the same number of
// pieces of each shape, drawn with any characters). `text` is a picture: a file's rows, or
// rows separated by '/' ("BAAC/BAAC/DEEF/DGHF/I..J"); `what` names it in messages.
std::vector<Piece> parse_position(const Board& b, std::string_view text, const std::string& what, bool distinct);
// A goal picture ('.' = no requirement), checked against the board like a file's `goal:`.
std::vector<Piece> parse_goal(const Board& b, std::string_view text, const std::string& what, bool distinct);

// Renders a position: one line per row, '#' walls, '.' empty cells. `goal` draws required
// placements only (everything else '.').
std::string render(const Board& b, const std::vector<Piece>& pos, bool multiline = true);
// The rows joined by '/', for JSON and the command line.
std::string notation(const Board& b, const std::vector<Piece>& pos);

}  // namespace tansaku::blocks
