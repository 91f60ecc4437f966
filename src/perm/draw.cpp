// Drawing permutation-puzzle positions and solutions: a facelet net when the definition has
// one, otherwise each set as a row of slots.
#include "perm/draw.h"

#include <algorithm>

#include <fmt/format.h>

#include "perm/generators.h"
#include "perm/net.h"
#include "perm/notation.h"
#include "tansaku/render/svg.h"

namespace tansaku::perm {

namespace {
constexpr int kPerLine = 12;  // slots per line before a set wraps

// The facelet net: each sticker in the colour of the face its piece's sticker belongs on
// (the piece's home in the Solved block, its sticker (slot - orientation) mod n there);
// fixed cells in their face's colour. Stickers carry data-cell = the flat position. Grid
// faces are squares of cells on a dark ground; polygons are outlined in dark, at their
// coordinates (in cells of the largest grid face, the net's corner at 0 0). A net with
// polygons is scaled to kPolyPx across its longer side.
constexpr double kPolyPx = 540;

std::string net_svg(const Definition& d, const Net& net, const Position& p) {
  int side = 1, cols = 0, rows = 0;
  for (const auto& f : net.faces)
    if (f.cells > 0) side = std::max(side, f.cells), cols = std::max(cols, f.col + 1), rows = std::max(rows, f.row + 1);
  const double gap = 0.12 * side, pad = 0.2;
  double w = cols > 0 ? cols * (side + gap) - gap + 2 * pad : 2 * pad;
  double h = rows > 0 ? rows * (side + gap) - gap + 2 * pad : 2 * pad;
  bool polys = false;
  auto extent = [&](const Net::Cell& c) {
    for (std::size_t k = 0; k + 1 < c.poly.size(); k += 2)
      polys = true, w = std::max(w, c.poly[k] + 2 * pad), h = std::max(h, c.poly[k + 1] + 2 * pad);
  };
  for (const auto& c : net.fixed) extent(c);
  for (const auto& s : net.sticker)
    for (const auto& c : s) extent(c);
  const double px = polys ? kPolyPx / std::max(w, h) : std::max(12.0, 120.0 / side);
  render::Svg svg(w, h, px);
  svg.rect(0, 0, w, h, "#f7f5ef");
  auto place = [&](const Net::Cell& c, double& x, double& y, double& size) {
    const Net::Face& f = net.faces[static_cast<std::size_t>(c.face)];
    size = static_cast<double>(side) / f.cells;
    x = pad + f.col * (side + gap) + c.col * size;
    y = pad + f.row * (side + gap) + c.row * size;
  };
  for (const auto& f : net.faces)
    if (f.cells > 0)
      svg.rect(pad + f.col * (side + gap) - 0.04, pad + f.row * (side + gap) - 0.04, side + 0.08, side + 0.08, "#222",
               "rx=\"0.08\"");
  auto sticker = [&](const Net::Cell& c, std::string_view colour) {
    if (!c.poly.empty()) {
      std::string path;
      for (std::size_t k = 0; k + 1 < c.poly.size(); k += 2)
        path += fmt::format("{}{} {}", k ? "L" : "M", render::num(pad + c.poly[k]), render::num(pad + c.poly[k + 1]));
      svg.path(path + "Z", colour, "#222", 3 / px, "stroke-linejoin=\"round\"");
      return;
    }
    double x, y, size;
    place(c, x, y, size);
    svg.rect(x + 0.04 * size, y + 0.04 * size, 0.92 * size, 0.92 * size, colour, "rx=\"0.1\" stroke=\"#222\" stroke-width=\"0.03\"");
  };
  for (const auto& c : net.fixed) sticker(c, net.faces[static_cast<std::size_t>(c.face)].colour);
  for (int j = 0; j < d.positions; ++j) {
    const auto u = static_cast<std::size_t>(j);
    const int n = d.omod[u];
    int home = -1;  // where the piece at j sits in the Solved block
    for (int i = 0; i < d.positions && home < 0; ++i)
      if (d.set_of[static_cast<std::size_t>(i)] == d.set_of[u] && d.solved.lab[static_cast<std::size_t>(i)] == p.lab[u]) home = i;
    svg.raw(fmt::format("<g data-cell=\"{}\">", j));
    for (int o = 0; o < n; ++o) {
      const Net::Cell& c = net.sticker[u][static_cast<std::size_t>(o)];
      if (c.face < 0) continue;
      std::string colour = "#888888";
      if (home >= 0) {
        const int k = ((o - p.ori[u] + d.solved.ori[static_cast<std::size_t>(home)]) % n + 2 * n) % n;
        const Net::Cell& hc = net.sticker[static_cast<std::size_t>(home)][static_cast<std::size_t>(k)];
        if (hc.face >= 0) colour = net.faces[static_cast<std::size_t>(hc.face)].colour;
      }
      sticker(c, colour);
    }
    svg.raw("</g>");
  }
  return svg.str();
}

}  // namespace

std::string position_svg(const Definition& d, const Position& p, const Position& solved) {
  if (const auto net = load_net(d)) return net_svg(d, *net, p);
  std::size_t name_len = 1;
  for (const auto& sd : d.sets) name_len = std::max(name_len, sd.name.size());
  const double label_w = std::min(6.0, 0.3 + 0.32 * static_cast<double>(name_len));
  int lines = 0, widest = 1;
  for (const auto& sd : d.sets) {
    lines += (sd.size + kPerLine - 1) / kPerLine;
    widest = std::max(widest, std::min(sd.size, kPerLine));
  }
  const double w = label_w + widest * 1.1 + 0.2, h = lines * 1.25 + 0.2;
  render::Svg svg(w, h, 40);
  svg.rect(0, 0, w, h, "#f7f5ef");
  double y = 0.2;
  for (const auto& sd : d.sets) {
    svg.raw(fmt::format("<text x=\"0.2\" y=\"{}\" font-size=\"0.32\" fill=\"#555\" dominant-baseline=\"central\" "
                        "font-family=\"sans-serif\">{}</text>",
                        render::num(y + 0.5), render::xml_escape(sd.name)));
    for (int j = 0; j < sd.size; ++j) {
      const std::size_t i = static_cast<std::size_t>(sd.offset + j);
      const double x = label_w + (j % kPerLine) * 1.1;
      const double yy = y + (j / kPerLine) * 1.25;
      const bool home = p.lab[i] == solved.lab[i] && p.ori[i] == solved.ori[i];
      svg.raw(fmt::format("<g data-cell=\"{}\">", i));
      svg.rect(x, yy, 1, 1, std::string(render::palette(p.lab[i])),
               home ? "rx=\"0.15\" stroke=\"#1f9d3a\" stroke-width=\"0.09\"" : "rx=\"0.15\"");
      svg.text(x + 0.5, yy + 0.45, std::to_string(sd.numbers[p.lab[i]]), 0.42, "#fff", "font-weight=\"bold\"");
      if (sd.omod > 1) svg.text(x + 0.5, yy + 0.82, "+" + std::to_string(p.ori[i]), 0.24, "#fff");
      svg.raw("</g>");
    }
    y += ((sd.size + kPerLine - 1) / kPerLine) * 1.25;
  }
  return svg.str();
}

std::string Rules::state(const Position& p) const { return format_position(*d, p); }

std::optional<Position> Rules::apply(const Position& p, int m) const {
  if (m < 0 || m >= static_cast<int>(ms.gens.size())) return std::nullopt;
  Position q = d->applied(ms.gens[static_cast<std::size_t>(m)].p, p);
  if (!d->legal(q)) return std::nullopt;
  return q;
}

}  // namespace tansaku::perm
