// Facelet nets (see net.h). Format, one item a line, '#' comments:
//   Face NAME COLUMN ROW CELLS COLOUR     (COLOUR: #rrggbb)
//   Sticker SET POSITION SLOT FACE COLUMN ROW
//   Fixed FACE COLUMN ROW
#include "perm/net.h"

#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/input.h"

namespace tansaku::perm {

Net parse_net(const Definition& d, const std::string& text, const std::string& file) {
  Net net;
  net.sticker.resize(static_cast<std::size_t>(d.positions));
  for (int i = 0; i < d.positions; ++i)
    net.sticker[static_cast<std::size_t>(i)].assign(d.omod[static_cast<std::size_t>(i)], Net::Cell{-1, 0, 0});
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
    if (c.col < 0 || c.row < 0 || c.col >= n || c.row >= n) throw bad("a cell outside its face");
    return c;
  };
  while (std::getline(in, line)) {
    ++ln;
    if (auto h = line.find('#'); h != std::string::npos && line.compare(0, 4, "Face") != 0) line.resize(h);
    std::istringstream ls(line);
    std::string kw;
    if (!(ls >> kw)) continue;
    if (kw == "Face") {
      Net::Face f;
      if (!(ls >> f.name >> f.col >> f.row >> f.cells >> f.colour)) throw bad("expected Face NAME COLUMN ROW CELLS COLOUR");
      if (f.col < 0 || f.row < 0 || f.col > 16 || f.row > 16 || f.cells < 1 || f.cells > 16) throw bad("a face out of range");
      if (f.colour.size() != 7 || f.colour[0] != '#' || f.colour.find_first_not_of("0123456789abcdefABCDEF", 1) != std::string::npos)
        throw bad("a colour is #rrggbb");
      net.faces.push_back(f);
    } else if (kw == "Sticker") {
      std::string set;
      int pos = 0, slot = 0;
      if (!(ls >> set >> pos >> slot)) throw bad("expected Sticker SET POSITION SLOT FACE COLUMN ROW");
      const int s = d.set_index(set);
      if (s < 0) throw bad(fmt::format("unknown set '{}'", printable(set)));
      const SetDef& sd = d.sets[static_cast<std::size_t>(s)];
      if (pos < 1 || pos > sd.size || slot < 0 || slot >= sd.omod) throw bad("a position or slot out of range");
      net.sticker[static_cast<std::size_t>(sd.offset + pos - 1)][static_cast<std::size_t>(slot)] = cell_of(ls);
    } else if (kw == "Fixed") {
      net.fixed.push_back(cell_of(ls));
    } else {
      throw bad(fmt::format("unknown line '{}'", printable(kw)));
    }
    std::string extra;
    if (ls >> extra) throw bad("extra text at the end of the line");
  }
  if (net.faces.empty()) throw InputError(fmt::format("{}: a net without faces", file));
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
