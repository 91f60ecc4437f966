// Reading DIMACS colouring instances (.col): "c" comments, one "p edge N M" line (extra
// fields tolerated, "col"/"edges" accepted for "edge"), "e U V" edge lines with 1-based
// vertices. Edges listed twice (both orientations, as some benchmark files do) are merged;
// loops "e V V" (homer.col has one) are ignored and counted, as colouring benchmarks do.
#pragma once
#include <cstdint>
#include <istream>
#include <string>

#include "coloring/graph.h"
#include "tansaku/search/limits.h"

namespace tansaku::coloring {

// Most vertices a graph may have (its N x N bit matrix stays within 512 MiB).
inline constexpr std::uint64_t kMaxVertices = 65536;

struct DimacsInfo {
  std::uint64_t declared_edges = 0;  // M on the p line
  std::uint64_t edge_lines = 0;      // e lines read
  std::uint64_t self_loops = 0;      // "e V V" lines: ignored (a loop admits no colouring at all)
};

// Parses a whole file. Throws InputError("SOURCE:LINE: what is wrong") on a malformed line,
// a missing or repeated p line, a vertex out of 1..N, or a graph whose bit
// rows would not fit `memory` bytes.
Graph parse_dimacs(std::istream& in, const std::string& source, std::uint64_t memory, DimacsInfo* info = nullptr);
// Reads the file through core/input.h (a regular UTF-8 text file within a quarter of
// lim.memory; lim.deadline polled while reading).
Graph read_dimacs_file(const std::string& path, const search::Limits& lim = {}, DimacsInfo* info = nullptr);

}  // namespace tansaku::coloring
