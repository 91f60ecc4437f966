// The DIMACS .col reader: the "p edge" header, "e U V" lines checked against it, duplicate
// edges merged and loops counted, within the memory budget.
#include "coloring/dimacs.h"

#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/tokens.h"

namespace tansaku::coloring {

namespace {
std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}
}  // namespace

Graph parse_dimacs(std::istream& in, const std::string& source, std::uint64_t memory, DimacsInfo* info) {
  std::string line;
  std::size_t lineno = 0;
  bool have_p = false;
  std::uint64_t n = 0, m = 0, edge_lines = 0, self_loops = 0;
  std::vector<std::pair<int, int>> edges;
  auto where = [&] { return fmt::format("{}:{}", source, lineno); };
  while (std::getline(in, line)) {
    ++lineno;
    auto f = fields(line);
    if (f.empty() || f[0][0] == 'c' || f[0][0] == '%') continue;  // blank line or comment
    const std::string_view kind = f[0];
    if (kind == "p") {
      if (have_p) throw InputError(where() + ": a second 'p' line");
      if (f.size() < 4) throw InputError(where() + ": the 'p' line needs 'p edge N M'");
      if (f[1] != "edge" && f[1] != "edges" && f[1] != "col")
        throw InputError(fmt::format("{}: unknown problem '{}' on the 'p' line (expected 'edge')", where(), printable(f[1])));
      n = parse_uint(f[2], where() + ": vertex count");
      m = parse_uint(f[3], where() + ": edge count");
      // The solvers keep an N x N bit matrix: N is capped so that a few bytes of header cannot
      // claim gigabytes (at most 512 MiB), and the matrix must fit the budget.
      if (n > kMaxVertices)
        throw InputError(fmt::format("{}: {} vertices is more than this solver supports (at most {}: it keeps an N x N "
                                     "bit matrix)", where(), n, kMaxVertices));
      require_memory(graph_bytes(n, m), memory, fmt::format("the graph of {} ({} vertices)", source, n));
      // Memory follows the file: the edge list grows with the 'e' lines actually read, never
      // with what the 'p' line claims.
      edges.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(m, 1 << 16)));
      have_p = true;
    } else if (kind == "e") {
      if (!have_p) throw InputError(where() + ": an 'e' line before the 'p' line");
      if (f.size() != 3) throw InputError(where() + ": an edge line must be 'e U V'");
      auto u = parse_uint(f[1], where() + ": vertex"), v = parse_uint(f[2], where() + ": vertex");
      if (u < 1 || u > n || v < 1 || v > n)
        throw InputError(fmt::format("{}: vertex {} out of range 1..{}", where(), (u < 1 || u > n) ? u : v, n));
      ++edge_lines;
      if (u == v) {  // a loop, as in homer.col: ignored (and counted), as colouring benchmarks do
        ++self_loops;
        continue;
      }
      edges.emplace_back(static_cast<int>(u - 1), static_cast<int>(v - 1));
    } else if (kind == "n") {
      // Vertex weights "n V W" of weighted variants: checked, then ignored.
      if (!have_p || f.size() < 2) throw InputError(where() + ": malformed 'n' line");
      auto v = parse_uint(f[1], where() + ": vertex");
      if (v < 1 || v > n) throw InputError(fmt::format("{}: vertex {} out of range 1..{}", where(), v, n));
    } else {
      throw InputError(fmt::format("{}: unknown line type '{}' (expected c, p or e)", where(), printable(kind)));
    }
  }
  if (in.bad()) throw InputError(source + ": read error");
  if (!have_p) throw InputError(source + ": no 'p edge N M' line");
  if (info) info->declared_edges = m, info->edge_lines = edge_lines, info->self_loops = self_loops;
  return make_graph(static_cast<int>(n), edges);
}

Graph read_dimacs_file(const std::string& path, const search::Limits& lim, DimacsInfo* info) {
  std::istringstream in(read_text_file(path, "graph file", lim.memory, lim.deadline));
  return parse_dimacs(in, path, lim.memory, info);
}

}  // namespace tansaku::coloring
