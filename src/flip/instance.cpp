// Reading a flip instance from the options (instance.h).
#include "flip/instance.h"

#include <fmt/format.h>

#include "tansaku/core/input.h"
#include "tansaku/core/memory.h"

namespace tansaku::flip {
namespace {

// A grid given on the command line, or "@FILE" for a grid stored in a file (read through
// core/input.h: a regular text file within a quarter of the budget, the deadline polled).
std::string grid_text(const std::string& value, std::string_view what, const Options& o) {
  if (value.empty() || value[0] != '@') return value;
  return read_text_file(value.substr(1), fmt::format("{} file", what), o.memory, &o.deadline);
}

}  // namespace

void require_cells(const Board& board, const std::string& name, const Options& o) {
  require_memory(static_cast<std::uint64_t>(board.cells()) * kBytesPerCell, o.memory,
                 fmt::format("{} ({} cells)", name, board.cells()));
}

Bits start_of(const Board& board, const Options& o) {
  if (o.start) return board.parse_grid(grid_text(*o.start, "start", o), "start");
  Bits b(static_cast<std::size_t>(board.cells()));
  b.fill(true);
  return b;
}

Bits goal_of(const Board& board, const Options& o) {
  if (o.goal) return board.parse_grid(grid_text(*o.goal, "goal", o), "goal");
  return Bits(static_cast<std::size_t>(board.cells()));
}

Bits source_of(const Board& board, const Options& o) {
  const std::optional<std::string> text = o.origin();
  if (!text || text->empty()) return Bits(static_cast<std::size_t>(board.cells()));
  return board.parse_grid(grid_text(*text, "from state", o), "from state");
}

json cells_json(const Bits& x) {
  json a = json::array();
  for (auto i : x.ones()) a.push_back(i);
  return a;
}

std::string cell_list(const Bits& x, std::size_t limit) {
  auto v = x.ones();
  std::string s;
  for (std::size_t i = 0; i < v.size() && i < limit; ++i) {
    if (i) s += ' ';
    s += std::to_string(v[i]);
  }
  if (v.size() > limit) s += fmt::format(" ... ({} cells)", v.size());
  return s;
}

Bits from_word(std::uint64_t w, std::size_t n) {
  Bits b(n);
  if (n) b.data()[0] = w;
  return b;
}

std::uint64_t to_word(const Bits& b) { return b.words() ? b.word(0) : 0; }

}  // namespace tansaku::flip
