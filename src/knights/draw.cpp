// Drawing knight-tour boards and tours (heat-coloured on large boards, framed on small ones) and
// knight-swap positions with each move a frame.
#include "knights/draw.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "tansaku/core/tokens.h"
#include "tansaku/render/svg.h"

namespace tansaku::knights {
namespace {

using render::num;

constexpr const char* kLight = "#f0dcb4";
constexpr const char* kDark = "#c49a6c";
constexpr const char* kPathColour = "#1f4fbf";

double scale_of(const Board& b) { return std::clamp(720.0 / std::max(b.rows(), b.cols()), 0.5, 80.0); }

// The checkered board: a light rectangle and the dark squares as dashed horizontal strokes
// (two paths, a subpath per row: light on huge boards), or, when `clickable`, a rectangle
// per square with data-cell.
void board(render::Svg& svg, const Board& b, bool clickable) {
  const int R = b.rows(), C = b.cols();
  if (clickable) {
    for (std::int64_t s = 0; s < b.squares(); ++s) {
      const int r = b.row(s), c = b.col(s);
      svg.rect(c, r, 1, 1, Board::colour(r, c) ? kDark : kLight, fmt::format("data-cell=\"{}\"", s));
    }
    return;
  }
  svg.rect(0, 0, C, R, kLight);
  if (scale_of(b) < 3) return;  // squares of a pixel or two: checkering would only be noise
  std::string d;
  for (int r = 0; r < R; ++r) {
    const int x0 = r % 2 == 0 ? 1 : 0;  // square (r, c) is dark when r + c is odd
    if (x0 >= C) continue;
    int len = C - x0;
    len += len % 2;  // an even length ends in a gap (outside the picture): each row starts the dashes afresh
    d += fmt::format("M{} {}h{}", x0, num(r + 0.5), len);
  }
  if (!d.empty())
    svg.raw(fmt::format("<path d=\"{}\" stroke=\"{}\" stroke-width=\"1\" stroke-dasharray=\"1 1\" fill=\"none\"/>", d, kDark));
}

// Square numbers in the corner of each square (small boards only).
void numbers(render::Svg& svg, const Board& b) {
  if (b.squares() > kNumberedSquares) return;
  svg.raw("<g font-family=\"sans-serif\" font-size=\"0.2\" fill=\"#6b5535\" pointer-events=\"none\">");
  for (std::int64_t s = 0; s < b.squares(); ++s)
    svg.raw(fmt::format("<text x=\"{}\" y=\"{}\">{}</text>", num(b.col(s) + 0.06), num(b.row(s) + 0.22), s));
  svg.raw("</g>");
}

// A red disc, at least a few pixels wide on huge boards.
void knight(render::Svg& svg, const Board& b, std::int64_t s, const char* fill) {
  const double x = b.col(s) + 0.5, y = b.row(s) + 0.5, sc = scale_of(b);
  svg.circle(x, y, std::max(0.3, 5 / sc), fill,
             fmt::format("stroke=\"#222\" stroke-width=\"{}\" pointer-events=\"none\"", num(std::max(0.05, 1 / sc))));
}

double width_of(const Board& b) { return b.cols(); }

// One knight step as relative path coordinates, written compactly: "2-1", " 1 2".
void step(std::string& d, int v) {
  if (v >= 0 && !d.empty() && d.back() >= '0' && d.back() <= '9') d += ' ';
  d += std::to_string(v);
}

// The colour of a moment in the tour, t in [0, 1]: dark blue, teal, green, yellow.
std::string ramp(double t) {
  static constexpr double kStops[4][3] = {{0x2c, 0x1e, 0x6e}, {0x21, 0x91, 0x8c}, {0x5e, 0xc9, 0x62}, {0xfd, 0xe7, 0x25}};
  t = std::clamp(t, 0.0, 1.0) * 3;
  const int i = std::min(2, static_cast<int>(t));
  const double f = t - i;
  int c[3];
  for (int k = 0; k < 3; ++k) c[k] = static_cast<int>(std::lround(kStops[i][k] + (kStops[i + 1][k] - kStops[i][k]) * f));
  return fmt::format("#{:02x}{:02x}{:02x}", c[0], c[1], c[2]);
}

// Huge tours: blocks of side `side` squares, coloured by the mean move number of the
// squares visited up to move `upto` (16 shades, one <path> each).
Drawing heat_tour(const Board& b, const std::vector<std::int64_t>& tour) {
  constexpr int kShades = 16;
  const int side = (std::max(b.rows(), b.cols()) + kHeatBlocks - 1) / kHeatBlocks;
  const int br = (b.rows() + side - 1) / side, bc = (b.cols() + side - 1) / side;
  const double sc = scale_of(b), steps = static_cast<double>(tour.size() - 1);
  auto frame = [&](std::size_t upto) {
    std::vector<double> sum(static_cast<std::size_t>(br) * bc, 0);
    std::vector<std::uint32_t> cnt(sum.size(), 0);
    for (std::size_t i = 0; i <= upto; ++i) {
      const std::size_t blk = static_cast<std::size_t>(b.row(tour[i]) / side) * bc + b.col(tour[i]) / side;
      sum[blk] += static_cast<double>(i);
      ++cnt[blk];
    }
    std::vector<std::string> d(kShades);
    for (std::size_t blk = 0; blk < sum.size(); ++blk) {
      if (!cnt[blk]) continue;
      const int shade = std::min(kShades - 1, static_cast<int>(sum[blk] / cnt[blk] / std::max(1.0, steps) * kShades));
      d[shade] += fmt::format("M{} {}h{}v{}h-{}z", (blk % bc) * side, (blk / bc) * side, side, side, side);
    }
    render::Svg svg(b.cols(), b.rows(), sc);
    svg.rect(0, 0, b.cols(), b.rows(), kLight);
    for (int k = 0; k < kShades; ++k)
      if (!d[k].empty()) svg.path(d[k], ramp((k + 0.5) / kShades), "none", 0, "shape-rendering=\"crispEdges\"");
    const double r = 6 / sc, w = 2.5 / sc;
    svg.circle(b.col(tour[0]) + 0.5, b.row(tour[0]) + 0.5, r, "none", fmt::format("stroke=\"#1a8a2a\" stroke-width=\"{}\"", num(w)));
    svg.circle(b.col(tour[upto]) + 0.5, b.row(tour[upto]) + 0.5, r, "none", fmt::format("stroke=\"#d0202a\" stroke-width=\"{}\"", num(w)));
    return svg.str();
  };
  Drawing dr;
  dr.frames.push_back(frame(0));
  const std::size_t full = dr.frames[0].size() + static_cast<std::size_t>(br) * bc * 24;
  const std::size_t groups = std::clamp<std::size_t>(kTourFrameBudget / full, 1, kMaxTourFrames - 1);
  std::size_t done = 0;
  for (std::size_t g = 1; g <= groups; ++g) {
    const std::size_t upto = (tour.size() - 1) * g / groups;
    dr.frames.push_back(frame(upto));
    dr.labels.push_back(fmt::format("moves {}-{} (to {})", done + 1, upto, tour[upto]));
    done = upto;
  }
  return dr;
}

}  // namespace

std::string draw_tour_board(const Board& b, std::optional<std::int64_t> k) {
  render::Svg svg(width_of(b), b.rows(), scale_of(b));
  board(svg, b, b.squares() <= kClickableSquares);
  numbers(svg, b);
  if (k) knight(svg, b, *k, "#d0202a");
  return svg.str();
}

Drawing draw_tour(const Board& b, const std::vector<std::int64_t>& tour, bool closed) {
  Drawing d;
  if (tour.empty()) {
    d.frames.push_back(draw_tour_board(b, std::nullopt));
    return d;
  }
  const std::size_t steps = tour.size() - 1;
  if (b.squares() > kPathSquares && steps > 1) return heat_tour(b, tour);
  const double sc = scale_of(b);
  const double stroke = std::max(0.08, 1.2 / sc);  // at least about a pixel wide
  // The whole path's data once; a frame uses a prefix of it (offsets[i]: end of move i).
  std::string path = fmt::format("M{} {}", num(b.col(tour[0]) + 0.5), num(b.row(tour[0]) + 0.5));
  std::vector<std::size_t> offsets(tour.size());
  offsets[0] = path.size();
  if (steps) path += 'l';
  for (std::size_t i = 1; i < tour.size(); ++i) {
    step(path, b.col(tour[i]) - b.col(tour[i - 1]));
    step(path, b.row(tour[i]) - b.row(tour[i - 1]));
    offsets[i] = path.size();
  }
  const std::string bare = [&] {
    render::Svg svg(width_of(b), b.rows(), sc);
    board(svg, b, false);
    return svg.str();
  }();
  const bool numbered = b.squares() <= kNumberedSquares;
  const std::size_t fixed = bare.size() + (numbered ? 40 * tour.size() : 0) + 300;
  std::size_t groups = std::min<std::size_t>(steps, kMaxTourFrames - 1);
  groups = std::min(groups, std::max<std::size_t>(1, kTourFrameBudget / (fixed + path.size() / 2)));
  auto frame = [&](std::size_t upto) {  // the tour up to and including tour[upto]
    render::Svg svg(width_of(b), b.rows(), sc);
    board(svg, b, false);
    if (upto > 0)
      svg.raw(fmt::format("<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" stroke-linejoin=\"round\" "
                          "stroke-linecap=\"round\" opacity=\"0.85\"/>",
                          std::string_view(path).substr(0, offsets[upto]), kPathColour, num(stroke)));
    if (closed && upto == steps && steps > 0)
      svg.line(b.col(tour.back()) + 0.5, b.row(tour.back()) + 0.5, b.col(tour[0]) + 0.5, b.row(tour[0]) + 0.5,
               kPathColour, stroke, "stroke-dasharray=\"0.15 0.1\"");
    if (numbered) {
      svg.raw("<g font-family=\"sans-serif\" font-size=\"0.34\" text-anchor=\"middle\" dominant-baseline=\"central\" "
              "fill=\"#111\">");
      for (std::size_t i = 0; i <= upto; ++i)
        svg.raw(fmt::format("<text x=\"{}\" y=\"{}\" stroke=\"#fff\" stroke-width=\"0.08\" paint-order=\"stroke\">{}</text>",
                            num(b.col(tour[i]) + 0.5), num(b.row(tour[i]) + 0.5), i));
      svg.raw("</g>");
    }
    // The first square (green ring) and the knight (red ring), a few pixels wide on huge boards.
    const double r = std::max(0.42, 6 / sc), w = std::max(0.1, 2.5 / sc);
    svg.circle(b.col(tour[0]) + 0.5, b.row(tour[0]) + 0.5, r, "none", fmt::format("stroke=\"#1a8a2a\" stroke-width=\"{}\"", num(w)));
    svg.circle(b.col(tour[upto]) + 0.5, b.row(tour[upto]) + 0.5, r, "none", fmt::format("stroke=\"#d0202a\" stroke-width=\"{}\"", num(w)));
    return svg.str();
  };
  d.frames.push_back(frame(0));
  std::size_t done = 0;
  for (std::size_t g = 1; g <= groups; ++g) {
    const std::size_t upto = steps * g / groups;
    d.frames.push_back(frame(upto));
    if (upto == done + 1) d.labels.push_back(std::to_string(tour[upto]));
    else d.labels.push_back(fmt::format("moves {}-{} (to {})", done + 1, upto, tour[upto]));
    done = upto;
  }
  if (steps == 0) d.frames[0] = frame(0);
  return d;
}

Drawing draw_tour_report(const Board& b, const SolveReport& r) {
  const auto* a = dynamic_cast<const TourAnswer*>(r.solution.get());
  if (a && r.solvable && !a->tour.empty()) return draw_tour(b, a->tour, a->closed);
  Drawing d;
  d.frames.push_back(draw_tour_board(b, a ? a->first : std::nullopt));
  return d;
}

std::string draw_swap_position(const Board& b, const Armies& a, const Cells& cells) {
  render::Svg svg(b.cols(), b.rows(), std::clamp(480.0 / std::max(b.rows(), b.cols()), 24.0, 96.0));
  for (std::int64_t s = 0; s < b.squares(); ++s) {
    const int r = b.row(s), c = b.col(s);
    svg.raw(fmt::format("<g data-cell=\"{}\">", s));
    svg.rect(c, r, 1, 1, Board::colour(r, c) ? kDark : kLight);
    svg.text(c + 0.14, r + 0.15, std::to_string(s), 0.18, "#6b5535");
    const int army = cells[static_cast<std::size_t>(s)];
    if (army) {
      svg.circle(c + 0.5, r + 0.52, 0.33, render::palette(static_cast<std::size_t>(army - 1)),
                 "stroke=\"#222\" stroke-width=\"0.04\"");
      const std::string& name = a.names[static_cast<std::size_t>(army)];
      svg.text(c + 0.5, r + 0.53, name, name.size() > 2 ? 0.22 : 0.36, "#fff", "font-weight=\"bold\"");
    }
    svg.raw("</g>");
  }
  return svg.str();
}

std::string SwapRules::state(const Cells& c) const {
  std::vector<std::string> t;
  for (auto x : c) t.push_back(armies.names[x]);
  return join(t);
}

std::optional<Cells> SwapRules::apply(const Cells& c, const SwapMove& m) const {
  if (m.from >= board.squares() || m.to >= board.squares() || !c[m.from] || c[m.to] || !board.adjacent(m.from, m.to))
    return std::nullopt;  // off the board, no knight, an occupied square or not a knight's move
  Cells next = c;
  std::swap(next[m.from], next[m.to]);
  return next;
}

std::string SwapRules::frame(const Cells&, const SwapMove& m, const Cells& after) const {
  const Board& b = board;
  std::string f = draw_swap_position(b, armies, after);
  const double x1 = b.col(m.from) + 0.5, y1 = b.row(m.from) + 0.5, x2 = b.col(m.to) + 0.5, y2 = b.row(m.to) + 0.5;
  const double len = std::hypot(x2 - x1, y2 - y1), ux = (x2 - x1) / len, uy = (y2 - y1) / len;
  std::string step = fmt::format(
      "<g class=\"step\" data-mark=\"1\" pointer-events=\"none\"><circle cx=\"{}\" cy=\"{}\" r=\"0.33\" fill=\"none\" "
      "stroke=\"#222\" "
      "stroke-width=\"0.05\" stroke-dasharray=\"0.1 0.08\"/><path d=\"{}\" fill=\"#222\" stroke=\"#222\" "
      "stroke-width=\"0.07\" opacity=\"0.75\"/></g>",
      num(x1), num(y1 + 0.02), render::arrow_path(x1 + ux * 0.2, y1 + uy * 0.2, x2 - ux * 0.34, y2 - uy * 0.34, 0.25));
  f.insert(f.size() - 6, step);  // before "</svg>"
  return f;
}

}  // namespace tansaku::knights
