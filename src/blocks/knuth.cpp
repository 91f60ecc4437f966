// Knuth's SLIDING input (his program sliding.w): a first line "R x C comment", one line
// "name = pattern" per kind of piece (name a hex digit 1-f, pattern rows of 0/1 separated
// by '/'), then the start and the stop configuration, each filling the board by naming what
// occupies the topmost-leftmost cell not yet filled: a piece name, 0 (empty) or x (wall);
// trailing zeros may be omitted. Pieces of one name are alike. Lines starting with ';' and
// blank lines are skipped (our addition, for comments). The pieces are drawn with letters
// A, B, ... in the order the start configuration places them.
#include <cctype>
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "blocks/build.h"
#include "tansaku/core/error.h"
#include "tansaku/core/tokens.h"

namespace tansaku::blocks {

namespace {

constexpr std::string_view kLabels = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

struct Fill {
  std::vector<char> name;   // per cell: piece name, '0' empty, 'x' wall, 0 unfilled
  std::vector<int> anchor;  // per cell: the anchor of the piece covering it, -1 otherwise
};

Fill fill(const std::string& conf, int rows, int cols, const std::map<char, Shape>& shapes, const std::string& source,
          int line) {
  Fill f{std::vector<char>(static_cast<std::size_t>(rows * cols), 0), std::vector<int>(static_cast<std::size_t>(rows * cols), -1)};
  std::size_t next = 0;
  for (char raw : conf) {
    if (std::isspace(static_cast<unsigned char>(raw))) continue;
    const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(raw)));
    while (next < f.name.size() && f.name[next]) ++next;
    if (next == f.name.size())
      throw InputError(where(source, line) + fmt::format("'{}' after the board is full", raw));
    if (c == '0' || c == 'x') {
      f.name[next] = c;
      continue;
    }
    auto it = shapes.find(c);
    if (it == shapes.end())
      throw InputError(where(source, line) + fmt::format("'{}' is not a piece name defined above, 0 or x", raw));
    const int ar = static_cast<int>(next) / cols, ac = static_cast<int>(next) % cols;
    for (const auto& [dr, dc] : it->second.cells) {
      const int r = ar + dr, cc = ac + dc;
      if (r < 0 || r >= rows || cc < 0 || cc >= cols || f.name[static_cast<std::size_t>(r * cols + cc)])
        throw InputError(where(source, line) +
                         fmt::format("piece {} does not fit at row {}, column {}", raw, ar + 1, ac + 1));
      f.name[static_cast<std::size_t>(r * cols + cc)] = c;
      f.anchor[static_cast<std::size_t>(r * cols + cc)] = static_cast<int>(next);
    }
  }
  for (auto& n : f.name)
    if (!n) n = '0';
  return f;
}

}  // namespace

Board parse_knuth(std::string_view text, const std::string& source) {
  std::vector<std::pair<int, std::string>> lines;  // meaningful lines with their numbers
  {
    std::string cur;
    int n = 1;
    for (std::size_t i = 0; i <= text.size(); ++i) {
      if (i == text.size() || text[i] == '\n') {
        std::string t = trim(cur);
        if (!t.empty() && t[0] != ';') lines.emplace_back(n, t);
        cur.clear();
        ++n;
      } else {
        cur += text[i];
      }
    }
  }
  BoardText bt;
  bt.source = source;
  bt.knuth = true;
  // "R x C comment"
  if (lines.empty())  // found by fuzz/fuzz_blocks_board.cpp (front() of an empty vector)
    throw InputError(fmt::format("{}: no 'ROWS x COLUMNS' line (Knuth's format)", source));
  // (no structured bindings: the lambdas below capture them, which clang 14 cannot)
  const auto& l0 = lines.front().first;
  const auto& first = lines.front().second;
  int rows = 0, cols = 0;
  std::size_t i = 0;
  auto number = [&](int& v) {
    const std::size_t s = i;
    // v stops growing past 64 (found by fuzz/fuzz_blocks_board.cpp: "1111111111x..." overflowed)
    while (i < first.size() && std::isdigit(static_cast<unsigned char>(first[i]))) v = std::min(v * 10 + (first[i++] - '0'), 65);
    if (i == s || v > 64) throw InputError(where(source, l0) + "expected 'ROWS x COLUMNS' (Knuth's format)");
    while (i < first.size() && first[i] == ' ') ++i;
  };
  number(rows);
  ++i;  // 'x'
  while (i < first.size() && first[i] == ' ') ++i;
  number(cols);
  bt.name = trim(std::string_view(first).substr(i));
  if (rows * cols > kMaxCells)
    throw InputError(where(source, l0) + fmt::format("the board is {}x{} = {} cells; at most {} are supported", rows,
                                                     cols, rows * cols, kMaxCells));
  std::map<char, Shape> shapes;
  std::size_t k = 1;
  for (; k < lines.size() && lines[k].second.find('=') != std::string::npos; ++k) {
    const auto& ln = lines[k].first;
    const auto& t = lines[k].second;
    const std::string name = trim(std::string_view(t).substr(0, t.find('=')));
    const std::string pat = trim(std::string_view(t).substr(t.find('=') + 1));
    if (name.size() != 1 || !std::isxdigit(static_cast<unsigned char>(name[0])) || name[0] == '0')
      throw InputError(where(source, ln) + fmt::format("piece name '{}': use one hex digit 1-f", name));
    const char key = static_cast<char>(std::tolower(static_cast<unsigned char>(name[0])));
    if (shapes.count(key)) throw InputError(where(source, ln) + fmt::format("piece {} is defined twice", name));
    Grid g;
    std::string row;
    int r = 0;
    auto flush = [&] {
      g.rows.push_back(row);
      g.lines.push_back(ln);
      row.clear();
      ++r;
    };
    std::size_t width = 0;
    for (char c : pat) {
      if (c == '/') {
        width = std::max(width, row.size());
        flush();
      } else if (c == '0' || c == '1') {
        row += c == '1' ? 'P' : '.';
      } else if (c != ' ') {
        throw InputError(where(source, ln) + fmt::format("pattern '{}': rows of 0 and 1 separated by '/'", pat));
      }
    }
    width = std::max(width, row.size());
    flush();
    for (auto& rw : g.rows) rw.resize(width, '.');
    auto cells = find_pieces(g, source);
    if (cells.empty()) throw InputError(where(source, ln) + fmt::format("piece {} has no cells", name));
    shapes[key] = shape_of(cells['P'], static_cast<int>(width), nullptr);
  }
  if (shapes.empty()) throw InputError(where(source, l0) + "no piece definitions 'N = pattern' (Knuth's format)");
  if (k + 2 != lines.size())
    throw InputError(where(source, k < lines.size() ? lines[k].first : lines.back().first) +
                     "expected two configuration lines (start, stop) after the piece definitions");
  const Fill start = fill(lines[k].second, rows, cols, shapes, source, lines[k].first);
  const Fill stop = fill(lines[k + 1].second, rows, cols, shapes, source, lines[k + 1].first);
  // Letters in the order the start places its pieces; the stop's pieces of a name take the
  // letters of the start's pieces of that name in turn.
  std::map<int, char> start_label, stop_label;
  std::map<char, std::vector<char>> by_name;
  std::size_t used = 0;
  for (std::size_t p = 0; p < start.name.size(); ++p)
    if (start.anchor[p] == static_cast<int>(p)) {
      if (used == kLabels.size())
        throw InputError(where(source, lines[k].first) + fmt::format("more than {} pieces", kLabels.size()));
      start_label[static_cast<int>(p)] = kLabels[used];
      by_name[start.name[p]].push_back(kLabels[used++]);
    }
  std::map<char, std::size_t> taken;
  for (std::size_t p = 0; p < stop.name.size(); ++p)
    if (stop.anchor[p] == static_cast<int>(p)) {
      auto& list = by_name[stop.name[p]];
      std::size_t& t = taken[stop.name[p]];
      if (t == list.size())
        throw InputError(where(source, lines[k + 1].first) +
                         fmt::format("the stop configuration has more pieces {} than the start", stop.name[p]));
      stop_label[static_cast<int>(p)] = list[t++];
    }
  auto grid = [&](const Fill& f, const std::map<int, char>& labels, int line) {
    Grid g;
    for (int r = 0; r < rows; ++r) {
      std::string row;
      for (int c = 0; c < cols; ++c) {
        const std::size_t p = static_cast<std::size_t>(r * cols + c);
        row += f.name[p] == 'x' ? '#' : f.name[p] == '0' ? '.' : labels.at(f.anchor[p]);
      }
      g.rows.push_back(row);
      g.lines.push_back(line);
    }
    return g;
  };
  bt.start = grid(start, start_label, lines[k].first);
  bt.goal = grid(stop, stop_label, lines[k + 1].first);
  bt.start_line = lines[k].first;
  bt.goal_line = lines[k + 1].first;
  for (std::size_t p = 0; p < start.name.size(); ++p)
    if ((start.name[p] == 'x') != (stop.name[p] == 'x'))
      throw InputError(where(source, lines[k + 1].first) + "the walls (x) differ between the two configurations");
  return build_board(std::move(bt));
}

}  // namespace tansaku::blocks
