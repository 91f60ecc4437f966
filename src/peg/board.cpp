// Peg boards: the lattices' jump directions, board pictures parsed from text or files, the
// builtin boards, and the hole and position notation read and printed.
#include "peg/board.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "peg/bounds.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/tokens.h"

namespace tansaku::peg {

const char* lattice_name(Lattice l) {
  switch (l) {
    case Lattice::Square: return "square";
    case Lattice::SquareDiagonal: return "square-diagonal";
    case Lattice::Triangular: return "triangular";
  }
  return "?";
}

int Board::hole_at(int la, int lb) const {
  for (int h = 0; h < n; ++h)
    if (a[h] == la && b[h] == lb) return h;
  return -1;
}

namespace {

bool is_peg_char(char c) { return c == 'o' || c == 'O' || c == 'x' || c == 'X' || c == '*' || c == '@'; }

// The lattice directions in (a, b) coordinates; each jump goes two steps along one.
std::vector<std::pair<int, int>> directions(Lattice l) {
  std::vector<std::pair<int, int>> d = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  if (l == Lattice::SquareDiagonal) d.insert(d.end(), {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}});
  if (l == Lattice::Triangular) d.insert(d.end(), {{-1, 1}, {1, -1}});
  return d;
}

void derive_jumps(Board& bd) {
  bd.jumps.clear();
  bd.jumps_from.assign(bd.n, {});
  bd.jumps_to.assign(bd.n, {});
  const auto dirs = directions(bd.lattice);
  for (int h = 0; h < bd.n; ++h)
    for (auto [da, db] : dirs) {
      int over = bd.hole_at(bd.a[h] + da, bd.b[h] + db);
      int to = bd.hole_at(bd.a[h] + 2 * da, bd.b[h] + 2 * db);
      if (over < 0 || to < 0) continue;
      Jump j{static_cast<std::uint8_t>(h), static_cast<std::uint8_t>(over), static_cast<std::uint8_t>(to),
             bd.bit(h) | bd.bit(over) | bd.bit(to)};
      bd.jumps_from[h].push_back(static_cast<int>(bd.jumps.size()));
      bd.jumps_to[to].push_back(static_cast<int>(bd.jumps.size()));
      bd.jumps.push_back(j);
    }
}

// The hole nearest the board's centroid (ties: lowest number).
int central_hole(const Board& bd) {
  auto px = [&](int h) { return bd.lattice == Lattice::Triangular ? bd.x[h] * 0.5 : static_cast<double>(bd.x[h]); };
  auto py = [&](int h) { return bd.lattice == Lattice::Triangular ? bd.y[h] * std::sqrt(3.0) / 2 : bd.y[h] * 1.0; };
  double cx = 0, cy = 0;
  for (int h = 0; h < bd.n; ++h) cx += px(h), cy += py(h);
  cx /= bd.n, cy /= bd.n;
  int best = 0;
  double bestd = 1e18;
  for (int h = 0; h < bd.n; ++h) {
    double d = (px(h) - cx) * (px(h) - cx) + (py(h) - cy) * (py(h) - cy);
    if (d < bestd - 1e-9) bestd = d, best = h;
  }
  return best;
}

}  // namespace

Board parse_board(const std::string& text, const std::string& source) {
  Board bd;
  bd.name = source;
  std::optional<Lattice> lattice;
  std::optional<std::string> finish, empty;
  struct Cell {
    int x, y, line;
    bool peg;
  };
  std::vector<Cell> cells;
  std::vector<std::string> lines;
  {
    std::string cur;
    for (char c : without_bom(text)) {
      if (c == '\n') lines.push_back(cur), cur.clear();
      else if (c != '\r') cur += c;
    }
    if (!cur.empty()) lines.push_back(cur);
  }
  std::map<std::string, int> key_line;  // "lattice" -> the line that set it
  int row = -1;  // picture row of the current line (-1 before the picture starts)
  int pending_blank = 0;
  for (std::size_t li = 0; li < lines.size(); ++li) {
    const std::string& line = lines[li];
    const int lineno = static_cast<int>(li) + 1;
    std::string t = trim(line);
    if (!t.empty() && t[0] == '#') continue;
    if (t.empty()) {
      if (row >= 0) ++pending_blank;
      continue;
    }
    if (auto colon = t.find(':'); colon != std::string::npos) {
      std::string key = trim(t.substr(0, colon)), value = trim(t.substr(colon + 1));
      for (auto& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (auto [at, fresh] = key_line.emplace(key, lineno); !fresh && (key == "lattice" || key == "name" || key == "finish" || key == "empty"))
        throw InputError(fmt::format("{} line {}: a second '{}:' line (the first is line {})", source, lineno, key,
                                     at->second));
      if (key == "lattice") {
        std::string v = value;
        for (auto& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (v == "square") lattice = Lattice::Square;
        else if (v == "square-diagonal" || v == "diagonal" || v == "square8") lattice = Lattice::SquareDiagonal;
        else if (v == "triangular" || v == "triangle" || v == "hex") lattice = Lattice::Triangular;
        else
          throw InputError(fmt::format("{} line {}: unknown lattice '{}' (square, square-diagonal or triangular)",
                                       source, lineno, printable(value)));
      } else if (key == "name") {
        if (value.empty()) throw InputError(fmt::format("{} line {}: empty name", source, lineno));
        bd.name = value;
      } else if (key == "finish") {
        finish = value;
      } else if (key == "empty") {
        empty = value;
      } else {
        throw InputError(
            fmt::format("{} line {}: unknown key '{}' (lattice, name, empty, finish)", source, lineno, printable(key)));
      }
      continue;
    }
    // A picture line.
    row += 1 + pending_blank;
    pending_blank = 0;
    for (std::size_t c = 0; c < line.size(); ++c) {
      char ch = line[c];
      if (ch == ' ') continue;
      if (ch == '.' || is_peg_char(ch)) {
        cells.push_back({static_cast<int>(c), row, lineno, ch != '.'});
        continue;
      }
      throw InputError(
          fmt::format("{} line {} column {}: unexpected character '{}' (holes are 'o' or '.', gaps are spaces)", source,
                      lineno, c + 1, printable(char_at(line, c))));
    }
  }
  if (!lattice) throw InputError(fmt::format("{}: no 'lattice:' line (square, square-diagonal, triangular)", source));
  if (cells.empty()) throw InputError(fmt::format("{}: the picture has no holes", source));
  if (cells.size() > static_cast<std::size_t>(kMaxHoles))
    throw InputError(fmt::format("{}: {} holes; at most {} are supported", source, cells.size(), kMaxHoles));
  bd.lattice = *lattice;
  bd.n = static_cast<int>(cells.size());
  int minx = cells[0].x;
  for (const auto& c : cells) minx = std::min(minx, c.x);
  const int parity = (cells[0].x - minx + cells[0].y) & 1;
  for (const auto& c : cells) {
    const int x = c.x - minx;
    if (bd.lattice == Lattice::Triangular) {
      if (((x + c.y) & 1) != parity)
        throw InputError(fmt::format("{} line {}: hole at column {} is off the triangular lattice (holes in a row are two "
                                     "columns apart, and each row shifts by one)",
                                     source, c.line, c.x + 1));
      bd.x.push_back(x + parity);
      bd.y.push_back(c.y);
      bd.a.push_back((x + parity - c.y) / 2);
      bd.b.push_back(c.y);
    } else {
      if (x & 1)
        throw InputError(fmt::format("{} line {}: hole at column {} is between two cells (write square-lattice cells "
                                     "separated by one space: 'o o o')",
                                     source, c.line, c.x + 1));
      bd.x.push_back(x / 2);
      bd.y.push_back(c.y);
      bd.a.push_back(x / 2);
      bd.b.push_back(c.y);
    }
  }
  for (int h = 0; h < bd.n; ++h) {
    bd.all |= bd.bit(h);
    if (!cells[h].peg) bd.standard_empty |= bd.bit(h);
  }
  derive_jumps(bd);
  if (empty) {
    if (bd.standard_empty) throw InputError(fmt::format("{}: give the vacancy either as '.' holes or as 'empty:', not both", source));
    for (int h : parse_holes(bd, *empty, source + " empty")) bd.standard_empty |= bd.bit(h);
  }
  if (!bd.standard_empty) bd.standard_empty = bd.bit(central_hole(bd));
  if (finish) {
    auto f = parse_holes(bd, *finish, source + " finish");
    if (f.size() != 1) throw InputError(fmt::format("{}: 'finish:' takes one hole", source));
    bd.standard_finish = f[0];
  }
  return bd;
}

Board load_board_file(const std::string& path, std::uint64_t memory, const Deadline* deadline) {
  return parse_board(read_text_file(path, "board file", memory, deadline), path);
}

namespace {

std::string triangle_picture(int n, int vacancy) {
  std::string s = "lattice: triangular\n";
  int h = 0;
  for (int r = 0; r < n; ++r) {
    s += std::string(static_cast<std::size_t>(n - 1 - r), ' ');
    for (int i = 0; i <= r; ++i, ++h) {
      if (i) s += ' ';
      s += h == vacancy ? '.' : 'o';
    }
    s += '\n';
  }
  return s;
}

// Standard vacancy of triangleN: the middle of the bottom row (seed 000's hole 12 on
// triangle5; for even N the hole just left of the middle), moved left along the row while
// position classes rule out ending with one peg from it (N = 7, 10).
int triangle_vacancy(int n) {
  const int first = n * (n - 1) / 2;
  const Board bd = parse_board(triangle_picture(n, -1), "triangle");
  const PositionClass pc(bd);
  for (int h = first + (n - 1) / 2; h > first; --h) {
    const auto c = pc.of(bd.all & ~bd.bit(h));
    for (int f = 0; f < bd.n; ++f)
      if (pc.of(bd.bit(f)) == c) return h;
  }
  return first + (n - 1) / 2;
}

const char* kTryTry =
    "lattice: triangular\n"
    "    o o\n"
    "   o o o\n"
    "  o o o o\n"
    " o o . o o\n"
    "o o o o o o\n"
    " o o o o o\n";

const char* kEnglish =
    "lattice: square\n"
    "    o o o\n"
    "    o o o\n"
    "o o o o o o o\n"
    "o o o . o o o\n"
    "o o o o o o o\n"
    "    o o o\n"
    "    o o o\n";

const char* kFrench =
    "lattice: square\n"
    "    o o o\n"
    "  o o o o o\n"
    "o o o o o o o\n"
    "o o o . o o o\n"
    "o o o o o o o\n"
    "  o o o o o\n"
    "    o o o\n";

}  // namespace

Board builtin_board(const std::string& variant) {
  Board bd;
  if (variant.rfind("triangle", 0) == 0) {
    std::string num = variant.substr(8);
    if (num.empty()) throw InputError("peg:triangleN needs a size N = 4..10, e.g. peg:triangle5");
    auto n = parse_uint(num, "peg:triangleN size");
    if (n < 4 || n > 10) throw InputError(fmt::format("peg:triangle{}: N must be 4..10", num));
    bd = parse_board(triangle_picture(static_cast<int>(n), triangle_vacancy(static_cast<int>(n))), "peg:" + variant);
  } else if (variant == "trytry") {
    bd = parse_board(kTryTry, "peg:trytry");
  } else if (variant == "english") {
    bd = parse_board(kEnglish, "peg:english");
  } else if (variant == "french") {
    bd = parse_board(kFrench, "peg:french");
  } else {
    throw InputError(fmt::format(
        "unknown peg board '{}' (triangle4..triangle10, trytry, english, french, or a board file path)", variant));
  }
  bd.name = "peg:" + variant;
  return bd;
}

std::vector<std::pair<std::string, std::string>> builtin_list() {
  return {{"peg:triangle5", "15-hole triangle (from M. Hiroi's Scheme pages): hole 12 empty, 9 moves to finish in 12"},
          {"peg:triangleN", "triangle of N rows, N = 4..10; vacancy in the middle of the bottom row"},
          {"peg:trytry",
           "Try-Try, 25 holes (by Nob Yoshigahara; M. Hiroi's Puzzle DE Programming): centre 11 empty, 11 moves; 12 to "
           "finish in 11"},
          {"peg:english", "English cross, 33 holes: centre empty, 18 moves to finish in the centre"},
          {"peg:french", "French (European) board, 37 holes: centre empty (provably no one-peg finish)"},
          {"peg:FILE", "a board file: ASCII picture of the holes + lattice (docs/peg.md)"}};
}

std::string render(const Board& bd, int w, const std::vector<std::string>& cells) {
  const int step = bd.lattice == Lattice::Triangular ? (w + 2) / 2 : w + 1;
  int rows = 0, cols = 0;
  for (int h = 0; h < bd.n; ++h) rows = std::max(rows, bd.y[h] + 1), cols = std::max(cols, bd.x[h] * step + w);
  std::vector<std::string> pic(static_cast<std::size_t>(rows), std::string(static_cast<std::size_t>(cols), ' '));
  for (int h = 0; h < bd.n; ++h) {
    std::string c = cells[static_cast<std::size_t>(h)];
    if (static_cast<int>(c.size()) < w) c.insert(0, static_cast<std::size_t>(w) - c.size(), ' ');
    pic[static_cast<std::size_t>(bd.y[h])].replace(static_cast<std::size_t>(bd.x[h] * step), c.size(), c);
  }
  std::string s;
  for (auto& line : pic) {
    while (!line.empty() && line.back() == ' ') line.pop_back();
    s += line + '\n';
  }
  return s;
}

std::string render_numbers(const Board& bd) {
  std::vector<std::string> cells;
  for (int h = 0; h < bd.n; ++h) cells.push_back(std::to_string(h));
  return render(bd, bd.n > 10 ? 2 : 1, cells);
}

std::string render_position(const Board& bd, Bits pegs) {
  std::vector<std::string> cells;
  for (int h = 0; h < bd.n; ++h) cells.push_back((pegs >> h) & 1 ? "o" : ".");
  return render(bd, 1, cells);
}

std::string format_position(const Board& bd, Bits pegs) {
  std::string s;
  for (int h = 0; h < bd.n; ++h) s += (pegs >> h) & 1 ? '1' : '0';
  return s;
}

Bits parse_position(const Board& bd, const std::string& text, const std::string& what) {
  Bits b = 0;
  int h = 0;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',') continue;
    bool peg;
    if (c == '1' || is_peg_char(c)) peg = true;
    else if (c == '0' || c == '.' || c == '_') peg = false;
    else throw InputError(fmt::format("{}: unexpected '{}' (one 1/o (peg) or 0/. (empty) per hole)", what, c));
    if (h >= bd.n) throw InputError(fmt::format("{}: more than the {} holes of {}", what, bd.n, bd.name));
    if (peg) b |= bd.bit(h);
    ++h;
  }
  if (h != bd.n) throw InputError(fmt::format("{}: {} holes given; {} has {}", what, h, bd.name, bd.n));
  return b;
}

std::vector<int> parse_holes(const Board& bd, const std::string& text, const std::string& what) {
  std::vector<int> out;
  for (const auto& tok : split_state(text)) {
    auto v = parse_uint(tok, what);
    if (v >= static_cast<std::uint64_t>(bd.n))
      throw InputError(fmt::format("{}: hole {} is not on {} (holes 0-{})", what, tok, bd.name, bd.n - 1));
    if (std::find(out.begin(), out.end(), static_cast<int>(v)) != out.end())
      throw InputError(fmt::format("{}: hole {} given twice", what, tok));
    out.push_back(static_cast<int>(v));
  }
  if (out.empty()) throw InputError(fmt::format("{}: no hole given", what));
  return out;
}

}  // namespace tansaku::peg
