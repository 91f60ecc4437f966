// Pictures of permutation-puzzle positions (Puzzle::draw*): a facelet net (coloured faces
// of cells or polygons) when the definition has a companion NAME.net (net.h: the cube,
// skewb and pyraminx builtins); otherwise each set of the definition as a row of labelled
// slots (the piece number at each position, its orientation as "+t"), the pieces coloured
// by number and the slots already solved ringed in green. Stickers and slots carry
// data-cell = the flat position index (sets in definition order).
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "perm/definition.h"
#include "perm/generators.h"
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::perm {

std::string position_svg(const Definition& d, const Position& p, const Position& solved);

// The rules a solution replays (puzzles/solution.h): a move is an index into the move set,
// written by its name; a move into an Illegal position is not legal. Frames ring the slots
// that already hold what the goal has there.
struct Rules {
  using Position = perm::Position;
  using Move = int;
  std::shared_ptr<const Definition> d;
  MoveSet ms;
  Position target;  // the goal the frames compare with
  std::string state(const Position& p) const;
  json move(const Position&, int m) const { return ms.gens[static_cast<std::size_t>(m)].name; }
  std::optional<Position> apply(const Position& p, int m) const;
  std::string frame(const Position& p) const { return position_svg(*d, p, target); }
  std::string frame(const Position&, int, const Position& after) const { return frame(after); }
};

}  // namespace tansaku::perm
