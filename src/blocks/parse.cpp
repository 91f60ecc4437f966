// The picture file format (docs/blocks.md): optional `name:`, `metric:`, `distinct:` lines,
// then `start:` and its rows, then `goal:` and its rows; ';' starts a comment line. Also the
// pictures given on the command line (--start, --goal, --from) and the rendering of positions.
#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "blocks/build.h"
#include "blocks/picture.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/tokens.h"

namespace tansaku::blocks {

Metric parse_metric(std::string_view text, std::string_view where_) {
  if (text == "step") return Metric::Step;
  if (text == "line") return Metric::Line;
  if (text == "path") return Metric::Path;
  throw InputError(fmt::format("{}metric '{}': use step, line or path", where_, printable(text)));
}

const char* metric_name(Metric m) {
  switch (m) {
    case Metric::Step: return "step";
    case Metric::Line: return "line";
    case Metric::Path: return "path";
  }
  return "?";
}

std::uint64_t Board::cover(int kind, int anchor) const {
  const int ar = anchor / cols, ac = anchor % cols;
  std::uint64_t m = 0;
  for (const auto& [dr, dc] : kinds[static_cast<std::size_t>(kind)].cells) {
    const int r = ar + dr, c = ac + dc;
    if (r < 0 || r >= rows || c < 0 || c >= cols) return 0;
    m |= std::uint64_t{1} << (r * cols + c);
  }
  return (m & walls) ? 0 : m;
}

namespace {

bool is_comment(const std::string& t) { return t.empty() || t[0] == ';'; }

// "key: value" for the known keys; nullopt for a picture row.
std::optional<std::pair<std::string, std::string>> header(const std::string& t, const std::string& source, int line) {
  const auto colon = t.find(':');
  if (colon == std::string::npos) return std::nullopt;
  std::string key = trim(std::string_view(t).substr(0, colon));
  for (auto& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (key != "name" && key != "metric" && key != "distinct" && key != "start" && key != "goal")
    throw InputError(where(source, line) +
                     fmt::format("unknown line '{}:' (name, metric, distinct, start, goal)", printable(key)));
  return std::make_pair(key, trim(std::string_view(t).substr(colon + 1)));
}

// Splits text into lines; in one-line text (the command line) '/' separates rows.
std::vector<std::string> lines_of(std::string_view text) {
  const bool slashes = text.find('\n') == std::string_view::npos;
  std::vector<std::string> out;
  std::string cur;
  for (char c : text) {
    if (c == '\n' || (slashes && c == '/')) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

}  // namespace

Board parse_board(std::string_view text, const std::string& source) {
  const auto lines = lines_of(without_bom(text));
  for (const auto& l : lines) {
    const std::string t = trim(l);
    if (is_comment(t)) continue;
    if (std::isdigit(static_cast<unsigned char>(t[0]))) {
      std::size_t i = 0;
      while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
      while (i < t.size() && t[i] == ' ') ++i;
      if (i < t.size() && (t[i] == 'x' || t[i] == 'X')) return parse_knuth(text, source);
    }
    break;
  }
  BoardText bt;
  bt.source = source;
  enum { None, Start, Goal } section = None;
  int last = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int line = static_cast<int>(i) + 1;
    const std::string t = trim(lines[i]);
    if (is_comment(t)) continue;
    last = line;
    if (auto h = header(t, source, line)) {
      const auto& [key, value] = *h;
      if (key == "name") {
        if (value.empty()) throw InputError(where(source, line) + "empty name");
        bt.name = value;
      } else if (key == "metric") {
        bt.metric = parse_metric(value, where(source, line));
      } else if (key == "distinct") {
        if (value == "yes" || value == "true") bt.distinct = true;
        else if (value == "no" || value == "false") bt.distinct = false;
        else throw InputError(where(source, line) + fmt::format("distinct: '{}': use yes or no", printable(value)));
      } else {
        if (!value.empty()) throw InputError(where(source, line) + fmt::format("the rows of '{}:' start on the next line", key));
        if (key == "start") {
          if (bt.start_line) throw InputError(where(source, line) + "a second 'start:'");
          section = Start, bt.start_line = line;
        } else {
          if (!bt.start_line) throw InputError(where(source, line) + "'goal:' before 'start:'");
          if (bt.goal_line) throw InputError(where(source, line) + "a second 'goal:'");
          section = Goal, bt.goal_line = line;
        }
      }
      continue;
    }
    if (section == None)
      throw InputError(where(source, line) + "a picture row before 'start:' (comment lines start with ';')");
    Grid& g = section == Start ? bt.start : bt.goal;
    add_row(g, row_cells(t, source, line), source, line);
  }
  if (!bt.start_line) throw InputError(where(source, last) + "no 'start:' picture in the file");
  return build_board(std::move(bt));
}

Board load_board(const std::string& path) {
  // core/input.h: a regular UTF-8 text file within the default budget's file limit.
  return parse_board(read_text_file(path, "board file", 0, nullptr), path);
}

namespace {

// A picture given for a position: a file's `start:` section when it has one (so another
// board file can be given), else every row.
Grid picture_rows(std::string_view text, const std::string& what) {
  const auto lines = lines_of(text);
  bool has_start = false;
  for (const auto& l : lines)
    if (trim(l) == "start:") has_start = true;
  const bool multiline = text.find('\n') != std::string_view::npos;
  Grid g;
  bool in = !has_start;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string t = trim(lines[i]);
    const int line = multiline ? static_cast<int>(i) + 1 : 0;
    if (is_comment(t)) continue;
    if (t.find(':') != std::string::npos) {
      auto h = header(t, what, line);
      in = has_start && h->first == "start";
      continue;
    }
    if (in) add_row(g, row_cells(t, what, line), what, line);
  }
  if (g.rows.empty()) throw InputError(where(what, 0) + "no picture rows");
  return g;
}

}  // namespace

std::vector<Piece> parse_position(const Board& b, std::string_view text, const std::string& what, bool distinct) {
  return position_from_grid(b, picture_rows(text, what), what, distinct);
}

std::vector<Piece> parse_goal(const Board& b, std::string_view text, const std::string& what, bool distinct) {
  return goal_from_grid(b, picture_rows(text, what), what, distinct);
}

std::string render(const Board& b, const std::vector<Piece>& pos, bool multiline) {
  std::string cells(static_cast<std::size_t>(b.cells()), '.');
  for (int p = 0; p < b.cells(); ++p)
    if (b.walls >> p & 1) cells[static_cast<std::size_t>(p)] = '#';
  for (const Piece& pc : pos) {
    const std::uint64_t m = b.cover(pc.kind, pc.anchor);
    for (std::uint64_t r = m; r; r &= r - 1) cells[static_cast<std::size_t>(std::countr_zero(r))] = pc.label;
  }
  std::string out;
  for (int r = 0; r < b.rows; ++r) {
    if (r) out += multiline ? '\n' : '/';
    out += cells.substr(static_cast<std::size_t>(r * b.cols), static_cast<std::size_t>(b.cols));
  }
  if (multiline) out += '\n';
  return out;
}

std::string notation(const Board& b, const std::vector<Piece>& pos) { return render(b, pos, false); }

}  // namespace tansaku::blocks
