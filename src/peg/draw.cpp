// Drawing peg-solitaire boards and solutions: holes placed on their lattice, pegs filled, and
// each frame showing the jump just made.
#include "peg/draw.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "tansaku/render/svg.h"

namespace tansaku::peg {
namespace {

using render::num;

constexpr double kMargin = 0.7;
constexpr double kHole = 0.34;   // radius of a hole
constexpr double kPeg = 0.28;    // radius of a peg
constexpr const char* kWood = "#f1e4c8";
constexpr const char* kHoleFill = "#c9b48f";
constexpr const char* kPegFill = "#7b3f1d";

// Picture coordinates of hole h: unit spacing between neighbours on either lattice.
double px(const Board& bd, int h) { return bd.lattice == Lattice::Triangular ? bd.x[h] * 0.5 : bd.x[h]; }
double py(const Board& bd, int h) { return bd.lattice == Lattice::Triangular ? bd.y[h] * std::sqrt(3.0) / 2 : bd.y[h]; }

struct Frame {
  double minx = 0, miny = 0, w = 0, h = 0;
};

Frame frame_of(const Board& bd) {
  Frame f;
  double maxx = 0, maxy = 0;
  for (int h = 0; h < bd.n; ++h) {
    f.minx = h ? std::min(f.minx, px(bd, h)) : px(bd, h);
    f.miny = h ? std::min(f.miny, py(bd, h)) : py(bd, h);
    maxx = h ? std::max(maxx, px(bd, h)) : px(bd, h);
    maxy = h ? std::max(maxy, py(bd, h)) : py(bd, h);
  }
  f.w = maxx - f.minx + 2 * kMargin;
  f.h = maxy - f.miny + 2 * kMargin;
  return f;
}

// The board and its pegs, in picture units (x, y shifted so the board starts at the margin).
render::Svg board_svg(const Board& bd, Bits pegs, const Frame& f) {
  const double scale = std::clamp(560.0 / std::max(f.w, f.h), 24.0, 64.0);
  render::Svg svg(f.w, f.h, scale);
  svg.rect(0, 0, f.w, f.h, kWood, "rx=\"0.3\"");
  svg.raw("<g font-family=\"sans-serif\" text-anchor=\"middle\" dominant-baseline=\"central\" font-size=\"0.24\">");
  for (int h = 0; h < bd.n; ++h) {
    const double x = px(bd, h) - f.minx + kMargin, y = py(bd, h) - f.miny + kMargin;
    const bool peg = (pegs >> h) & 1;
    svg.raw(fmt::format("<g data-cell=\"{}\">", h));
    svg.circle(x, y, kHole, kHoleFill, "stroke=\"#8c7651\" stroke-width=\"0.03\"");
    if (peg) svg.circle(x, y, kPeg, kPegFill, "stroke=\"#4a230e\" stroke-width=\"0.03\"");
    svg.raw(fmt::format("<text x=\"{}\" y=\"{}\" fill=\"{}\">{}</text>", num(x), num(y), peg ? "#f5e6d0" : "#5a4a30", h));
    svg.raw("</g>");
  }
  svg.raw("</g>");
  return svg;
}

}  // namespace

std::string draw_position(const Board& bd, Bits pegs) { return board_svg(bd, pegs, frame_of(bd)).str(); }

std::string draw_step(const Board& bd, Bits before, const std::vector<int>& mv) {
  const Frame f = frame_of(bd);
  Bits b = before;
  std::vector<int> over;
  for (std::size_t k = 0; k + 1 < mv.size(); ++k) {
    const Jump* jump = nullptr;
    if (mv[k] >= 0 && mv[k] < bd.n)
      for (int ji : bd.jumps_from[mv[k]])
        if (bd.jumps[ji].to == mv[k + 1]) jump = &bd.jumps[ji];
    if (!jump)
      throw std::logic_error(fmt::format("peg drawing: {} -> {} is not a jump of {}", mv[k], mv[k + 1], bd.name));
    b ^= jump->mask;
    over.push_back(jump->over);
  }
  render::Svg svg = board_svg(bd, b, f);
  auto X = [&](int h) { return px(bd, h) - f.minx + kMargin; };
  auto Y = [&](int h) { return py(bd, h) - f.miny + kMargin; };
  svg.raw("<g class=\"step\" data-mark=\"1\" pointer-events=\"none\">");
  // The pegs removed: a red cross in each hole jumped over.
  for (int h : over) {
    const double x = X(h), y = Y(h), r = kHole * 0.45;
    svg.path(fmt::format("M{} {}L{} {}M{} {}L{} {}", num(x - r), num(y - r), num(x + r), num(y + r), num(x - r),
                         num(y + r), num(x + r), num(y - r)),
             "none", "#d0202a", 0.05, "opacity=\"0.6\"");
  }
  // Where the peg started, and its path.
  if (!mv.empty())
    svg.circle(X(mv[0]), Y(mv[0]), kHole, "none",
               "stroke=\"#d0202a\" stroke-width=\"0.05\" stroke-dasharray=\"0.1 0.07\"");
  for (std::size_t k = 0; k + 1 < mv.size(); ++k) {
    const double x1 = X(mv[k]), y1 = Y(mv[k]), x2 = X(mv[k + 1]), y2 = Y(mv[k + 1]);
    const double len = std::hypot(x2 - x1, y2 - y1), ux = (x2 - x1) / len, uy = (y2 - y1) / len;
    svg.path(render::arrow_path(x1 + ux * kHole, y1 + uy * kHole, x2 - ux * kPeg, y2 - uy * kPeg, 0.25), "#d0202a",
             "#d0202a", 0.06, "stroke-linejoin=\"round\" opacity=\"0.85\"");
  }
  svg.raw("</g>");
  return svg.str();
}

}  // namespace tansaku::peg
