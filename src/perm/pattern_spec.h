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
#include <string>
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

// The tables a companion file lists: patterns, and piece tables (`Pieces SET N...`: those
// pieces of SET kept distinct, see piece_table.h), each as (set, packed labels).
struct TableList {
  std::vector<PatternSpec> patterns;
  std::vector<std::pair<int, std::vector<int>>> pieces;
};

// `Pattern NAME` blocks: lines `SET orientations`, `SET class N...`, `SET distinct N...`
// (N: piece numbers as written in the Solved block), optionally `Reduced`, then `End`; and `Pieces SET N...`
// lines. InputError "FILE:LINE: problem" on anything else.
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
