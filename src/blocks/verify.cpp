// Replaying a printed solution on a character grid.
#include "blocks/verify.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

namespace tansaku::blocks {

std::string grid(const Board& b, const std::vector<Piece>& pos) {
  std::string g(static_cast<std::size_t>(b.cells()), '.');
  for (int p = 0; p < b.cells(); ++p)
    if (b.walls >> p & 1) g[static_cast<std::size_t>(p)] = '#';
  for (const Piece& pc : pos) {
    const int ar = pc.anchor / b.cols, ac = pc.anchor % b.cols;
    for (const auto& [dr, dc] : b.kinds[static_cast<std::size_t>(pc.kind)].cells)
      g[static_cast<std::size_t>((ar + dr) * b.cols + ac + dc)] = pc.label;
  }
  return g;
}

std::optional<std::string> apply_printed(const Board& b, Metric m, std::string g, const std::string& mv,
                                         std::string* why) {
  const auto no = [&](std::string what) -> std::optional<std::string> {
    if (why) *why = std::move(what);
    return std::nullopt;
  };
  if (mv.size() < 2) return no(fmt::format("'{}' has no steps", mv));
  const char label = mv[0];
  if (label == '.' || label == '#' || g.find(label) == std::string::npos)
    return no(fmt::format("no piece '{}'", label));
  const std::string steps = mv.substr(1);
  if (m == Metric::Step && steps.size() != 1) return no(fmt::format("'{}' is more than one step", mv));
  if (m == Metric::Line && steps.find_first_not_of(steps[0]) != std::string::npos)
    return no(fmt::format("'{}' turns (line metric)", mv));
  std::vector<int> cells;
  for (int p = 0; p < b.cells(); ++p)
    if (g[static_cast<std::size_t>(p)] == label) cells.push_back(p);
  const std::vector<int> before = cells;
  for (char s : steps) {
    const int dr = s == 'u' ? -1 : s == 'd' ? 1 : 0, dc = s == 'l' ? -1 : s == 'r' ? 1 : 0;
    if (!dr && !dc) return no(fmt::format("'{}': unknown step '{}'", mv, s));
    std::vector<int> moved;
    for (int p : cells) {
      const int r = p / b.cols + dr, c = p % b.cols + dc;
      if (r < 0 || r >= b.rows || c < 0 || c >= b.cols) return no(fmt::format("'{}' leaves the board", mv));
      const char there = g[static_cast<std::size_t>(r * b.cols + c)];
      if (there != '.' && there != label) return no(fmt::format("'{}' runs into '{}'", mv, there));
      moved.push_back(r * b.cols + c);
    }
    for (int p : cells) g[static_cast<std::size_t>(p)] = '.';
    for (int p : moved) g[static_cast<std::size_t>(p)] = label;
    cells = moved;
  }
  if (cells == before) return no(fmt::format("'{}' ends where it started", mv));
  return g;
}

char missing_goal(const Board& b, bool distinct, const std::string& g, const std::vector<Piece>& goal) {
  for (const Piece& want : goal) {
    const int ar = want.anchor / b.cols, ac = want.anchor % b.cols;
    std::vector<int> need;
    for (const auto& [dr, dc] : b.kinds[static_cast<std::size_t>(want.kind)].cells) need.push_back((ar + dr) * b.cols + ac + dc);
    const char there = g[static_cast<std::size_t>(need.front())];
    std::vector<int> has;
    for (int p = 0; p < b.cells(); ++p)
      if (g[static_cast<std::size_t>(p)] == there) has.push_back(p);
    std::sort(need.begin(), need.end());
    if (there == '.' || there == '#' || has != need || (distinct && there != want.label)) return want.label;
  }
  return 0;
}

void verify(const Board& b, Metric m, bool distinct, const std::vector<Piece>& start, const std::vector<Piece>& goal,
            const std::vector<std::string>& moves, std::int64_t length) {
  std::string g = grid(b, start);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    std::string why;
    std::optional<std::string> next = apply_printed(b, m, std::move(g), moves[i], &why);
    if (!next) throw std::logic_error(fmt::format("blocks verifier: move {}: {}", i + 1, why));
    g = std::move(*next);
  }
  if (const char c = missing_goal(b, distinct, g, goal))
    throw std::logic_error(fmt::format("blocks verifier: the goal placement of '{}' is not reached", c));
  if (static_cast<std::int64_t>(moves.size()) != length)
    throw std::logic_error(fmt::format("blocks verifier: {} moves, reported {}", moves.size(), length));
}

}  // namespace tansaku::blocks
