#include "perm/draw.h"

#include <algorithm>

#include <fmt/format.h>

#include "perm/generators.h"
#include "perm/notation.h"
#include "tansaku/render/svg.h"

namespace tansaku::perm {

namespace {
constexpr int kPerLine = 12;  // slots per line before a set wraps
}

std::string position_svg(const Definition& d, const Position& p, const Position& solved) {
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

Drawing solution_drawing(const Definition& d, const SolveReport& r) {
  Position p = parse_position(d, r.start, "start");
  const Position goal = parse_position(d, r.goal, "goal");
  Drawing out;
  out.frames.push_back(position_svg(d, p, goal));
  if (!r.solvable) return out;
  for (const auto& m : r.moves) {
    const std::string name = m.get<std::string>();
    for (const Perm& q : parse_sequence_any(d, name, "move")) p = d.applied(q, p);
    out.frames.push_back(position_svg(d, p, goal));
    out.labels.push_back(name);
  }
  if (!(p == goal)) throw std::logic_error("perm picture: the moves do not reach the goal");
  return out;
}

}  // namespace tansaku::perm
