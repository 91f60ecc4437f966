// Facelet nets (see net.h). Format, one item a line, '#' comments:
//   Face NAME COLUMN ROW CELLS COLOUR     (COLOUR: #rrggbb)
//   Face NAME COLOUR                      (a face without a grid place: polygons only)
//   Sticker SET POSITION SLOT FACE COLUMN ROW
//   Poly SET POSITION SLOT FACE X1 Y1 X2 Y2 X3 Y3 ...
//   Fixed FACE COLUMN ROW
//   FixedPoly FACE X1 Y1 X2 Y2 X3 Y3 ...
//   Facelets FACE FACE ...                (the faces' order in a facelet string)
#include "perm/net.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/input.h"

namespace tansaku::perm {

namespace {
constexpr double kMaxCoord = 100;  // polygon coordinates from 0 to this
constexpr std::size_t kMaxPoints = 64;

bool number(const std::string& s, double& x) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  return ec == std::errc() && end == s.data() + s.size() && std::isfinite(x);
}

bool integer(const std::string& s, int& x) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  return ec == std::errc() && end == s.data() + s.size();
}
}  // namespace

Net parse_net(const Definition& d, const std::string& text, const std::string& file) {
  Net net;
  net.sticker.resize(static_cast<std::size_t>(d.positions));
  for (int i = 0; i < d.positions; ++i)
    net.sticker[static_cast<std::size_t>(i)].assign(d.omod[static_cast<std::size_t>(i)], Net::Cell{-1, 0, 0, {}});
  std::istringstream in(text);
  std::string line;
  int ln = 0;
  auto bad = [&](const std::string& why) { return InputError(fmt::format("{}:{}: {}", file, ln, why)); };
  auto face_of = [&](const std::string& name) {
    for (std::size_t f = 0; f < net.faces.size(); ++f)
      if (net.faces[f].name == name) return static_cast<int>(f);
    throw bad(fmt::format("unknown face '{}'", printable(name)));
  };
  auto cell_of = [&](std::istringstream& ls) {
    std::string face;
    Net::Cell c;
    if (!(ls >> face >> c.col >> c.row)) throw bad("expected FACE COLUMN ROW");
    c.face = face_of(face);
    const int n = net.faces[static_cast<std::size_t>(c.face)].cells;
    if (n == 0) throw bad(fmt::format("face '{}' has no place in the grid", printable(face)));
    if (c.col < 0 || c.row < 0 || c.col >= n || c.row >= n) throw bad("a cell outside its face");
    return c;
  };
  auto poly_of = [&](std::istringstream& ls) {
    std::string face;
    Net::Cell c;
    if (!(ls >> face)) throw bad("expected FACE X1 Y1 X2 Y2 X3 Y3 ...");
    c.face = face_of(face);
    for (std::string t; ls >> t;) {
      double x = 0;
      if (!number(t, x)) throw bad(fmt::format("'{}' is not a coordinate", printable(t)));
      if (x < 0 || x > kMaxCoord) throw bad(fmt::format("a coordinate outside 0..{}", kMaxCoord));
      c.poly.push_back(x);
    }
    if (c.poly.size() % 2) throw bad("a polygon is X Y pairs");
    if (c.poly.size() < 6 || c.poly.size() > 2 * kMaxPoints)
      throw bad(fmt::format("a polygon has 3 to {} corners", kMaxPoints));
    return c;
  };
  // The sticker of SET POSITION SLOT (read from ls) that a Sticker or Poly line places.
  auto slot_of = [&](std::istringstream& ls, const char* expected) -> Net::Cell& {
    std::string set;
    int pos = 0, slot = 0;
    if (!(ls >> set >> pos >> slot)) throw bad(expected);
    const int s = d.set_index(set);
    if (s < 0) throw bad(fmt::format("unknown set '{}'", printable(set)));
    const SetDef& sd = d.sets[static_cast<std::size_t>(s)];
    if (pos < 1 || pos > sd.size || slot < 0 || slot >= sd.omod) throw bad("a position or slot out of range");
    Net::Cell& c = net.sticker[static_cast<std::size_t>(sd.offset + pos - 1)][static_cast<std::size_t>(slot)];
    if (c.face >= 0) throw bad("a sticker placed twice");
    return c;
  };
  while (std::getline(in, line)) {
    ++ln;
    if (auto h = line.find('#'); h != std::string::npos && line.compare(0, 4, "Face") != 0) line.resize(h);
    std::istringstream ls(line);
    std::string kw;
    if (!(ls >> kw)) continue;
    if (kw == "Face") {
      std::vector<std::string> t;  // up to the colour: what follows a '#' there is a comment
      for (std::string s; (t.empty() || t.back()[0] != '#') && ls >> s;) t.push_back(s);
      if (std::string rest; ls >> rest && rest[0] != '#') throw bad("extra text at the end of the line");
      ls.setstate(std::ios::eofbit);
      Net::Face f;
      if (t.size() == 2) {
        f.cells = 0;
      } else if (t.size() != 5 || !integer(t[1], f.col) || !integer(t[2], f.row) || !integer(t[3], f.cells)) {
        throw bad("expected Face NAME COLUMN ROW CELLS COLOUR or Face NAME COLOUR");
      } else if (f.col < 0 || f.row < 0 || f.col > 16 || f.row > 16 || f.cells < 1 || f.cells > 16) {
        throw bad("a face out of range");
      }
      f.name = t.front();
      f.colour = t.back();
      if (f.colour.size() != 7 || f.colour[0] != '#' || f.colour.find_first_not_of("0123456789abcdefABCDEF", 1) != std::string::npos)
        throw bad("a colour is #rrggbb");
      net.faces.push_back(f);
    } else if (kw == "Sticker") {
      Net::Cell& c = slot_of(ls, "expected Sticker SET POSITION SLOT FACE COLUMN ROW");
      c = cell_of(ls);
    } else if (kw == "Poly") {
      Net::Cell& c = slot_of(ls, "expected Poly SET POSITION SLOT FACE X1 Y1 X2 Y2 X3 Y3 ...");
      c = poly_of(ls);
    } else if (kw == "Fixed") {
      net.fixed.push_back(cell_of(ls));
    } else if (kw == "FixedPoly") {
      net.fixed.push_back(poly_of(ls));
    } else if (kw == "Facelets") {
      if (!net.facelet_order.empty()) throw bad("a second Facelets line");
      for (std::string f; ls >> f;) {
        const int k = face_of(f);
        if (std::find(net.facelet_order.begin(), net.facelet_order.end(), k) != net.facelet_order.end())
          throw bad(fmt::format("face '{}' listed twice", printable(f)));
        net.facelet_order.push_back(k);
      }
      if (net.facelet_order.size() != net.faces.size())
        throw bad("Facelets lists every face once, after the Face lines");
    } else {
      throw bad(fmt::format("unknown line '{}'", printable(kw)));
    }
    std::string extra;
    if (ls >> extra) throw bad("extra text at the end of the line");
  }
  if (net.faces.empty()) throw InputError(fmt::format("{}: a net without faces", file));
  if (net.facelet_order.empty())
    for (std::size_t f = 0; f < net.faces.size(); ++f) net.facelet_order.push_back(static_cast<int>(f));
  return net;
}

std::optional<Net> load_net(const Definition& d) {
  if (d.file.empty()) return std::nullopt;
  std::filesystem::path p(d.file);
  p.replace_extension(".net");
  std::error_code ec;
  if (!file_allowed(p.string()) || !std::filesystem::is_regular_file(p, ec)) return std::nullopt;
  return parse_net(d, tansaku::read_text_file(p.string(), "net file", 0, nullptr), p.string());
}

}  // namespace tansaku::perm
