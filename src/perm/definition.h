// A permutation puzzle as data: the ksolve/twsearch definition format (Name, Set, Solved,
// Move blocks) read into sets of positions, a solved position and base moves, with the
// file and line of everything for error messages. Semantics in docs/perm.md.
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

struct Definition {
  std::string name, file;
  std::vector<SetDef> sets;
  int positions = 0;
  std::vector<std::uint8_t> omod;  // per flat position
  std::vector<int> set_of;         // per flat position
  Position solved;
  std::vector<BaseMove> moves;

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
// Reads a whole file; InputError naming `what` when it cannot.
std::string read_text_file(const std::string& path, const std::string& what);

}  // namespace tansaku::perm
