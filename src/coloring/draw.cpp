// Drawing graph colourings: the layouts (queen boards, Tutte's embedding for planar maps,
// a circle), the coloured vertices and edges, and the fallbacks for large graphs.
#include "coloring/draw.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <regex>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/tokens.h"
#include "tansaku/render/svg.h"

namespace tansaku::coloring {
namespace {

using render::num;
using Point = std::pair<double, double>;

std::vector<Point> circle(int n) {
  std::vector<Point> p(static_cast<std::size_t>(n));
  for (int v = 0; v < n; ++v) {
    const double t = 2 * std::numbers::pi * v / std::max(n, 1) - std::numbers::pi / 2;
    p[v] = {0.5 + 0.5 * std::cos(t), 0.5 + 0.5 * std::sin(t)};
  }
  return p;
}

// Whether the segments ab and cd cross at a point inside both (shared ends do not count).
bool cross(Point a, Point b, Point c, Point d) {
  auto o = [](Point p, Point q, Point r) { return (q.first - p.first) * (r.second - p.second) - (q.second - p.second) * (r.first - p.first); };
  const double d1 = o(a, b, c), d2 = o(a, b, d), d3 = o(c, d, a), d4 = o(c, d, b);
  const double eps = 1e-9;
  return ((d1 > eps && d2 < -eps) || (d1 < -eps && d2 > eps)) && ((d3 > eps && d4 < -eps) || (d3 < -eps && d4 > eps));
}

bool planar_drawing(const Graph& g, const std::vector<Point>& p) {
  std::vector<std::pair<int, int>> e;
  for (int u = 0; u < g.n; ++u)
    for (int v : g.adj[u])
      if (u < v) e.push_back({u, v});
  for (std::size_t i = 0; i < e.size(); ++i)
    for (std::size_t j = i + 1; j < e.size(); ++j) {
      auto [a, b] = e[i];
      auto [c, d] = e[j];
      if (a == c || a == d || b == c || b == d) continue;
      if (cross(p[a], p[b], p[c], p[d])) return false;
    }
  return true;
}

// Whether the graph without u, v, w is connected.
bool connected_without(const Graph& g, int u, int v, int w) {
  std::vector<char> seen(static_cast<std::size_t>(g.n), 0);
  seen[u] = seen[v] = seen[w] = 1;
  int first = -1, left = 0;
  for (int x = 0; x < g.n; ++x)
    if (!seen[x]) ++left, first = first < 0 ? x : first;
  if (first < 0) return true;
  std::vector<int> stack = {first};
  seen[first] = 1;
  int reached = 1;
  while (!stack.empty()) {
    int x = stack.back();
    stack.pop_back();
    for (int y : g.adj[x])
      if (!seen[y]) seen[y] = 1, ++reached, stack.push_back(y);
  }
  return reached == left;
}

// Tutte's barycentric embedding with the triangle (a, b, c) outside, or empty.
std::vector<Point> tutte(const Graph& g) {
  for (int a = 0; a < g.n; ++a)
    for (int b : g.adj[a]) {
      if (b <= a) continue;
      for (int c : g.adj[b]) {
        if (c <= b || !g.adjacent(a, c) || !connected_without(g, a, b, c)) continue;
        std::vector<Point> p(static_cast<std::size_t>(g.n), {0.5, 0.5});
        std::vector<char> fixed(static_cast<std::size_t>(g.n), 0);
        const Point corner[3] = {{0.5, 0.0}, {1.0, 0.866}, {0.0, 0.866}};
        const int outer[3] = {a, b, c};
        for (int i = 0; i < 3; ++i) p[outer[i]] = corner[i], fixed[outer[i]] = 1;
        for (int it = 0; it < 2000; ++it) {  // Gauss-Seidel sweeps towards the barycentres
          double moved = 0;
          for (int v = 0; v < g.n; ++v) {
            if (fixed[v] || g.adj[v].empty()) continue;
            double x = 0, y = 0;
            for (int u : g.adj[v]) x += p[u].first, y += p[u].second;
            x /= g.adj[v].size(), y /= g.adj[v].size();
            moved = std::max(moved, std::fabs(x - p[v].first) + std::fabs(y - p[v].second));
            p[v] = {x, y};
          }
          if (moved < 1e-9) break;
        }
        return p;
      }
    }
  return {};
}

std::string colour_of(int c, int k) {
  if (c <= 0) return "#dddddd";
  if (k <= 12) return std::string(render::palette(static_cast<std::size_t>(c - 1)));
  return fmt::format("hsl({},70%,{}%)", (c * 137) % 360, 45 + (c % 3) * 10);  // golden-angle hues
}

// Stretched to fill the unit square (an affine map: a drawing without crossings keeps none).
std::vector<Point> fill(std::vector<Point> p) {
  if (p.empty()) return p;
  double x0 = p[0].first, x1 = x0, y0 = p[0].second, y1 = y0;
  for (auto [x, y] : p) x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
  for (auto& [x, y] : p) {
    x = x1 > x0 ? (x - x0) / (x1 - x0) : 0.5;
    y = y1 > y0 ? (y - y0) / (y1 - y0) : 0.5;
  }
  return p;
}

}  // namespace

std::vector<Point> layout(const Graph& g, const std::string& name) {
  static const std::regex queen(R"(queen(\d+)_(\d+))");
  std::smatch m;
  if (std::regex_search(name, m, queen)) {
    const int rows = std::stoi(m[1]), cols = std::stoi(m[2]);
    if (rows * cols == g.n && rows > 0 && cols > 0) {
      std::vector<Point> p(static_cast<std::size_t>(g.n));
      const int side = std::max(rows, cols);
      for (int v = 0; v < g.n; ++v)
        p[v] = {(v % cols + 0.5) / side, (v / cols + 0.5) / side};
      return fill(p);
    }
  }
  if (g.n >= 4 && g.n <= kEdgeVertices && g.edge_count() == static_cast<std::size_t>(3 * g.n - 6)) {
    auto p = tutte(g);
    if (!p.empty() && planar_drawing(g, p)) return fill(p);
  }
  return fill(circle(g.n));
}

std::string colouring_caption(const Graph& g, const std::vector<int>& colours) {
  int k = 0;
  for (int c : colours) k = std::max(k, c);
  return fmt::format("{} vertices, {} edges, {} colour{}", g.n, g.edge_count(), k, k == 1 ? "" : "s");
}

std::string draw_graph(const Graph& g, const std::string& name, const std::vector<int>& colours,
                       const std::vector<int>& highlight, const std::string& caption) {
  int k = 0;
  for (int c : colours) k = std::max(k, c);
  auto colour = [&](int v) { return colour_of(colours.empty() ? 0 : colours[v], k); };
  const double W = 600, top = 20, side = 560, cap = caption.empty() ? 0 : 34;
  if (g.n > kNodeVertices) {  // the colour classes as a bar
    render::Svg svg(W, 80 + cap, 1);
    svg.rect(0, 0, W, 80 + cap, "#ffffff");
    std::vector<std::size_t> size(static_cast<std::size_t>(k + 1), 0);
    for (int v = 0; v < g.n; ++v) ++size[colours.empty() ? 0 : colours[v]];
    double x = 20;
    for (int c = 0; c <= k; ++c) {
      if (!size[c]) continue;
      const double w = 560.0 * size[c] / g.n;
      svg.rect(x, 20, w, 40, colour_of(c, k), fmt::format("stroke=\"#fff\" stroke-width=\"0.5\""));
      const std::string label = std::to_string(size[c]);
      if (w > 9.0 * label.size()) svg.text(x + w / 2, 40, label, 13, c ? "#fff" : "#222");
      x += w;
    }
    if (cap) svg.text(W / 2, 80 + cap / 2, caption, 15);
    return svg.str();
  }
  render::Svg svg(W, top + side + 20 + cap, 1);
  svg.rect(0, 0, W, top + side + 20 + cap, "#ffffff");
  if (g.n > kEdgeVertices) {  // vertices only, in a grid
    const int per_row = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(g.n))));
    const double cell = side / per_row;
    for (int v = 0; v < g.n; ++v)
      svg.rect(20 + (v % per_row) * cell, top + (v / per_row) * cell, cell * 0.9, cell * 0.9, colour(v),
               fmt::format("data-cell=\"{}\"", v));
  } else {
    const auto p = layout(g, name);
    const double r = std::clamp(16 * std::sqrt(40.0 / std::max(g.n, 1)), 4.0, 18.0);
    auto X = [&](int v) { return 20 + r + p[v].first * (side - 2 * r); };
    auto Y = [&](int v) { return top + r + p[v].second * (side - 2 * r); };
    std::vector<char> hl(static_cast<std::size_t>(g.n), 0);
    for (int v : highlight) hl[v] = 1;
    std::string d, dh;
    for (int u = 0; u < g.n; ++u)
      for (int v : g.adj[u])
        if (u < v) (hl[u] && hl[v] ? dh : d) += fmt::format("M{} {}L{} {}", num(X(u)), num(Y(u)), num(X(v)), num(Y(v)));
    if (!d.empty()) svg.path(d, "none", "#888", g.n > 60 ? 0.6 : 1.5, "opacity=\"0.8\"");
    if (!dh.empty()) svg.path(dh, "none", "#d0202a", 3.5);
    const bool labels = g.n <= 60;
    for (int v = 0; v < g.n; ++v) {
      svg.raw(fmt::format("<g data-cell=\"{}\">", v));
      svg.circle(X(v), Y(v), r, colour(v),
                 hl[v] ? "stroke=\"#d0202a\" stroke-width=\"3\"" : "stroke=\"#333\" stroke-width=\"1.2\"");
      if (labels) {
        const bool dark = !colours.empty() && colours[v] > 0;
        svg.text(X(v), Y(v), g.names[v], r * (g.names[v].size() > 2 ? 0.7 : 0.95), dark ? "#fff" : "#222",
                 "font-weight=\"bold\"");
      }
      svg.raw("</g>");
    }
  }
  if (cap) svg.text(W / 2, top + side + 20 + cap / 2, caption, 15);
  return svg.str();
}

std::vector<int> parse_colouring(const Graph& g, const std::string& text) {
  const auto tokens = split_state(text, static_cast<std::size_t>(g.n));
  if (static_cast<int>(tokens.size()) != g.n)
    throw InputError(fmt::format("a colouring has one colour per vertex: {} given for {} vertices", tokens.size(), g.n));
  std::vector<int> c;
  c.reserve(tokens.size());
  for (const auto& t : tokens) {
    const auto v = parse_uint(t, "colour");
    if (v > 1000000) throw InputError(fmt::format("colour {} is out of range", t));
    c.push_back(static_cast<int>(v));
  }
  return c;
}

Drawing draw_report(const Graph& g, const std::string& name, const SolveReport& r) {
  Drawing d;
  const auto* a = dynamic_cast<const Answer*>(r.solution.get());
  if (!a) return d;
  if (a->found) {
    d.frames.push_back(draw_graph(g, name, a->colouring, {}, colouring_caption(g, a->colouring)));
    return d;
  }
  std::string caption = r.solvable ? fmt::format("{} vertices, {} edges", g.n, g.edge_count())
                                   : fmt::format("no {}-colouring", a->colors);
  if (!a->clique.empty()) caption += fmt::format(": a {}-clique (red)", a->clique.size());
  d.frames.push_back(draw_graph(g, name, {}, a->clique, caption));
  return d;
}

}  // namespace tansaku::coloring
