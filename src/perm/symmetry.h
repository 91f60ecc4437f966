// Symmetries of a puzzle for conjugate lookups: a symmetry S (a permutation of the
// positions with orientation changes, like a move) such that S^-1 m S is a move for every
// move m. Conjugating a position by S (goal = Solved, pieces distinct) keeps its distance,
// and the conjugate's pieces are others, so a pattern database looked up there gives
// another bound for free (Korf/Reid/Kociemba's symmetric lookups); the search steps the
// conjugate by the conjugated move. The definition format has no symmetries: they come
// from an optional companion file NAME.sym (the 3x3x3 ships the rotations about the UFR-DBL
// diagonal, written by scripts/perm_defs.py); a user's file gets the same with its own.
#pragma once
#include <string>
#include <vector>

#include "perm/generators.h"

namespace tansaku::perm {

struct Symmetry {
  std::string name;
  Perm p;
  std::vector<int> conj;  // per move of the MoveSet: the index of S^-1 m S
};

// `Symmetry NAME` blocks laid out like Move blocks (InputError "FILE:LINE: problem").
std::vector<std::pair<std::string, Perm>> parse_symmetries(const Definition& d, const std::string& text,
                                                           const std::string& file);
// The companion file's symmetries that map the moves of `ms` onto moves (others are left
// out); none without a file, or unless the goal is Solved with distinct pieces per set.
std::vector<Symmetry> load_symmetries(const Definition& d, const MoveSet& ms, const Position& goal);
// p conjugated by s: Solved moved by S^-1, then by the element taking Solved to p, then by S.
Position conjugate(const Definition& d, const Perm& s, const Position& p);

}  // namespace tansaku::perm
