// perm pattern tables (src/perm/pattern_table.h): the 2-bit distances mod 3 against a plain
// breadth-first search over the projected positions (no ranking, no explore), the exact
// value walking down the table along random walks, conjugate and inverse lookups never above
// the true distance, the companion file's parser, the file round trip, and solve with pattern tables
// finding solutions as short as without them.
#include <gtest/gtest.h>

#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <queue>
#include <random>
#include <thread>

#include "sanitized.h"

#include "perm/definition.h"
#include "perm/generators.h"
#include "perm/pattern_spec.h"
#include "perm/pattern_table.h"
#include "perm/piece_file.h"
#include "perm/solver.h"
#include "perm/symmetry.h"
#include "tansaku/core/deadline.h"
#include "tansaku/core/error.h"
#include "tansaku/core/progress.h"
#include "tansaku/pdb/table_file.h"

using namespace tansaku;
using namespace tansaku::perm;

namespace {

std::string key_of(const Definition& d, const Position& p) {
  std::string k;
  for (int i = 0; i < d.positions; ++i)
    k += static_cast<char>(p.lab[static_cast<std::size_t>(i)]),
        k += static_cast<char>(p.ori[static_cast<std::size_t>(i)]);
  return k;
}

PatternSpec one_pattern(const Definition& d, const std::string& text) {
  const auto v = parse_patterns(d, text, "t.pat");
  EXPECT_EQ(v.size(), 1u);
  return v.at(0);
}

std::unique_ptr<PatternTable> build(const Definition& d, const MoveSet& ms, const std::string& text) {
  search::Limits lim;
  lim.threads = 2;
  return build_pattern_table(std::make_unique<PatternDomain>(d, ms, d.solved, one_pattern(d, text), 2), lim);
}

// The table against a plain BFS over projected positions (the projected puzzle's own
// moves); random walks of the whole puzzle: projection commutes with the moves, and the
// exact value and the value recovered from the parent's are the BFS distance.
void check_against_bfs(const std::string& name, const std::string& moves, const std::string& text, std::uint64_t size) {
  const Definition d = load_definition(name);
  const MoveSet ms = build_moves(d, "htm", moves);
  const auto table = build(d, ms, text);
  const PatternDomain& dom = table->domain();
  EXPECT_EQ(dom.size(), size);
  const Definition& pd = dom.projected();
  const MoveSet& pms = dom.projected_moves();
  std::map<std::string, int> dist;
  std::queue<Position> q;
  dist[key_of(pd, pd.solved)] = 0;
  q.push(pd.solved);
  int max = 0;
  while (!q.empty()) {
    const Position s = q.front();
    q.pop();
    const int ds = dist[key_of(pd, s)];
    max = std::max(max, ds);
    ASSERT_EQ(table->mod3().get(dom.space().rank(s)), static_cast<unsigned>(ds % 3));
    for (const auto& g : pms.gens) {
      const Position t = pd.applied(g.p, s);
      if (dist.emplace(key_of(pd, t), ds + 1).second) q.push(t);
    }
  }
  std::uint64_t reached = 0;
  for (std::uint64_t r = 0; r < dom.size(); ++r) reached += table->mod3().get(r) != 3;
  EXPECT_EQ(reached, dist.size());
  EXPECT_EQ(table->max_distance(), max);
  std::mt19937 rng(5);
  for (int w = 0; w < 10; ++w) {
    Position p = d.solved;
    int h = 0;
    for (int step = 0; step < 30; ++step) {
      const auto m = rng() % ms.gens.size();
      const Position before = dom.project(p);
      p = d.applied(ms.gens[m].p, p);
      ASSERT_EQ(dom.project(p), pd.applied(pms.gens[m].p, before));
      std::uint64_t r = 0;
      ASSERT_TRUE(dom.rank(p, r));
      const int want = dist.at(key_of(pd, dom.project(p)));
      h = PieceTable::recover(h, table->mod3().get(r));
      ASSERT_EQ(h, want);
      ASSERT_EQ(table->exact(r), want);
    }
  }
}

SolveRequest request(const Definition& d, const MoveSet& ms, const Position& p, bool use_cache) {
  SolveRequest r;
  r.d = &d;
  r.ms = &ms;
  r.start = p;
  r.goal = d.solved;
  r.use_cache = use_cache;
  return r;
}

const char* kFlipSlice = "Pattern flip-slice\nEDGES orientations\nEDGES class 9 10 11 12\nEnd\n";
const char* kTwistSlice = "Pattern twist-slice\nCORNERS orientations\nEDGES class 9 10 11 12\nEnd\n";

}  // namespace

TEST(PermPattern, TwistOnly2x2x2) {
  check_against_bfs("2x2x2", "", "Pattern twist\nCORNERS orientations\nEnd\n", 2187);
}

TEST(PermPattern, ClassesAndDistinct2x2x2) {
  // Corners 1, 2 distinct, 5-8 one class, 3 and 4 the rest: 8!/(4! 2!) = 840 arrangements.
  check_against_bfs("2x2x2", "", "Pattern mixed\nCORNERS distinct 1 2\nCORNERS class 5 6 7 8\nEnd\n", 840);
}

TEST(PermPattern, TwistFlipSliceRestrictedMoves) {
  // The 3x3x3's default pattern under <U,F>: 6 corners (twist 3^5), 7 edges holding two
  // of the slice edges (C(7,2) = 21); the flips follow from where the two are (U and F
  // flip no edge in the RL convention), which the ranking finds: 5103 entries, not x 2^6.
  check_against_bfs("3x3x3", "U,F",
                    "Pattern p\nCORNERS orientations\nEDGES orientations\nEDGES class 9 10 11 12\nEnd\n", 243u * 21u);
}

TEST(PermPattern, DefaultPatternOfTheCube) {
  const Definition d = load_definition("3x3x3");
  const TableList list = load_table_list(d);
  const auto& pats = list.patterns;
  ASSERT_EQ(pats.size(), 3u);  // the default, and two larger ones standing in for it where they fit
  ASSERT_EQ(list.replaces.size(), 2u);
  EXPECT_EQ(list.replaces[0], std::make_pair(std::string("twist-flip-layers"), std::string("twist-flip-sortedslice")));
  EXPECT_EQ(list.replaces[1], std::make_pair(std::string("twist-flip-layers-pairs"), std::string("twist-flip-layers")));
  EXPECT_TRUE(list.pieces.empty());  // the pattern alone (piece tables did not pay beside it)
  const TableList corners = parse_table_list(d, "Pieces CORNERS 1 2 3 4 5 6 7 8\n", "x.pat");
  ASSERT_EQ(corners.pieces.size(), 1u);
  EXPECT_EQ(corners.pieces[0].first, 0);
  EXPECT_EQ(corners.pieces[0].second, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(pats[0].name, "twist-flip-sortedslice");
  EXPECT_TRUE(pats[0].reduced);
  // Its space, not reduced: 2187 x 2048 x 11880 (the reduction: tests/perm_reduction.cpp).
  PatternSpec full = pats[0];
  full.reduced = false;
  const PatternDomain whole(d, build_moves(d, "htm", ""), d.solved, full);
  EXPECT_EQ(whole.size(), 2187ull * 2048u * 11880u);
  EXPECT_FALSE(whole.whole());
  EXPECT_EQ(pattern_from_json(d, pattern_json(d, pats[0])), pats[0]);
  // The larger: which of the E slice, the U layer and the D layer each edge sits in
  // (12! / (4! 4! 4!)) in place of the E slice's order.
  EXPECT_EQ(pats[1].name, "twist-flip-layers");
  EXPECT_TRUE(pats[1].reduced);
  PatternSpec layers = pats[1];
  layers.reduced = false;
  EXPECT_EQ(PatternDomain(d, build_moves(d, "htm", ""), d.solved, layers).size(), 2187ull * 2048u * 34650u);
  // The largest: the E slice's edges in two pairs of opposite edges (12! / (2! 2! 4! 4!)).
  EXPECT_EQ(pats[2].name, "twist-flip-layers-pairs");
  EXPECT_TRUE(pats[2].reduced);
  PatternSpec pairs = pats[2];
  pairs.reduced = false;
  EXPECT_EQ(PatternDomain(d, build_moves(d, "htm", ""), d.solved, pairs).size(), 2187ull * 2048u * 207900u);
}

TEST(PermPattern, ConjugateLookupsNeverAboveTheDistance) {
  // Two 10^6-entry patterns of the cube, looked up at a position and at its conjugates by
  // the rotations of data/perm/3x3x3.sym, on positions of known optimal length.
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  const auto syms = load_symmetries(d, ms, d.solved);
  ASSERT_EQ(syms.size(), 2u);
  const auto flip = build(d, ms, kFlipSlice), twist = build(d, ms, kTwistSlice);
  EXPECT_EQ(flip->domain().size(), 2048u * 495u);
  auto at = [&](const std::string& seq) {
    Position p = d.solved;
    for (const Perm& m : parse_sequence_any(d, seq, "test")) p = d.applied(m, p);
    return p;
  };
  std::vector<std::pair<Position, int>> known = {
      {at("U2 D2 F2 B2 L2 R2"), 6},
      {at("U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"), 20},  // superflip
      {d.solved, 0}};
  // Short scrambles, their optimal length by the solver without cached tables.
  std::mt19937 rng(11);
  for (int k = 0; k < 2; ++k) {
    Position p = d.solved;
    for (int s = 0; s < 6; ++s) p = d.applied(ms.gens[rng() % ms.gens.size()].p, p);
    const auto res = solve(request(d, ms, p, false), search::Limits{});
    ASSERT_TRUE(res.path.found);
    known.emplace_back(p, static_cast<int>(res.path.moves.size()));
  }
  int above_zero = 0;
  for (const auto& [p, optimal] : known)
    for (const PatternTable* t : {flip.get(), twist.get()}) {
      std::vector<Position> views = {p};
      for (const auto& s : syms) views.push_back(conjugate(d, s.p, p));
      for (const auto& v : views) {
        std::uint64_t r = 0;
        ASSERT_TRUE(t->domain().rank(v, r));
        const int h = t->exact(r);
        EXPECT_LE(h, optimal);
        above_zero += h > 0;
      }
    }
  EXPECT_GT(above_zero, 10);  // the lookups see something
}

TEST(PermPattern, InverseLookupsNeverAboveTheDistance) {
  // The inverse of a position (symmetry.h, Inverter) is as far from the goal as the
  // position when the moves come with their inverses: on the 2x2x2, every sampled
  // position's inverse has its optimal length (the bidirectional search over the whole
  // space), and two patterns looked up there are never above it; on the cube, the same for
  // positions of known optimal length.
  auto at = [](const Definition& d, const std::vector<Perm>& seq) {
    Position p = d.solved;
    for (const Perm& m : seq) p = d.applied(m, p);
    return p;
  };
  {
    const Definition d = load_definition("2x2x2");
    const MoveSet ms = build_moves(d, "htm", "U,R,F");  // 3,674,160 positions: the bidirectional search
    const Inverter inv(d, d.solved);
    ASSERT_TRUE(inv.valid());
    const auto twist = build(d, ms, "Pattern twist\nCORNERS orientations\nEnd\n");
    const auto top = build(d, ms, "Pattern top\nCORNERS distinct 1 2 3 4\nEnd\n");
    std::mt19937 rng(23);
    int above_zero = 0;
    for (int k = 0; k < 8; ++k) {
      std::vector<Perm> seq, back;
      for (int s = 0; s < 3 + k; ++s) seq.push_back(ms.gens[rng() % ms.gens.size()].p);
      for (auto it = seq.rbegin(); it != seq.rend(); ++it) back.push_back(d.inverse(*it));
      const Position p = at(d, seq);
      Position q, qq;
      inv.invert(p, q);
      ASSERT_EQ(q, at(d, back));  // the moves undone in reverse order
      inv.invert(q, qq);
      ASSERT_EQ(qq, p);
      const auto a = solve(request(d, ms, p, false), search::Limits{}),
                 b = solve(request(d, ms, q, false), search::Limits{});
      ASSERT_TRUE(a.path.found && b.path.found);
      ASSERT_EQ(a.algorithm, "bibfs");
      const int optimal = static_cast<int>(a.path.moves.size());
      EXPECT_EQ(static_cast<int>(b.path.moves.size()), optimal);
      for (const PatternTable* t : {twist.get(), top.get()}) {
        std::uint64_t r = 0;
        ASSERT_TRUE(t->domain().rank(q, r));
        const int h = t->exact(r);
        EXPECT_LE(h, optimal);
        above_zero += h > 0;
      }
    }
    EXPECT_GT(above_zero, 6);
    // A goal with pieces alike has no inverse.
    Position alike = d.solved;
    alike.lab[1] = alike.lab[0];
    EXPECT_FALSE(Inverter(d, alike).valid());
  }
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  const Inverter inv(d, d.solved);
  ASSERT_TRUE(inv.valid());
  const auto flip = build(d, ms, kFlipSlice), twist = build(d, ms, kTwistSlice);
  std::vector<std::pair<std::vector<Perm>, int>> known = {
      {parse_sequence_any(d, "U2 D2 F2 B2 L2 R2", "test"), 6},
      {parse_sequence_any(d, "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2", "test"), 20}};  // superflip
  std::mt19937 rng(29);
  for (int k = 0; k < 2; ++k) {
    std::vector<Perm> seq;
    for (int s = 0; s < 6; ++s) seq.push_back(ms.gens[rng() % ms.gens.size()].p);
    const auto res = solve(request(d, ms, at(d, seq), false), search::Limits{});
    ASSERT_TRUE(res.path.found);
    known.emplace_back(seq, static_cast<int>(res.path.moves.size()));
  }
  int above_zero = 0;
  for (const auto& [seq, optimal] : known) {
    std::vector<Perm> back;
    for (auto it = seq.rbegin(); it != seq.rend(); ++it) back.push_back(d.inverse(*it));
    Position q;
    inv.invert(at(d, seq), q);
    ASSERT_EQ(q, at(d, back));
    for (const PatternTable* t : {flip.get(), twist.get()}) {
      std::uint64_t r = 0;
      ASSERT_TRUE(t->domain().rank(q, r));
      const int h = t->exact(r);
      EXPECT_LE(h, optimal);
      above_zero += h > 0;
    }
  }
  EXPECT_GT(above_zero, 4);
}

TEST(PermPattern, BadFiles) {
  const Definition d = load_definition("3x3x3");
  auto refused = [&](const std::string& text, const std::string& needle) {
    try {
      parse_patterns(d, text, "x.pat");
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  refused("Pattern p\nEDGES orientations\n", "x.pat:2: pattern 'p' without End");
  refused("Pattern p\nFACES orientations\nEnd\n", "x.pat:2: unknown set 'FACES'");
  refused("Pattern p\nEDGES class 9 10 13\nEnd\n", "x.pat:2: set EDGES has no piece 13");
  refused("Pattern p\nEDGES class 9 10\nEDGES distinct 10\nEnd\n", "x.pat:3: piece 10 of set EDGES named twice");
  refused("Pattern p\nEDGES sideways\nEnd\n", "x.pat:2: unknown 'sideways'");
  refused("Pattern p\nEDGES orientations 3\nEnd\n", "x.pat:2: 'orientations' takes no numbers");
  refused("Pattern p\nEnd\n", "x.pat:2: pattern 'p' keeps nothing");
  refused("Move p\nEnd\n", "x.pat:1: expected 'Pattern NAME', 'Pieces SET N...', 'Subgroup MOVE...'");
  refused("Pieces EDGES\n", "x.pat:1: expected 'Pieces SET N...'");
  refused("\nPieces FACES 1 2\n", "x.pat:2: unknown set 'FACES'");
  refused("Pieces EDGES 1 2 2\n", "x.pat:1: piece 2 of set EDGES named twice");
  refused("Pattern p\nEDGES orientations\nEnd\nPattern p\nCORNERS orientations\nEnd\n",
          "x.pat:4: pattern 'p' named twice");
  refused("Pattern p\nEDGES class\nEnd\n", "x.pat:2: 'class' without piece numbers");
  refused("Pattern p\nEDGES class 9 x\nEnd\n", "x.pat:2: expected piece numbers");
  // `Replaces NAME`: another pattern of the file, each replaced once, no cycle.
  const std::string a = "Pattern a\nEDGES orientations\nEnd\n", b = "Pattern b\nCORNERS orientations\n";
  refused(a + b + "Replaces c\nEnd\n", "x.pat:6: 'Replaces c': no pattern of that name here");
  refused(a + b + "Replaces b\nEnd\n", "x.pat:6: pattern 'b' replaces itself");
  refused(a + b + "Replaces\nEnd\n", "x.pat:6: expected 'Replaces NAME'");
  refused(a + b + "Replaces a\nReplaces a\nEnd\n", "x.pat:7: pattern 'b' replaces 'a' already");
  refused(a + b + "Replaces a\nEnd\nPattern c\nEDGES class 9 10 11 12\nReplaces a\nEnd\n",
          "x.pat:10: 'a' is replaced by 'b' already");
  refused("Pattern a\nEDGES orientations\nReplaces b\nEnd\n" + b + "Replaces a\nEnd\n",
          "patterns replace each other in a cycle");
  refused("Subgroup U D R2 L2 F2 B2\nCORNERS orientations\nReplaces a\nEnd\n",
          "x.pat:3: 'Replaces' applies to Pattern blocks, not Subgroup");
  // A chain: c stands in for b, which stands in for a.
  const TableList chain = parse_table_list(
      d, a + b + "Replaces a\nEnd\nPattern c\nEDGES class 9 10 11 12\nCORNERS orientations\nReplaces b\nEnd\n",
      "x.pat");
  ASSERT_EQ(chain.patterns.size(), 3u);
  ASSERT_NE(chain.instead_of("c"), nullptr);
  EXPECT_EQ(chain.instead_of("c")->name, "b");
  EXPECT_EQ(chain.instead_of("b")->name, "a");
  EXPECT_EQ(chain.instead_of("a"), nullptr);
  EXPECT_EQ(chain.stand_in("a")->name, "b");
  EXPECT_EQ(chain.stand_in("c"), nullptr);
}

TEST(PermPattern, FileRoundTripAndSolve) {
  // Two small patterns of the cube in a private cache directory: loaded by solve, which
  // finds solutions as short as without cached tables.
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  const auto dir = std::filesystem::temp_directory_path() / ("tansaku-perm-pattern-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  ::setenv("TANSAKU_PDB_DIR", dir.c_str(), 1);
  const std::uint64_t key = instance_key(d, ms, d.solved);
  for (const char* text : {kFlipSlice, kTwistSlice}) {
    const auto t = build(d, ms, text);
    const auto file = dir / pattern_file_name(d, ms, d.solved, t->domain().spec());
    save_pattern_table(*t, d, key, file);
    const auto back = load_pattern_table(file, d, ms, d.solved, search::Limits{});
    EXPECT_EQ(back->domain().spec(), t->domain().spec());
    EXPECT_EQ(back->max_distance(), t->max_distance());
    for (std::uint64_t r = 0; r < t->domain().size(); r += 997) ASSERT_EQ(back->mod3().get(r), t->mod3().get(r));
    // Another move set: refused.
    EXPECT_THROW(load_pattern_table(file, d, build_moves(d, "qtm", ""), d.solved, search::Limits{}), InputError);
  }
  std::mt19937 rng(17);
  ::setenv("TANSAKU_PERM_INVERSE", "1", 1);  // the inverse lookups too (off by default)
  for (int k = 0; k < all_or_under_sanitizer(2, 1); ++k) {
    Position p = d.solved;
    for (int s = 0; s < 7; ++s) p = d.applied(ms.gens[rng() % ms.gens.size()].p, p);
    const auto a = solve(request(d, ms, p, true), search::Limits{}),
               b = solve(request(d, ms, p, false), search::Limits{});
    ASSERT_TRUE(a.path.found && b.path.found);
    EXPECT_EQ(a.path.moves.size(), b.path.moves.size());
    verify(d, ms, p, d.solved, a.path.moves);
    std::string h;
    for (const auto& s : a.heuristics) h += s + "\n";
    EXPECT_NE(h.find("cached pattern flip-slice"), std::string::npos) << h;
    EXPECT_NE(h.find("conjugate lookups"), std::string::npos) << h;
    EXPECT_NE(h.find("inverse lookups"), std::string::npos) << h;
  }
  ::unsetenv("TANSAKU_PERM_INVERSE");
  ::unsetenv("TANSAKU_PDB_DIR");
  std::filesystem::remove_all(dir);
}

// A cube pattern table built and saved in a directory of its own, removed at the end.
struct SavedPattern {
  Definition d = load_definition("3x3x3");
  MoveSet ms = build_moves(d, "htm", "");
  std::filesystem::path dir, file;
  std::unique_ptr<PatternTable> t;
  SavedPattern(const std::string& tag, const std::string& text)
      : dir(std::filesystem::temp_directory_path() / ("tansaku-perm-" + tag + "-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(dir);
    t = build(d, ms, text);
    file = dir / pattern_file_name(d, ms, d.solved, t->domain().spec());
    save_pattern_table(*t, d, instance_key(d, ms, d.solved), file);
  }
  ~SavedPattern() { std::filesystem::remove_all(dir); }
};

TEST(PermPattern, ReadingClassTablesShowsProgressAndStopsOnTheDeadline) {
  // A reduced pattern's classes and sym-move table (gigabytes for the larger cube patterns)
  // are read with a progress line and stop as soon as the deadline passes, before the cells.
  const SavedPattern saved("side", "Pattern fs\nEDGES orientations\nEDGES class 9 10 11 12\nReduced\nEnd\n");
  ASSERT_NE(saved.t->domain().reduction(), nullptr);
  struct StopOnFirstLine final : ProgressSink {
    std::atomic<bool> stop{false};
    std::vector<std::string> lines;
    void line(const std::string& text) override {
      lines.push_back(text);
      stop = true;
    }
  } sink;
  set_thread_progress_sink(&sink);
  Progress progress(true);
  Deadline deadline;
  deadline.cancel_on(&sink.stop);
  search::Limits lim;
  lim.progress = &progress;
  lim.deadline = &deadline;
  EXPECT_THROW(load_pattern_table(saved.file, saved.d, saved.ms, saved.d.solved, lim), LimitError);
  set_thread_progress_sink(nullptr);
  ASSERT_FALSE(sink.lines.empty());
  EXPECT_NE(sink.lines.front().find("representatives"), std::string::npos) << sink.lines.front();
}

TEST(PermPattern, TablesTooBigToHoldTwiceAreReadOnce) {
  // A file the page cache and a copy could not hold together (the bound lowered here) is read
  // once into the table's own memory, its class and sym-move tables too, checked as read: the
  // same values, no copy taken over later; a damaged byte is refused.
  const SavedPattern saved("once", "Pattern fs\nEDGES orientations\nEDGES class 9 10 11 12\nReduced\nEnd\n");
  const Definition& d = saved.d;
  const MoveSet& ms = saved.ms;
  const auto& file = saved.file;
  const auto& t = saved.t;
  ASSERT_NE(t->domain().reduction(), nullptr);
  tansaku::pdb::set_huge_copy_from(0);
  tansaku::pdb::set_read_once_above(0);
  search::Limits lim;
  lim.threads = 2;
  const auto back = load_pattern_table(file, d, ms, d.solved, lim);
  for (std::uint64_t r = 0; r < t->domain().size(); ++r) ASSERT_EQ(back->mod3().get(r), t->mod3().get(r));
  // (A copy of these few bytes would have been taken over long before.)
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_FALSE(back->mod3().adopted());
  // Over 2-bit cells the class table is checked as read and let go (a search ranks only its
  // start with it); the sym-move table is held, the same.
  EXPECT_EQ(back->domain().reduction()->class_table().words, nullptr);
  const SymMoveTable a = t->domain().reduction()->sym_move_table(), b = back->domain().reduction()->sym_move_table();
  ASSERT_EQ(a.bytes, b.bytes);
  const auto* ab = static_cast<const std::uint8_t*>(a.data);
  EXPECT_TRUE(std::equal(ab, ab + a.bytes, static_cast<const std::uint8_t*>(b.data)));
  auto flip = [&](std::uint64_t at) {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    char c = 0;
    f.seekg(static_cast<std::streamoff>(at));
    f.read(&c, 1);
    c = static_cast<char>(c ^ 0x40);
    f.seekp(static_cast<std::streamoff>(at));
    f.write(&c, 1);
  };
  // A byte of the cells (after the header's page), then one in the middle of the file.
  for (const std::uint64_t at : {std::uint64_t{4096 + 64}, std::filesystem::file_size(file) / 2}) {
    flip(at);
    EXPECT_THROW((void)load_pattern_table(file, d, ms, d.solved, lim), InputError) << at;
    flip(at);
  }
  EXPECT_NO_THROW((void)load_pattern_table(file, d, ms, d.solved, lim));
  tansaku::pdb::set_read_once_above(~std::uint64_t{0});
  tansaku::pdb::set_huge_copy_from(std::uint64_t{64} << 20);
}

TEST(PermPattern, KeptTablesLoadOnceAcrossSolves) {
  // While tables are held (solve --batch), a later solve choosing the same file gets the
  // table already loaded; a file written since is read again; without keeping, each solve
  // reads its own.
  const SavedPattern saved("kept", kFlipSlice);
  const Definition& d = saved.d;
  const MoveSet& ms = saved.ms;
  const auto& file = saved.file;
  ::setenv("TANSAKU_PDB_DIR", saved.dir.c_str(), 1);
  search::Limits lim;
  auto load = [&] {
    CachedTables c = load_cached_tables(d, ms, d.solved, std::uint64_t{1} << 30, lim);
    EXPECT_EQ(c.patterns.size(), 1u);
    return c.patterns.empty() ? nullptr : c.patterns[0];
  };
  const auto a = load(), b = load();
  EXPECT_NE(a.get(), b.get());
  std::shared_ptr<void> hold = hold_loaded_tables();
  ASSERT_TRUE(hold);  // callers test the handle (Puzzle::hold_tables: null keeps nothing)
  std::shared_ptr<void> second = hold_loaded_tables();  // handles nest: kept until the last goes
  const auto c = load();
  second.reset();
  const auto e = load();
  EXPECT_EQ(c.get(), e.get());
  std::filesystem::last_write_time(file, std::filesystem::last_write_time(file) + std::chrono::seconds(1));
  const auto f = load();
  EXPECT_NE(f.get(), e.get());
  EXPECT_EQ(load().get(), f.get());
  hold.reset();
  EXPECT_NE(load().get(), f.get());
  ::unsetenv("TANSAKU_PDB_DIR");
}

TEST(PermPattern, BigTablesMoveToACopy) {
  // A table above the size for huge pages (lowered here) is searched from the file's mapping
  // while a thread copies it; the table then reads the copy, with the same values.
  const SavedPattern saved("big", kFlipSlice);
  const Definition& d = saved.d;
  const MoveSet& ms = saved.ms;
  const auto& file = saved.file;
  const auto& t = saved.t;
  tansaku::pdb::set_huge_copy_from(0);
  search::Limits lim;
  lim.threads = 2;
  const auto back = load_pattern_table(file, d, ms, d.solved, lim);
  tansaku::pdb::set_huge_copy_from(std::uint64_t{64} << 20);
  // (The copy may be adopted before load_pattern_table returns: wait on the flag, not on a
  // change of the pointer read after it.)
  for (int i = 0; i < 6000 && !back->mod3().adopted(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(back->mod3().adopted());
  for (std::uint64_t r = 0; r < t->domain().size(); ++r) ASSERT_EQ(back->mod3().get(r), t->mod3().get(r));
}
