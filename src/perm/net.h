// A facelet net for pictures: where each sticker (set, position, orientation slot) of a
// puzzle is drawn on a cross of faces, and each face's colour. The definition format has no
// geometry, so it comes from an optional companion file NAME.net beside NAME.tws (the cube
// builtins ship one, written by scripts/perm_defs.py; a user's file gets the same drawing
// with its own). Without one the slot drawing stays (draw.h).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "perm/definition.h"

namespace tansaku::perm {

struct Net {
  struct Face {
    std::string name, colour;
    int col = 0, row = 0, cells = 1;  // place in the net (in faces), cells per side
  };
  struct Cell {
    int face = 0, col = 0, row = 0;
  };
  std::vector<Face> faces;
  // sticker[flat position][slot]: the cell it is drawn at (face -1: not drawn).
  std::vector<std::vector<Cell>> sticker;
  std::vector<Cell> fixed;  // cells always in their face's colour (fixed centres)
};

// The net of `d` from its companion file (InputError "FILE:LINE: problem" when it is
// malformed), or nullopt when there is none.
std::optional<Net> load_net(const Definition& d);
Net parse_net(const Definition& d, const std::string& text, const std::string& file);

}  // namespace tansaku::perm
