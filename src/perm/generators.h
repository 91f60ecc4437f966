// The moves a search uses: every power of each base move (htm: each power is one move;
// qtm: only the move and its inverse), named as twsearch names them (R, R2, R', R2' ...),
// optionally restricted to some base moves (--moves). Move sequences are parsed from and
// written in these names.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "perm/definition.h"

namespace tansaku::perm {

struct Gen {
  std::string name;
  int base = 0;     // index into Definition::moves
  int power = 1;    // the base move applied `power` times (1 .. order-1)
  int order = 1;    // order of the base move
  Perm p;
  int inverse = 0;  // index of the inverse move in the same list, -1 if it is not in the list
};

struct MoveSet {
  std::vector<Gen> gens;
  std::vector<int> bases;  // base moves in use
  std::string metric;      // "htm" or "qtm"
  // Consecutive moves a and b (a first) that are never both in an optimal sequence: same
  // base move whose combined power is the identity or one move of the metric.
  bool redundant_pair(int a, int b) const;
  // Base moves i and j commute (as permutations with orientation).
  std::vector<std::vector<bool>> commute;
};

// The order of a base move and name of its power k (k in 1..order-1), twsearch style.
std::string power_name(const std::string& base, int power, int order);

// `moves`: comma-separated base move names ("" = all); metric "htm" or "qtm".
MoveSet build_moves(const Definition& d, const std::string& metric, const std::string& moves);

// Parses "R U2 F'" (spaces or commas) into indices into `ms.gens` (any power of a base
// move in use is accepted, whatever the metric); InputError naming the unknown move.
std::vector<int> parse_sequence(const Definition& d, const MoveSet& ms, const std::string& text, const std::string& what);
// The same, as Perms of the whole definition (every power of every base move).
std::vector<Perm> parse_sequence_any(const Definition& d, const std::string& text, const std::string& what);
std::string format_sequence(const MoveSet& ms, const std::vector<int>& moves);

// A written token as a whole: the permutation it performs and the rotations of the whole
// puzzle in it (the identity for moves that turn no rotation).
struct Turn {
  Perm total, rotation;
};
// Reads a written token: a power (R, R2, R') of a base move, of a rotation, of a named
// sequence or of an alias (definition.h). nullopt when it names none.
std::optional<Turn> resolve_turn(const Definition& d, const std::string& token);
// Replays a sequence (spaces or commas) from `from`: the position the moves lead to, taken
// up to the rotations in it (re-oriented at the end: the rotations undone), so a slice move
// M = R L' x' leaves the same position as R L'. InputError naming an unknown token.
Position replay(const Definition& d, const Position& from, const std::string& text, const std::string& what);
// The definition's aliases and sequences all resolve, none of their names or the rotations'
// is another move's (InputError "FILE:LINE: problem").
void check_named(const Definition& d);

}  // namespace tansaku::perm
