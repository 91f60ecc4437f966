// A permutation puzzle as data: the ksolve/twsearch definition format (Name, Set, Solved or
// StartState, Move or MoveTransformation blocks, MoveAlias, MoveSequence, Illegal) read into
// sets of positions, a solved position, base moves and rotations, with the file and line of
// everything for error messages. Semantics in docs/perm.md.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tansaku::perm {

constexpr int kMaxPositions = 128;  // positions over all sets (pieces of every set)

// A position: at each position (flat over the sets), the piece label (0-based, packed per
// set: the distinct numbers of the Solved block in increasing order) and its orientation.
struct Position {
  std::array<std::uint8_t, kMaxPositions> lab{}, ori{};
  bool operator==(const Position&) const = default;
};

struct SetDef {
  std::string name;
  int size = 0;     // positions (pieces)
  int omod = 1;     // orientations
  int offset = 0;   // first flat position
  std::vector<int> numbers;  // packed label -> the number written in the file
};

// A permutation of the flat positions with orientation changes: applying it to s gives t
// with t.lab[i] = s.lab[perm[i]], t.ori[i] = (s.ori[perm[i]] + twist[i]) mod omod. A mirror
// (a reflection of the puzzle, in symmetry files only: never a move) reverses orientations:
// t.ori[i] = (twist[i] - s.ori[perm[i]]) mod omod.
struct Perm {
  std::vector<std::uint8_t> perm, twist;
  bool mirror = false;
  bool operator==(const Perm&) const = default;
};

struct BaseMove {
  std::string name;
  Perm p;
  int line = 0;  // where its block starts
};

// twsearch's MoveAlias NAME MOVE: NAME (and its powers, NAME2, NAME') written in a sequence
// means MOVE (a move, rotation, sequence or alias, or a power of one).
struct MoveAlias {
  std::string name, target;
  int line = 0;
};

// twsearch's MoveSequence NAME M1 M2 ...: NAME (and its powers) written in a sequence means
// the moves M1 M2 ... in turn.
struct NamedSequence {
  std::string name;
  std::vector<std::string> moves;
  int line = 0;
};

// twsearch's Illegal SET POSITION PIECE...: positions where one of these pieces stands at
// that position are illegal; searches never pass through them.
struct IllegalRule {
  int position = 0;          // flat position
  std::uint64_t labels = 0;  // bit k: packed label k may not stand there
  int line = 0;
};

struct Definition {
  std::string name, file;
  std::vector<SetDef> sets;
  int positions = 0;
  std::vector<std::uint8_t> omod;  // per flat position
  std::vector<int> set_of;         // per flat position
  Position solved;
  std::vector<BaseMove> moves;
  // Move blocks named as twsearch names rotations of the whole puzzle (x, y, z; or capital
  // letters followed by 'v'): never searched; a sequence that turns the whole puzzle is
  // read up to these rotations (generators.h, replay).
  std::vector<BaseMove> rotations;
  std::vector<MoveAlias> aliases;
  std::vector<NamedSequence> sequences;
  std::vector<IllegalRule> illegal;

  static bool banned(const IllegalRule& r, const Position& p) {
    const int l = p.lab[static_cast<std::size_t>(r.position)];
    return l < 64 && (r.labels >> l & 1);
  }
  // No Illegal rule forbids p (always true without Illegal sections).
  bool legal(const Position& p) const {
    for (const auto& r : illegal)
      if (banned(r, p)) return false;
    return true;
  }
  // The line of the first Illegal rule p breaks (0: none).
  int broken_rule(const Position& p) const {
    for (const auto& r : illegal)
      if (banned(r, p)) return r.line;
    return 0;
  }

  Perm identity() const;
  void apply(const Perm& m, const Position& s, Position& t) const;
  Position applied(const Perm& m, const Position& s) const {
    Position t;
    apply(m, s, t);
    return t;
  }
  Perm compose(const Perm& a, const Perm& b) const;  // a then b
  Perm inverse(const Perm& a) const;
  int set_index(const std::string& name) const;  // -1 if none
};

// Parses definition text; `file` names it in errors ("FILE:LINE: problem", InputError).
Definition parse_definition(const std::string& text, const std::string& file);
// twsearch scramble files: `ScrambleState NAME` blocks laid out like Solved (InputError
// "FILE:LINE: problem" when a block does not fit `d`).
std::vector<std::pair<std::string, Position>> parse_scrambles(const Definition& d, const std::string& text,
                                                              const std::string& file);
// A builtin name (data/perm/NAME.tws) or a path to a .tws file.
Definition load_definition(const std::string& name_or_path);
// The directory of the builtin definitions, and their names.
std::string data_dir();
std::vector<std::string> builtin_names();
// The names that stand for builtins (`cube` for perm:3x3x3, ...), alias -> perm:NAME.
const std::vector<std::pair<std::string, std::string>>& builtin_aliases();
// Reads a whole file; InputError naming `what` when it cannot.
std::string read_text_file(const std::string& path, const std::string& what);

}  // namespace tansaku::perm
