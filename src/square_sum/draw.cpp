// Drawing square-sum rows and rings (discs and labelled links, or a plot for long ones) and
// the partner graph when no row exists.
#include "square_sum/draw.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "square_sum/squares.h"
#include "tansaku/core/error.h"
#include "tansaku/core/tokens.h"
#include "tansaku/render/svg.h"

namespace tansaku::square_sum {
namespace {

using render::num;

// Colour of the link whose numbers sum to s (by its root: 2^2, 3^2, ...).
std::string_view square_colour(std::int64_t s) { return render::palette(static_cast<std::size_t>(isqrt(s))); }

std::string caption_of(const std::vector<int>& seq, bool ring) {
  return fmt::format("1..{} in a {}: every two neighbours sum to a square", seq.size(), ring ? "ring" : "row");
}

// Long rows: the number (up) against its place in the row (right), one polyline.
std::string plot(const std::vector<int>& seq, bool ring) {
  const double W = 640, H = 420, L = 50, T = 20, PW = 570, PH = 340;
  render::Svg svg(W, H, 1);
  svg.rect(0, 0, W, H, "#fff");
  svg.path(fmt::format("M{} {}V{}H{}", L, T, T + PH, L + PW), "none", "#444", 1);
  const std::size_t n = seq.size();
  const std::size_t stride = std::max<std::size_t>(1, (n + kPlotPoints - 1) / kPlotPoints);
  int maxv = 1;
  for (int v : seq) maxv = std::max(maxv, v);
  std::string d;
  for (std::size_t i = 0; i < n; i += stride) {
    d += d.empty() ? "M" : "L";
    d += fmt::format("{} {}", num(L + PW * i / std::max<double>(1, n - 1)), num(T + PH - PH * seq[i] / maxv));
  }
  if ((n - 1) % stride) d += fmt::format("L{} {}", num(L + PW), num(T + PH - PH * seq.back() / maxv));
  svg.path(d, "none", "#1f4fbf", 1, "stroke-linejoin=\"round\"");
  svg.text(L - 16, T, std::to_string(maxv), 11, "#444");
  svg.text(L + PW, T + PH + 14, std::to_string(n), 11);
  svg.text(L, T + PH + 14, "1", 11);
  std::string cap = caption_of(seq, ring) + ": the number at each place";
  if (stride > 1) cap += fmt::format(" (every {}th place plotted)", stride);
  svg.text(W / 2, H - 24, cap, 13);
  return svg.str();
}

void disc(render::Svg& svg, double x, double y, double r, int v) {
  svg.circle(x, y, r, "#fdf6e3", "stroke=\"#333\" stroke-width=\"1.5\"");
  svg.text(x, y, std::to_string(v), r * (v >= 100 ? 0.75 : 0.95), "#111", "font-weight=\"bold\"");
}

void link_label(render::Svg& svg, double x, double y, std::int64_t s) {
  svg.rect(x - 13, y - 8, 26, 16, "#fff", fmt::format("rx=\"4\" stroke=\"{}\" stroke-width=\"1\"", square_colour(s)));
  svg.text(x, y, std::to_string(s), 10.5, square_colour(s));
}

}  // namespace

std::string draw_sequence(const std::vector<int>& seq, bool ring) {
  const std::size_t n = seq.size();
  if (n > kChainNumbers) return plot(seq, ring);
  if (ring && n >= 3 && n <= 64) {  // a ring as a circle
    const double R = std::max(140.0, n * 11.0), r = 15, W = 2 * R + 120;
    render::Svg svg(W, W + 30, std::min(1.0, 720 / W));
    svg.rect(0, 0, W, W + 30, "#fff");
    auto X = [&](std::size_t i) { return W / 2 + R * std::cos(2 * std::numbers::pi * i / n - std::numbers::pi / 2); };
    auto Y = [&](std::size_t i) { return W / 2 + R * std::sin(2 * std::numbers::pi * i / n - std::numbers::pi / 2); };
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t j = (i + 1) % n;
      svg.line(X(i), Y(i), X(j), Y(j), square_colour(seq[i] + seq[j]), 3);
    }
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t j = (i + 1) % n;
      const double mx = (X(i) + X(j)) / 2, my = (Y(i) + Y(j)) / 2, cx = mx - W / 2, cy = my - W / 2;
      const double len = std::hypot(cx, cy);
      link_label(svg, mx + cx / len * 24, my + cy / len * 24, seq[i] + seq[j]);
    }
    for (std::size_t i = 0; i < n; ++i) disc(svg, X(i), Y(i), r, seq[i]);
    svg.text(W / 2, W + 10, caption_of(seq, ring), 14);
    return svg.str();
  }
  // A snake: rows of `per` discs, left to right then right to left.
  const std::size_t per = std::min<std::size_t>(10, std::max<std::size_t>(n, 1));
  const std::size_t rows = (n + per - 1) / per;
  const double gap = 64, r = 16, M = 40;
  const double W = 2 * M + (per - 1) * gap, H = 2 * M + (rows ? rows - 1 : 0) * gap + 30 + (ring ? 30 : 0);
  render::Svg svg(W, H, std::min(1.0, 760 / W));
  svg.rect(0, 0, W, H, "#fff");
  auto X = [&](std::size_t i) {
    const std::size_t row = i / per, col = row % 2 ? per - 1 - i % per : i % per;
    return M + col * gap;
  };
  auto Y = [&](std::size_t i) { return M + static_cast<double>(i / per) * gap; };
  for (std::size_t i = 0; i + 1 < n; ++i) svg.line(X(i), Y(i), X(i + 1), Y(i + 1), square_colour(seq[i] + seq[i + 1]), 3);
  if (ring && n >= 3) {  // the closing link runs below the rows and back up the left side
    const double yb = Y(n - 1) + gap * 0.6;
    svg.path(fmt::format("M{} {}V{}H{}V{}", num(X(n - 1)), num(Y(n - 1)), num(yb), num(M - 24), num(Y(0))), "none",
             square_colour(seq.back() + seq.front()), 3, "stroke-dasharray=\"6 4\"");
    svg.line(M - 24, Y(0), X(0), Y(0), square_colour(seq.back() + seq.front()), 3, "stroke-dasharray=\"6 4\"");
    link_label(svg, (X(n - 1) + M - 24) / 2, yb, seq.back() + seq.front());
  }
  for (std::size_t i = 0; i + 1 < n; ++i) link_label(svg, (X(i) + X(i + 1)) / 2, (Y(i) + Y(i + 1)) / 2, seq[i] + seq[i + 1]);
  for (std::size_t i = 0; i < n; ++i) disc(svg, X(i), Y(i), r, seq[i]);
  svg.text(W / 2, H - 18, caption_of(seq, ring), 14);
  return svg.str();
}

std::string draw_partners(int n, const std::string& caption) {
  if (n < 1 || n > kGraphNumbers) {
    render::Svg svg(640, 60, 1);
    svg.rect(0, 0, 640, 60, "#fff");
    svg.text(320, 30, caption, 15);
    return svg.str();
  }
  const double R = std::max(140.0, n * 8.0), r = 13, W = 2 * R + 80;
  render::Svg svg(W, W + 30, std::min(1.0, 720 / W));
  svg.rect(0, 0, W, W + 30, "#fff");
  auto X = [&](int v) { return W / 2 + R * std::cos(2 * std::numbers::pi * (v - 1) / n - std::numbers::pi / 2); };
  auto Y = [&](int v) { return W / 2 + R * std::sin(2 * std::numbers::pi * (v - 1) / n - std::numbers::pi / 2); };
  for (int u = 1; u <= n; ++u)
    for_each_neighbour(n, u, [&](int v) {
      if (u < v) svg.line(X(u), Y(u), X(v), Y(v), square_colour(u + v), 1.5, "opacity=\"0.7\"");
    });
  for (int v = 1; v <= n; ++v) disc(svg, X(v), Y(v), r, v);
  svg.text(W / 2, W + 10, caption, 14);
  return svg.str();
}

std::vector<int> parse_sequence(const std::string& text) {
  std::vector<int> seq;
  for (const auto& t : split_state(text)) {
    const auto v = parse_uint(t, "number");
    if (v < 1 || v > 100000000) throw InputError(fmt::format("number {} is out of range", t));
    seq.push_back(static_cast<int>(v));
  }
  if (seq.empty()) throw InputError("no numbers given");
  return seq;
}

Drawing draw_report(const SolveReport& r) {
  Drawing d;
  const auto* f = dynamic_cast<const Found*>(r.solution.get());
  if (!f) return d;
  const bool ring = f->ring;
  if (r.solvable && !f->sequence.empty()) {
    d.frames.push_back(draw_sequence(f->sequence, ring));
    return d;
  }
  const int n = f->n;
  d.frames.push_back(draw_partners(n, r.solvable ? fmt::format("1..{}: pairs that sum to a square", n)
                                                 : fmt::format("no {} of 1..{}: pairs that sum to a square", ring ? "ring" : "row", n)));
  return d;
}

}  // namespace tansaku::square_sum
