// A small SVG writer for the families' pictures (Puzzle::draw*): every family draws its
// boards with these few shapes, so escaping, number formatting and the palette are written
// once. The result is one self-contained <svg> element (inline attributes, no external refs).
#pragma once
#include <string>
#include <string_view>

namespace tansaku::render {

// Text for XML: & < > " ' escaped (and control bytes dropped).
std::string xml_escape(std::string_view text);

// A fixed palette (index mod its size) for pieces, colours and highlights.
std::string_view palette(std::size_t i);

class Svg {
 public:
  // A picture of width x height user units, scaled to `px_per_unit` pixels per unit.
  Svg(double width, double height, double px_per_unit = 1);
  // `extra` is raw attribute text appended as is (e.g. `data-cell="3"`); callers build it
  // from numbers or escape it.
  Svg& rect(double x, double y, double w, double h, std::string_view fill, std::string_view extra = {});
  Svg& circle(double cx, double cy, double r, std::string_view fill, std::string_view extra = {});
  Svg& line(double x1, double y1, double x2, double y2, std::string_view stroke, double width, std::string_view extra = {});
  Svg& path(std::string_view d, std::string_view fill, std::string_view stroke, double width, std::string_view extra = {});
  // Centred text (escaped).
  Svg& text(double x, double y, std::string_view text, double size, std::string_view fill = "#222", std::string_view extra = {});
  // Anything else, verbatim (must be well-formed SVG).
  Svg& raw(std::string_view svg);
  std::string str() const;  // the closed <svg> element

 private:
  double w_, h_, scale_;
  std::string body_;
};

// A number as SVG wants it: shortest form, no exponent for ordinary sizes.
std::string num(double x);

// Path data of an arrow from (x1, y1) to (x2, y2): the shaft and a closed triangular head
// of length `head` at the end (draw it with the same colour as fill and stroke).
std::string arrow_path(double x1, double y1, double x2, double y2, double head);

}  // namespace tansaku::render
