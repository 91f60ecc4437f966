// Sliding boards: grid geometry and adjacency, labels, start/goal parsing and printing, text
// pictures, and the parity invariant.
#include "sliding/board.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/ranking.h"
#include "tansaku/core/tokens.h"

namespace tansaku::sliding {

Geometry::Geometry(int r, int c) : rows(r), cols(c), n(r * c), adj(static_cast<std::size_t>(r * c)) {
  for (int i = 0; i < n; ++i) {
    int y = i / c, x = i % c;
    if (y > 0) adj[i].push_back(i - c);
    if (x > 0) adj[i].push_back(i - 1);
    if (x + 1 < c) adj[i].push_back(i + 1);
    if (y + 1 < r) adj[i].push_back(i + c);
  }
}

bool Labels::distinct() const {
  return std::all_of(counts.begin(), counts.end(), [](int c) { return c == 1; });
}

int Labels::index(const std::string& name) const {
  auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}

namespace {
bool numeric(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}
bool label_less(const std::string& a, const std::string& b) {
  if (numeric(a) && numeric(b) && a.size() != b.size()) return a.size() < b.size();
  return a < b;
}
// "007" is tile 7; "." (how pictures draw the blank) is the blank 0.
std::string canonical(const std::string& t) {
  if (t == ".") return "0";
  if (!numeric(t)) return t;
  auto p = t.find_first_not_of('0');
  return p == std::string::npos ? "0" : t.substr(p);
}
}  // namespace

Labels make_labels(const std::vector<std::string>& tokens, const std::string& what) {
  std::map<std::string, int, decltype(&label_less)> count(&label_less);
  for (const auto& t : tokens) ++count[canonical(t)];
  auto blank = count.find("0");
  if (blank == count.end()) throw InputError(fmt::format("{} has no blank (0)", what));
  if (blank->second != 1) throw InputError(fmt::format("{} has {} blanks; exactly one 0 is allowed", what, blank->second));
  Labels l;
  l.names.push_back("0");
  l.counts.push_back(1);
  for (const auto& [name, c] : count)
    if (name != "0") l.names.push_back(name), l.counts.push_back(c);
  if (l.names.size() > 64) throw InputError(fmt::format("{} has more than 64 different labels", what));
  return l;
}

Cells parse_cells(const Geometry& geo, const Labels& labels, const std::string& text, const std::string& what) {
  auto tokens = split_state(text, static_cast<std::size_t>(geo.n));
  if (static_cast<int>(tokens.size()) != geo.n)
    throw InputError(fmt::format("{} has {} tokens; a {}x{} board needs {}", what, tokens.size(), geo.rows, geo.cols, geo.n));
  Cells cells(geo.n);
  std::vector<int> seen(labels.names.size(), 0);
  for (int i = 0; i < geo.n; ++i) {
    int k = labels.index(canonical(tokens[i]));
    if (k < 0) throw InputError(fmt::format("{}: label '{}' does not occur in the goal", what, tokens[i]));
    cells[i] = static_cast<std::uint8_t>(k);
    ++seen[k];
  }
  for (std::size_t k = 0; k < seen.size(); ++k)
    if (seen[k] != labels.counts[k])
      throw InputError(fmt::format("{}: label '{}' occurs {} times but {} times in the goal", what, labels.names[k],
                                   seen[k], labels.counts[k]));
  return cells;
}

std::string format_cells(const Labels& labels, const Cells& cells) {
  std::string s;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i) s += ' ';
    s += labels.names[cells[i]];
  }
  return s;
}

std::string picture(const Geometry& geo, const Labels& labels, const Cells& cells) {
  std::size_t w = 1;
  for (const auto& nm : labels.names) w = std::max(w, nm.size());
  std::string s;
  for (int r = 0; r < geo.rows; ++r) {
    s += "  ";
    for (int c = 0; c < geo.cols; ++c) {
      int k = cells[r * geo.cols + c];
      s += fmt::format("{:>{}}", k == 0 ? std::string(".") : labels.names[k], w);
      s += c + 1 < geo.cols ? " " : "\n";
    }
  }
  return s;
}

std::string numbering(const Geometry& geo) {
  std::size_t w = std::to_string(geo.n - 1).size();
  std::string s;
  for (int r = 0; r < geo.rows; ++r) {
    s += "  ";
    for (int c = 0; c < geo.cols; ++c) s += fmt::format("{:>{}}{}", r * geo.cols + c, w, c + 1 < geo.cols ? " " : "\n");
  }
  return s;
}

int parity_invariant(const Geometry& geo, const Cells& cells) {
  std::vector<std::uint8_t> seq;
  int blank = 0;
  for (int i = 0; i < geo.n; ++i) {
    if (cells[i] == 0) blank = i;
    else seq.push_back(static_cast<std::uint8_t>(cells[i] - 1));
  }
  int p = PermutationRanker::parity(seq.data(), static_cast<int>(seq.size()));
  // A vertical move carries a tile past cols-1 others: the sequence parity flips with the
  // blank's row exactly when the width is even.
  if (geo.cols % 2 == 0) p ^= geo.row(blank) & 1;
  return p;
}

}  // namespace tansaku::sliding
