// A facelet net for pictures: where each sticker (set, position, orientation slot) of a
// puzzle is drawn, and each face's colour. The definition format has no geometry, so it
// comes from an optional companion file NAME.net beside NAME.tws (the cube, skewb and
// pyraminx builtins ship one, written by scripts/perm_defs.py; a user's file gets the same
// drawing with its own). A sticker is a cell of a square face on a grid (the cubes' cross)
// or a polygon at explicit coordinates (triangular faces, the skewb's diamonds). Without a
// net the slot drawing stays (draw.h).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "perm/definition.h"

namespace tansaku::perm {

struct Net {
  struct Face {
    std::string name, colour;
    int col = 0, row = 0, cells = 1;  // place in the grid (in faces), cells per side; cells 0: no place (polygons only)
  };
  struct Cell {
    int face = 0, col = 0, row = 0;  // face: the one whose colour the sticker has when solved
    std::vector<double> poly;        // x y pairs: drawn as this polygon instead of a grid cell
  };
  std::vector<Face> faces;
  // sticker[flat position][slot]: where it is drawn (face -1: not drawn).
  std::vector<std::vector<Cell>> sticker;
  std::vector<Cell> fixed;  // always in their face's colour (fixed centres, the pyraminx's tips)
  // The faces in the order a facelet string lists them (a `Facelets F1 F2 ...` line; else
  // the faces in the order of their lines). facelets.h.
  std::vector<int> facelet_order;
};

// The net of `d` from its companion file (InputError "FILE:LINE: problem" when it is
// malformed), or nullopt when there is none.
std::optional<Net> load_net(const Definition& d);
Net parse_net(const Definition& d, const std::string& text, const std::string& file);

}  // namespace tansaku::perm
