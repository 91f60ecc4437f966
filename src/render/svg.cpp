// The SVG writer's implementation: XML escaping, the palette, compact number formatting, and
// the shapes appended as elements.
#include "tansaku/render/svg.h"

#include <array>
#include <cmath>

#include <fmt/format.h>

namespace tansaku::render {

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\n' || c == '\t') out += c;
    }
  }
  return out;
}

std::string_view palette(std::size_t i) {
  static constexpr std::array<std::string_view, 12> kColours = {
      "#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#46a0a0",
      "#f032e6", "#9a9a1a", "#800000", "#008080", "#000075", "#a36f00"};
  return kColours[i % kColours.size()];
}

std::string num(double x) {
  if (x == std::floor(x) && std::fabs(x) < 1e15) return fmt::format("{}", static_cast<long long>(x));
  return fmt::format("{:.3f}", x);
}

Svg::Svg(double width, double height, double px_per_unit) : w_(width), h_(height), scale_(px_per_unit) {}

Svg& Svg::rect(double x, double y, double w, double h, std::string_view fill, std::string_view extra) {
  body_ += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"{}{}/>", num(x), num(y), num(w),
                       num(h), fill, extra.empty() ? "" : " ", extra);
  return *this;
}

Svg& Svg::circle(double cx, double cy, double r, std::string_view fill, std::string_view extra) {
  body_ += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"{}{}/>", num(cx), num(cy), num(r), fill,
                       extra.empty() ? "" : " ", extra);
  return *this;
}

Svg& Svg::line(double x1, double y1, double x2, double y2, std::string_view stroke, double width, std::string_view extra) {
  body_ += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{}\"{}{}/>", num(x1),
                       num(y1), num(x2), num(y2), stroke, num(width), extra.empty() ? "" : " ", extra);
  return *this;
}

Svg& Svg::path(std::string_view d, std::string_view fill, std::string_view stroke, double width, std::string_view extra) {
  body_ += fmt::format("<path d=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"{}{}/>", d, fill, stroke, num(width),
                       extra.empty() ? "" : " ", extra);
  return *this;
}

Svg& Svg::text(double x, double y, std::string_view t, double size, std::string_view fill, std::string_view extra) {
  body_ += fmt::format(
      "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{}\" text-anchor=\"middle\" dominant-baseline=\"central\" "
      "font-family=\"sans-serif\"{}{}>{}</text>",
      num(x), num(y), num(size), fill, extra.empty() ? "" : " ", extra, xml_escape(t));
  return *this;
}

Svg& Svg::raw(std::string_view svg) {
  body_ += svg;
  return *this;
}

std::string Svg::str() const {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\">{}</svg>", num(w_),
      num(h_), num(w_ * scale_), num(h_ * scale_), body_);
}

std::string arrow_path(double x1, double y1, double x2, double y2, double head) {
  const double dx = x2 - x1, dy = y2 - y1, len = std::hypot(dx, dy);
  if (len == 0) return fmt::format("M{} {}", num(x1), num(y1));
  const double ux = dx / len, uy = dy / len;  // along the arrow
  const double bx = x2 - ux * head, by = y2 - uy * head;  // base of the head
  const double w = head * 0.5;
  return fmt::format("M{} {}L{} {}M{} {}L{} {}L{} {}Z", num(x1), num(y1), num(bx), num(by), num(x2), num(y2),
                     num(bx - uy * w), num(by + ux * w), num(bx + uy * w), num(by - ux * w));
}

}  // namespace tansaku::render
