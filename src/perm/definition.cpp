// Reading ksolve/twsearch definition files (see definition.h and docs/perm.md).
#include "perm/definition.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "perm/generators.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"

namespace tansaku::perm {

Perm Definition::identity() const {
  Perm p;
  p.perm.resize(static_cast<std::size_t>(positions));
  p.twist.assign(static_cast<std::size_t>(positions), 0);
  for (int i = 0; i < positions; ++i) p.perm[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i);
  return p;
}

void Definition::apply(const Perm& m, const Position& s, Position& t) const {
  for (int i = 0; i < positions; ++i) {
    const int from = m.perm[static_cast<std::size_t>(i)];
    t.lab[static_cast<std::size_t>(i)] = s.lab[static_cast<std::size_t>(from)];
    const int n = omod[static_cast<std::size_t>(i)];
    const int so = s.ori[static_cast<std::size_t>(from)];
    const int o = (m.mirror ? n - so : so) + m.twist[static_cast<std::size_t>(i)];
    t.ori[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(o >= n ? o - n : o);  // o < 2n
  }
}

Perm Definition::compose(const Perm& a, const Perm& b) const {
  // (s a) b: t[i] = (s a)[b[i]] = s[a[b[i]]]; twist: b's at i plus a's at b[i] (reversed
  // when b is a mirror); a mirror when one of the two is.
  Perm c = identity();
  c.mirror = a.mirror != b.mirror;
  for (int i = 0; i < positions; ++i) {
    const auto bi = b.perm[static_cast<std::size_t>(i)];
    const int n = omod[static_cast<std::size_t>(i)];
    c.perm[static_cast<std::size_t>(i)] = a.perm[bi];
    c.twist[static_cast<std::size_t>(i)] =
        static_cast<std::uint8_t>(((b.mirror ? n - a.twist[bi] : a.twist[bi]) + b.twist[static_cast<std::size_t>(i)]) % n);
  }
  return c;
}

Perm Definition::inverse(const Perm& a) const {
  // t.ori[i] = tw[i] +- s.ori[a[i]], so s.ori[a[i]] = -tw[i] + t.ori[i] (a rotation), or
  // tw[i] - t.ori[i] (a mirror).
  Perm c = identity();
  c.mirror = a.mirror;
  for (int i = 0; i < positions; ++i) {
    const auto ai = a.perm[static_cast<std::size_t>(i)];
    c.perm[ai] = static_cast<std::uint8_t>(i);
    const int n = omod[ai];
    const int t = a.twist[static_cast<std::size_t>(i)] % n;
    c.twist[ai] = static_cast<std::uint8_t>(a.mirror ? t : (n - t) % n);
  }
  return c;
}

int Definition::set_index(const std::string& name) const {
  for (std::size_t i = 0; i < sets.size(); ++i)
    if (sets[i].name == name) return static_cast<int>(i);
  return -1;
}

namespace {

struct Line {
  int number;
  std::vector<std::string> tokens;
};

// Lines with their numbers; '#' starts a comment (twsearch: at the start of a line).
std::vector<Line> lines_of(const std::string& text) {
  std::vector<Line> out;
  std::istringstream in(text);
  std::string s;
  int n = 0;
  while (std::getline(in, s)) {
    ++n;
    if (auto h = s.find('#'); h != std::string::npos) s.resize(h);
    Line l{n, {}};
    std::istringstream ls(s);
    std::string t;
    while (ls >> t) l.tokens.push_back(t);
    if (!l.tokens.empty()) out.push_back(std::move(l));
  }
  return out;
}

class Parser {
 public:
  Parser(const std::string& text, std::string file) : lines_(lines_of(text)), file_(std::move(file)) {}

  Definition run() {
    Definition d;
    d.file = file_;
    bool have_solved = false;
    std::vector<std::vector<int>> solved_numbers;
    std::vector<std::vector<int>> solved_oris;
    std::map<std::string, int> move_names;
    while (i_ < lines_.size()) {
      const Line& l = lines_[i_++];
      const std::string& k = l.tokens[0];
      if (k == "Name") {
        if (!d.name.empty() || !d.sets.empty()) fail(l, "'Name' must come first, once");
        expect(l, 2);
        d.name = l.tokens[1];
      } else if (k == "Set") {
        if (have_solved) fail(l, "'Set' after 'Solved'");
        expect(l, 4);
        SetDef s;
        s.name = l.tokens[1];
        // A name that starts like a number would be read as a row of a block, or as piece
        // numbers in a position.
        if (numeric(s.name) || s.name.find(',') != std::string::npos)
          fail(l, fmt::format("set name '{}' must not start with a digit, be '?' or hold a comma", printable(s.name)));
        if (d.set_index(s.name) >= 0) fail(l, fmt::format("set '{}' is defined twice", s.name));
        s.size = number(l, l.tokens[2], 1, 255, "the number of pieces");
        s.omod = number(l, l.tokens[3], 1, 127, "the number of orientations");
        s.offset = d.positions;
        d.positions += s.size;
        if (d.positions > kMaxPositions)
          fail(l, fmt::format("more than {} pieces over all sets are not supported", kMaxPositions));
        d.sets.push_back(s);
      } else if (k == "Solved" || k == "StartState") {
        // twsearch: StartState is the Solved block with piece numbers counted from 0.
        if (d.sets.empty()) fail(l, fmt::format("'{}' before any 'Set'", k));
        if (have_solved) fail(l, "a second 'Solved' or 'StartState' block");
        expect(l, 1);
        have_solved = true;
        auto [nums, oris] = block(d, l, false, k == "StartState");
        solved_numbers = std::move(nums);
        solved_oris = std::move(oris);
      } else if (k == "Move" || k == "MoveTransformation") {
        // twsearch: a MoveTransformation writes the permutation from 0 and the orientation
        // changes by the position the piece goes to.
        const bool transformation = k == "MoveTransformation";
        if (!have_solved) fail(l, fmt::format("'{}' before 'Solved'", k));
        expect(l, 2);
        name_ok(l, l.tokens[1]);
        if (move_names.count(l.tokens[1])) fail(l, fmt::format("move '{}' is defined twice", l.tokens[1]));
        move_names[l.tokens[1]] = l.number;
        auto [perms, twists] = block(d, l, true, transformation);
        BaseMove m;
        m.name = l.tokens[1];
        m.line = l.number;
        m.p.perm.resize(static_cast<std::size_t>(d.positions));
        m.p.twist.resize(static_cast<std::size_t>(d.positions));
        for (std::size_t s = 0; s < d.sets.size(); ++s) {
          const auto& sd = d.sets[s];
          for (int j = 0; j < sd.size; ++j) {
            const int from = perms[s][static_cast<std::size_t>(j)];  // 0-based within the set
            m.p.perm[static_cast<std::size_t>(sd.offset + j)] = static_cast<std::uint8_t>(sd.offset + from);
            // ksolve: the orientation row is indexed by where the piece comes from.
            m.p.twist[static_cast<std::size_t>(sd.offset + j)] =
                static_cast<std::uint8_t>(twists[s][static_cast<std::size_t>(transformation ? j : from)]);
          }
        }
        (rotation_name(m.name) ? d.rotations : d.moves).push_back(std::move(m));
      } else if (k == "MoveAlias") {
        if (!have_solved) fail(l, "'MoveAlias' before 'Solved'");
        expect(l, 3);
        name_ok(l, l.tokens[1]);
        d.aliases.push_back({l.tokens[1], l.tokens[2], l.number});
      } else if (k == "MoveSequence") {
        if (!have_solved) fail(l, "'MoveSequence' before 'Solved'");
        if (l.tokens.size() < 3) fail(l, "'MoveSequence' takes a name and at least one move");
        name_ok(l, l.tokens[1]);
        d.sequences.push_back({l.tokens[1], std::vector<std::string>(l.tokens.begin() + 2, l.tokens.end()), l.number});
      } else if (k == "Illegal") {
        // Illegal SET POSITION PIECE...: resolved to labels once the Solved block is known.
        if (!have_solved) fail(l, "'Illegal' before 'Solved'");
        if (l.tokens.size() < 4) fail(l, "'Illegal' takes a set, a position and at least one piece number");
        const int s = d.set_index(l.tokens[1]);
        if (s < 0) fail(l, fmt::format("unknown set '{}'", printable(l.tokens[1])));
        const auto& sd = d.sets[static_cast<std::size_t>(s)];
        const int pos = number(l, l.tokens[2], 1, sd.size, fmt::format("a position of set '{}'", sd.name));
        std::vector<int> pieces;
        for (std::size_t t = 3; t < l.tokens.size(); ++t)
          pieces.push_back(number(l, l.tokens[t], 1, 64, "a piece number"));
        illegal_raw.push_back({l.number, s, pos - 1, pieces});
      } else if (k == "End") {
        fail(l, "'End' outside a block");
      } else if (k == "ScrambleState" || k == "ForbiddenPairs" || k == "Ignore" || k == "Block" || k == "Scramble" ||
                 k == "SwizzleSet") {
        fail(l, fmt::format("the '{}' section is not supported", printable(k)));
      } else {
        fail(l, fmt::format("unexpected '{}' (expected Name, Set, Solved, Move, MoveAlias, MoveSequence, Illegal)",
                            printable(k)));
      }
    }
    if (d.sets.empty()) fail_eof("no 'Set'");
    if (!have_solved) fail_eof("no 'Solved' block");
    if (d.moves.empty()) fail_eof("no 'Move'");
    if (d.name.empty()) d.name = "Unnamed";
    for (std::size_t s = 0; s < d.sets.size(); ++s) contiguous(d.sets[s], solved_numbers[s]);
    d.omod.resize(static_cast<std::size_t>(d.positions));
    d.set_of.resize(static_cast<std::size_t>(d.positions));
    for (std::size_t s = 0; s < d.sets.size(); ++s) {
      auto& sd = d.sets[s];
      std::vector<int> nums = solved_numbers[s];
      std::sort(nums.begin(), nums.end());
      nums.erase(std::unique(nums.begin(), nums.end()), nums.end());
      sd.numbers = nums;
      for (int j = 0; j < sd.size; ++j) {
        const auto p = static_cast<std::size_t>(sd.offset + j);
        d.omod[p] = static_cast<std::uint8_t>(sd.omod);
        d.set_of[p] = static_cast<int>(s);
        d.solved.lab[p] = static_cast<std::uint8_t>(
            std::lower_bound(nums.begin(), nums.end(), solved_numbers[s][static_cast<std::size_t>(j)]) - nums.begin());
        d.solved.ori[p] = static_cast<std::uint8_t>(solved_oris[s][static_cast<std::size_t>(j)]);
      }
    }
    for (const auto& r : illegal_raw) {
      const auto& sd = d.sets[static_cast<std::size_t>(r.set)];
      IllegalRule rule{sd.offset + r.position, 0, r.line};
      for (int v : r.pieces) {
        auto it = std::find(sd.numbers.begin(), sd.numbers.end(), v);
        if (it == sd.numbers.end())
          throw InputError(
              fmt::format("{}:{}: set '{}' has no piece {} in its Solved block", file_, r.line, sd.name, v));
        rule.labels |= std::uint64_t{1} << (it - sd.numbers.begin());
      }
      d.illegal.push_back(rule);
    }
    if (d.illegal.size() > kMaxIllegal)
      fail_eof(fmt::format("more than {} Illegal lines are not supported", kMaxIllegal));
    if (const int line = d.broken_rule(d.solved))
      fail_eof(fmt::format("the Solved block breaks the Illegal rule of line {}", line));
    if (d.sequences.size() + d.aliases.size() + d.rotations.size() > kMaxNamed)
      fail_eof(fmt::format("more than {} rotations, MoveAlias and MoveSequence lines are not supported", kMaxNamed));
    unique_move_names(d);
    check_named(d);
    return d;
  }

 private:
  static constexpr std::size_t kMaxIllegal = 4096;
  static constexpr std::size_t kMaxNamed = 1024;
  struct RawIllegal {
    int line, set, position;
    std::vector<int> pieces;
  };
  std::vector<RawIllegal> illegal_raw;

  // twsearch's convention: x, y, z, or capital letters (and '_') followed by 'v', name
  // rotations of the whole puzzle.
  static bool rotation_name(const std::string& n) {
    if (n == "x" || n == "y" || n == "z") return true;
    if (n.size() < 2 || n.back() != 'v') return false;
    return std::all_of(n.begin(), n.end() - 1, [](char c) { return c == '_' || (c >= 'A' && c <= 'Z'); });
  }
  // A comma separates moves in a sequence: such a name could not be read back.
  void name_ok(const Line& l, const std::string& n) const {
    if (n.find(',') != std::string::npos) fail(l, fmt::format("move name '{}' must not hold a comma", printable(n)));
  }

  // twsearch's rule: the numbers of a set's Solved row are 1..k, each at least once (a row
  // "1 3 3" skips 2; twsearch refuses it: "values are not contiguous").
  void contiguous(const SetDef& sd, const std::vector<int>& row) const {
    std::vector<int> sorted = row;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    for (std::size_t k = 0; k < sorted.size(); ++k)
      if (sorted[k] != static_cast<int>(k) + 1)
        fail_eof(
            fmt::format("set '{}': the piece numbers of the Solved block must be 1..{} with none left out ({} is "
                        "missing), as twsearch requires",
                        sd.name, sorted.size(), k + 1));
  }

  // Every name a move sequence can be written with (each power of each base move, named as
  // generators.h names them) must be unique: otherwise a printed solution cannot be read
  // back (a base move R2 beside R squared).
  void unique_move_names(const Definition& d) const {
    std::map<std::string, std::pair<std::size_t, int>> seen;  // name -> (base move, power)
    const Perm id = d.identity();
    auto describe = [&](std::size_t b, int k) {
      const auto& m = d.moves[b];
      return k == 1 ? fmt::format("move '{}' (line {})", m.name, m.line)
                    : fmt::format("power {} of move '{}' (line {})", k, m.name, m.line);
    };
    for (std::size_t b = 0; b < d.moves.size(); ++b) {
      // The order of the move (build_moves refuses a move of order 1 or above 255).
      int order = 1;
      Perm cur = d.moves[b].p;
      while (!(cur == id) && order < 256) cur = d.compose(cur, d.moves[b].p), ++order;
      if (order > 255) order = 2;
      for (int k = 1; k < std::max(order, 2); ++k) {
        const std::string name = order < 2 ? d.moves[b].name : power_name(d.moves[b].name, k, order);
        auto [it, fresh] = seen.emplace(name, std::make_pair(b, k));
        if (!fresh)
          throw InputError(fmt::format("{}:{}: {} and {} are both written '{}': rename one of the moves", file_,
                                       d.moves[b].line, describe(it->second.first, it->second.second), describe(b, k),
                                       printable(name)));
      }
    }
  }

  [[noreturn]] void fail(const Line& l, const std::string& what) const {
    throw InputError(fmt::format("{}:{}: {}", file_, l.number, what));
  }
  [[noreturn]] void fail_eof(const std::string& what) const {
    throw InputError(fmt::format("{}: {}", file_, what));
  }
  void expect(const Line& l, std::size_t n) const {
    if (l.tokens.size() != n)
      fail(l, fmt::format("'{}' takes {} token{}, found {}", l.tokens[0], n, n == 1 ? "" : "s", l.tokens.size()));
  }
  int number(const Line& l, const std::string& t, int lo, int hi, const std::string& what) const {
    if (t.empty()) fail(l, fmt::format("{}: missing", what));
    if (t == "?") fail(l, "'?' (orientation wildcards) is not supported");
    int v = 0;
    for (char c : t) {
      if (c < '0' || c > '9') fail(l, fmt::format("{}: '{}' is not a number", what, printable(t)));
      v = v * 10 + (c - '0');
      if (v > 100000) break;
    }
    if (v < lo || v > hi) fail(l, fmt::format("{}: {} is out of range {}..{}", what, t, lo, hi));
    return v;
  }
  static bool numeric(const std::string& t) { return !t.empty() && ((t[0] >= '0' && t[0] <= '9') || t == "?"); }

  // A Solved or Move block up to End: per set a row of numbers (1-based) and an optional
  // orientation row. Sets not listed are the identity (all pieces distinct, orientation 0).
  // For moves the rows are 0-based permutations and orientation changes.
  // `zero`: numbers counted from 0 (StartState, MoveTransformation).
  std::pair<std::vector<std::vector<int>>, std::vector<std::vector<int>>> block(const Definition& d, const Line& head,
                                                                                bool move, bool zero = false) {
    std::vector<std::vector<int>> nums(d.sets.size()), oris(d.sets.size());
    std::vector<bool> given(d.sets.size(), false);
    int cur = -1, rows = 0;
    auto finish_set = [&](const Line& l) {
      if (cur >= 0 && rows == 0) fail(l, fmt::format("set '{}' has no row", d.sets[static_cast<std::size_t>(cur)].name));
    };
    while (true) {
      if (i_ >= lines_.size()) fail(head, fmt::format("the '{}' block has no 'End'", head.tokens[0]));
      const Line& l = lines_[i_++];
      if (l.tokens[0] == "End") {
        expect(l, 1);
        finish_set(l);
        break;
      }
      if (numeric(l.tokens[0])) {
        if (cur < 0) fail(l, "a row of numbers before any set name");
        const auto& sd = d.sets[static_cast<std::size_t>(cur)];
        if (rows >= 2) fail(l, fmt::format("set '{}' has more than two rows", sd.name));
        if (static_cast<int>(l.tokens.size()) != sd.size)
          fail(l, fmt::format("set '{}' has {} pieces but the row has {} numbers", sd.name, sd.size, l.tokens.size()));
        auto& row = rows == 0 ? nums[static_cast<std::size_t>(cur)] : oris[static_cast<std::size_t>(cur)];
        row.clear();
        for (const auto& t : l.tokens) {
          if (rows == 0)
            row.push_back(
                zero
                    ? number(l, t, 0, move ? sd.size - 1 : 254, move ? "a position" : "a piece number") + (move ? 0 : 1)
                    : number(l, t, 1, move ? sd.size : 255, move ? "a position" : "a piece number") - (move ? 1 : 0));
          else
            row.push_back(number(l, t, 0, sd.omod - 1, fmt::format("an orientation of set '{}'", sd.name)));
        }
        if (rows == 0 && move) {
          std::vector<bool> seen(static_cast<std::size_t>(sd.size), false);
          for (int v : row) {
            if (seen[static_cast<std::size_t>(v)])
              fail(l, fmt::format("the row of set '{}' is not a permutation ({} occurs twice)", sd.name, v + 1));
            seen[static_cast<std::size_t>(v)] = true;
          }
        }
        ++rows;
        continue;
      }
      expect(l, 1);
      finish_set(l);
      cur = d.set_index(l.tokens[0]);
      if (cur < 0) fail(l, fmt::format("unknown set '{}'", printable(l.tokens[0])));
      if (given[static_cast<std::size_t>(cur)]) fail(l, fmt::format("set '{}' appears twice in this block", l.tokens[0]));
      given[static_cast<std::size_t>(cur)] = true;
      rows = 0;
    }
    for (std::size_t s = 0; s < d.sets.size(); ++s) {
      const int n = d.sets[s].size;
      if (nums[s].empty())
        for (int j = 0; j < n; ++j) nums[s].push_back(move ? j : j + 1);
      if (oris[s].empty()) oris[s].assign(static_cast<std::size_t>(n), 0);
    }
    return {nums, oris};
  }

  // ScrambleState NAME blocks (twsearch scramble files) as positions of `d`.
 public:
  std::vector<std::pair<std::string, Position>> scrambles(const Definition& d) {
    std::vector<std::pair<std::string, Position>> out;
    while (i_ < lines_.size()) {
      const Line& l = lines_[i_++];
      if (l.tokens[0] != "ScrambleState") fail(l, fmt::format("unexpected '{}' (expected ScrambleState NAME)", printable(l.tokens[0])));
      expect(l, 2);
      auto [nums, oris] = block(d, l, false);
      Position p;
      for (std::size_t s = 0; s < d.sets.size(); ++s) {
        const auto& sd = d.sets[s];
        std::vector<int> want, got;
        for (int j = 0; j < sd.size; ++j) {
          const int v = nums[s][static_cast<std::size_t>(j)];
          auto it = std::find(sd.numbers.begin(), sd.numbers.end(), v);
          if (it == sd.numbers.end()) fail(l, fmt::format("set '{}': piece {} is not in the Solved block", sd.name, v));
          p.lab[static_cast<std::size_t>(sd.offset + j)] = static_cast<std::uint8_t>(it - sd.numbers.begin());
          p.ori[static_cast<std::size_t>(sd.offset + j)] = static_cast<std::uint8_t>(oris[s][static_cast<std::size_t>(j)]);
          got.push_back(p.lab[static_cast<std::size_t>(sd.offset + j)]);
          want.push_back(d.solved.lab[static_cast<std::size_t>(sd.offset + j)]);
        }
        std::sort(want.begin(), want.end());
        std::sort(got.begin(), got.end());
        if (want != got) fail(l, fmt::format("set '{}': the pieces are not those of the Solved block", sd.name));
      }
      out.emplace_back(l.tokens[1], p);
    }
    return out;
  }

 private:
  std::vector<Line> lines_;
  std::string file_;
  std::size_t i_ = 0;
};

}  // namespace

Definition parse_definition(const std::string& text, const std::string& file) {
  return Parser(std::string(without_bom(text)), file).run();
}

std::vector<std::pair<std::string, Position>> parse_scrambles(const Definition& d, const std::string& text,
                                                              const std::string& file) {
  return Parser(std::string(without_bom(text)), file).scrambles(d);
}

std::string read_text_file(const std::string& path, const std::string& what) {
  // core/input.h: a regular UTF-8 text file within the default budget's file limit.
  return tansaku::read_text_file(path, what + " file", 0, nullptr);
}

std::string data_dir() {
  return shipped_data_dir() + "/perm";
}

std::vector<std::string> builtin_names() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(data_dir(), ec))
    if (e.path().extension() == ".tws") out.push_back(e.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

const std::vector<std::pair<std::string, std::string>>& builtin_aliases() {
  static const std::vector<std::pair<std::string, std::string>> a = {
      {"cube", "perm:3x3x3"}, {"rubik", "perm:3x3x3"}, {"3x3x3", "perm:3x3x3"}, {"2x2x2", "perm:2x2x2"}};
  return a;
}

Definition load_definition(const std::string& name) {
  if (name.empty()) throw InputError("perm needs a definition: perm:NAME (see 'tansaku list') or perm:FILE.tws");
  std::string path = name;
  const bool is_path = name.find('/') != std::string::npos || name.find('.') != std::string::npos;
  if (!is_path) {
    path = data_dir() + "/" + name + ".tws";
    if (!path_present(path))
      throw InputError(fmt::format("no builtin permutation puzzle '{}' (builtins: {})", name, fmt::join(builtin_names(), ", ")));
  }
  return parse_definition(read_text_file(path, "perm"), path);
}

}  // namespace tansaku::perm
