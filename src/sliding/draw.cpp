// Drawing sliding boards and solutions: tiles on the grid, one frame per move with the moved
// tile marked.
#include "sliding/draw.h"

#include <algorithm>

#include <fmt/format.h>

#include "tansaku/core/tokens.h"
#include "tansaku/render/svg.h"

namespace tansaku::sliding {

using render::num;

std::string tiles_svg(int rows, int cols, const std::vector<std::string>& text, const std::vector<std::string>& colour,
                      const std::vector<int>& marked) {
  const double pad = 0.08;
  std::size_t longest = 1;
  for (const auto& t : text) longest = std::max(longest, t.size());
  const double font = longest <= 2 ? 0.44 : std::max(0.16, 0.88 / static_cast<double>(longest));
  const double px = std::clamp(420.0 / std::max(rows, cols), 28.0, 72.0);
  render::Svg svg(cols + 2 * pad, rows + 2 * pad, px);
  svg.rect(0, 0, cols + 2 * pad, rows + 2 * pad, "#5a4632", "rx=\"0.12\"");
  for (int i = 0; i < rows * cols; ++i) {
    const double x = pad + i % cols, y = pad + i / cols;
    svg.raw(fmt::format("<g data-cell=\"{}\">", i));
    svg.rect(x + 0.03, y + 0.03, 0.94, 0.94, "#3b2e21", "rx=\"0.06\"");
    if (!text[i].empty()) {
      const std::string& fill = colour[i].empty() ? std::string("#f3d9a4") : colour[i];
      svg.rect(x + 0.05, y + 0.05, 0.9, 0.9, fill, "rx=\"0.1\" stroke=\"#8a6d3b\" stroke-width=\"0.03\"");
      svg.text(x + 0.5, y + 0.52, text[i], font, colour[i].empty() ? "#222" : "#fff", "font-weight=\"bold\"");
    }
    svg.raw("</g>");
  }
  for (int i : marked)  // the step's highlight: separate elements (render/page.h: data-mark)
    svg.rect(pad + i % cols + 0.07, pad + i / cols + 0.07, 0.86, 0.86, "none",
             "rx=\"0.1\" stroke=\"#e0301e\" stroke-width=\"0.07\" data-mark=\"1\"");
  return svg.str();
}

std::string board_svg(const Geometry& geo, const Labels& labels, const Cells& cells, const std::vector<int>& marked) {
  const bool distinct = labels.distinct();
  std::vector<std::string> text(cells.size()), colour(cells.size());
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i] == 0) continue;
    text[i] = labels.names[cells[i]];
    if (!distinct) colour[i] = std::string(render::palette(cells[i] - 1u));
  }
  return tiles_svg(geo.rows, geo.cols, text, colour, marked);
}

std::optional<Cells> Rules::apply(const Cells& b, Move m) const {
  const int blank = static_cast<int>(std::find(b.begin(), b.end(), 0) - b.begin());
  if (blank >= geo.n || std::find(geo.adj[blank].begin(), geo.adj[blank].end(), m) == geo.adj[blank].end())
    return std::nullopt;  // not a tile next to the blank
  Cells next = b;
  std::swap(next[m], next[blank]);
  return next;
}

std::string Rules::frame(const Cells& before, Move, const Cells& after) const {
  return board_svg(geo, labels, after, {static_cast<int>(std::find(before.begin(), before.end(), 0) - before.begin())});
}

void solved_text(const Solution<Rules>& s, bool steps, SolveReport& r) {
  json cells = json::array();
  for (auto m : s.moves) cells.push_back(static_cast<int>(m));
  r.extra["cells"] = cells;
  r.text = "start:\n" + picture(s.rules.geo, s.rules.labels, s.start);
  if (!steps) return;
  const std::vector<Cells> boards = s.positions();
  for (std::size_t i = 0; i < s.moves.size(); ++i)
    r.text += fmt::format("{}. {}\n", i + 1, r.moves[i].get<std::string>()) +
              picture(s.rules.geo, s.rules.labels, boards[i + 1]);
}

}  // namespace tansaku::sliding
