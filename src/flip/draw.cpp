// Drawing flip boards and solutions: a cell per lamp on small boards, runs of lit lamps as
// path segments on large ones, presses marked.
#include "flip/draw.h"

#include <algorithm>

#include <fmt/format.h>

#include "flip/verify.h"
#include "tansaku/render/svg.h"

namespace tansaku::flip {

namespace {
// Per-press frames while cells x (presses + 1) stays below this (each frame draws every cell).
constexpr std::int64_t kFrameCellBudget = 200000;
constexpr const char* kLit = "#ffd23f";
constexpr const char* kDark = "#3a3f4b";

// Each row's runs of set bits as rectangles of one path ("M x y h w v 1 h -w z").
std::string runs_path(const Board& b, const Bits& x, double inset) {
  std::string d;
  for (int r = 0; r < b.rows(); ++r) {
    const std::size_t base = static_cast<std::size_t>(r) * static_cast<std::size_t>(b.cols());
    for (int c = 0; c < b.cols();) {
      if (!x.get(base + static_cast<std::size_t>(c))) {
        ++c;
        continue;
      }
      int e = c;
      while (e < b.cols() && x.get(base + static_cast<std::size_t>(e))) ++e;
      const double w = e - c - 2 * inset;
      d += fmt::format("M{} {}h{}v{}h-{}z", render::num(c + inset), render::num(r + inset), render::num(w),
                       render::num(1 - 2 * inset), render::num(w));
      c = e;
    }
  }
  return d;
}
}  // namespace

std::string board_svg(const Board& b, const Bits& lit, const Bits& marked) {
  const int side = std::max(b.rows(), b.cols());
  const double px = std::clamp(480.0 / side, 0.5, 56.0);
  render::Svg svg(b.cols(), b.rows(), px);
  const bool has_marks = marked.size() == lit.size();
  if (b.cells() <= kCellPictureLimit) {
    svg.rect(0, 0, b.cols(), b.rows(), "#1e2128");
    for (std::int64_t i = 0; i < b.cells(); ++i) {
      const double x = static_cast<double>(i % b.cols()), y = static_cast<double>(i / b.cols());
      const bool on = lit.get(static_cast<std::size_t>(i));
      svg.raw(fmt::format("<g data-cell=\"{}\">", i));
      svg.rect(x + 0.06, y + 0.06, 0.88, 0.88, on ? kLit : kDark, "rx=\"0.14\"");
      svg.raw("</g>");
    }
    if (has_marks)  // the presses: separate elements (render/page.h: data-mark)
      for (auto i : marked.ones())
        svg.circle(static_cast<double>(i % b.cols()) + 0.5, static_cast<double>(i / b.cols()) + 0.5, 0.2, "none",
                   "stroke=\"#e0301e\" stroke-width=\"0.09\" data-mark=\"1\"");
  } else {  // one path for the lit lamps, one for the marks
    svg.rect(0, 0, b.cols(), b.rows(), kDark);
    const double inset = px >= 4 ? 0.06 : 0;
    if (lit.count()) svg.path(runs_path(b, lit, inset), kLit, "none", 0);
    if (has_marks && marked.count())  // a dot per press; a whole cell when cells are a few pixels
      svg.path(runs_path(b, marked, px >= 6 ? 0.3 : 0), "#e0301e", "none", 0, "data-mark=\"1\"");
  }
  return svg.str();
}

Drawing solution_drawing(const SolveReport& r) {
  Drawing d;
  const auto* s = dynamic_cast<const PressSolution*>(r.solution.get());
  if (!s) return d;
  const Board& b = s->board;
  Bits lit = s->start;
  const Bits none(0);
  d.frames.push_back(board_svg(b, lit, none));
  if (!s->solved || s->presses.none()) return d;
  const std::vector<std::int64_t> cells = s->presses.ones();
  const std::int64_t presses = static_cast<std::int64_t>(cells.size());
  if (b.cells() * (presses + 1) <= kFrameCellBudget) {
    for (const auto c : cells) {
      Bits one(s->presses.size());
      one.flip(static_cast<std::size_t>(c));
      lit ^= effect(b, one);
      d.frames.push_back(board_svg(b, lit, one));
      d.labels.push_back(std::to_string(c));
    }
  } else {
    lit ^= effect(b, s->presses);
    d.frames.push_back(board_svg(b, lit, s->presses));
    d.labels.push_back(fmt::format("press the {} marked cells", presses));
  }
  if (lit.distance(s->goal) != 0) throw std::logic_error("flip picture: the presses do not reach the goal");
  return d;
}

}  // namespace tansaku::flip
