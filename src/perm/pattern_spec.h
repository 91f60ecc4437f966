// What a pattern table keeps of a puzzle, as data. A piece table (piece_table.h) keeps k
// distinct pieces of one set; the strongest tables of optimal cube solvers keep something
// else: orientations at every cell and the *set* of cells a class of pieces occupies
// (Kociemba's phase-1 coordinates: corner twist x edge flip x UD-slice cells). A pattern
// says, per set it spans, which pieces stay distinct, which are merged into one class
// (identical to each other, distinct from the rest), and whether the orientation at every
// cell is tracked; the other pieces of the set are identical, sets it does not name are
// dropped. Nothing here is specific to one puzzle: the default patterns of a definition
// NAME.tws come from a companion file NAME.pat (docs/perm.md), like NAME.sym.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "perm/definition.h"

namespace tansaku::perm {

struct PatternSet {
  int set = 0;
  bool orientations = false;              // the orientation at every cell of the set
  std::vector<int> distinct;              // packed labels kept distinct
  std::vector<std::vector<int>> classes;  // packed labels merged per class
  bool operator==(const PatternSet&) const = default;
};

struct PatternSpec {
  std::string name;
  std::vector<PatternSet> sets;
  // Stored one entry per class of positions under the symmetries of the companion .sym
  // file that map the pattern onto itself (pattern_reduction.h).
  bool reduced = false;
  bool operator==(const PatternSpec&) const = default;
};

// A subgroup for two-phase solving (two_phase.h), as a companion file declares it:
// `Subgroup MOVE...` (its generators: a base move stands for all its powers, a power such as
// R2 for the powers of it), the lines of a pattern saying what the subgroup keeps solved (the
// projection whose goal class is the subgroup: the cube's corner twist, edge flip and the
// UD-slice edges as one class), `End`; then optionally `Phase1 NAME` ... `End` blocks (the
// tables that bound phase 1, over every move: projections coarser than the subgroup's, or
// that one alone when there are none) and `Phase2 NAME` ... `End` blocks (the tables that
// bound phase 2, over the subgroup's moves; none: every piece kept).
struct SubgroupSpec {
  std::vector<std::pair<int, int>> moves;  // (base move, power), closed under powers
  std::string written;                     // the generators as written ("U D R2 L2 F2 B2")
  PatternSpec keeps;                       // what the subgroup keeps solved
  std::vector<PatternSpec> phase1, phase2;
  int line = 0;  // where `Subgroup` stands
  std::string file;
};

// The tables a companion file lists: patterns, and piece tables (`Pieces SET N...`: those
// pieces of SET kept distinct, see piece_table.h), each as (set, packed labels); and the
// subgroup for two-phase solving, when it declares one (never a table of `pdb build`).
struct TableList {
  std::vector<PatternSpec> patterns;
  std::vector<std::pair<int, std::vector<int>>> pieces;
  std::optional<SubgroupSpec> subgroup;
  // (pattern, the listed pattern it stands in for): `Replaces NAME` in its block. `pdb build`
  // builds the first of such a chain that fits --memory, and a solve uses the first whose
  // table is there and fits (a larger, stronger table in place of a smaller one).
  std::vector<std::pair<std::string, std::string>> replaces;
  // The pattern `name` stands in for; the pattern standing in for `name`; nullptr if none.
  const PatternSpec* instead_of(const std::string& name) const;
  const PatternSpec* stand_in(const std::string& name) const;
  const PatternSpec* pattern(const std::string& name) const;
};

// `Pattern NAME` blocks: lines `SET orientations`, `SET class N...`, `SET distinct N...`
// (N: piece numbers as written in the Solved block), optionally `Reduced` and `Replaces
// NAME` (another pattern of the file, which it stands in for), then `End`; `Pieces SET N...`
// lines; one `Subgroup MOVE...` block with its `Phase1 NAME` / `Phase2 NAME` blocks (the same
// lines as a pattern's, without `Reduced`). InputError "FILE:LINE: problem" on anything else.
TableList parse_table_list(const Definition& d, const std::string& text, const std::string& file);
std::vector<PatternSpec> parse_patterns(const Definition& d, const std::string& text, const std::string& file);
// The companion file NAME.pat beside the definition's file (none: an empty list).
TableList load_table_list(const Definition& d);

// For file headers: {"name", "sets": [{"set" (1-based), "orientations", "distinct" (piece
// numbers), "classes" ([[piece numbers]])}], "reduced" (when true)}, and back (InputError when it does not fit d).
nlohmann::ordered_json pattern_json(const Definition& d, const PatternSpec& p);
PatternSpec pattern_from_json(const Definition& d, const nlohmann::ordered_json& j);
// "EDGES orientations, class 9,10,11,12; CORNERS orientations" for reports.
std::string pattern_text(const Definition& d, const PatternSpec& p);

}  // namespace tansaku::perm
