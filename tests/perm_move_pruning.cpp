// The move strings a permutation-puzzle search never plays (perm/move_pruning.h, on the
// engine's automaton): a canonical string survives for every position (the automaton accepts
// exactly as many strings of each length up to its depth as there are positions at that
// distance, counted by an independent breadth-first search), the 3x3x3's published counts,
// the pairwise rules among the depth-2 words, and optimal lengths unchanged by the pruning
// (against the bidirectional search, and against the pairwise rules alone on the 3x3x3),
// also where a symmetric start has the moves its symmetries map onto one another tried once.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "sanitized.h"

#include "perm/definition.h"
#include "perm/generators.h"
#include "perm/group_order.h"
#include "perm/move_pruning.h"
#include "perm/solver.h"
#include "perm/symmetry.h"
#include "tansaku/core/error.h"

using namespace tansaku;
using namespace tansaku::perm;

namespace {

// A solve of p to the definition's goal without cached tables, by `algorithm`, with the move
// strings pruned to `prune` moves (0: the solver's choice).
SolveRequest request(const Definition& d, const MoveSet& ms, const Position& p, const char* algorithm, int prune) {
  SolveRequest r;
  r.d = &d;
  r.ms = &ms;
  r.start = p;
  r.goal = d.solved;
  r.use_cache = false;
  r.algorithm = algorithm;
  r.prune_depth = prune;
  return r;
}

// The number of positions at each distance 0..n from the goal, by breadth-first search.
std::vector<std::uint64_t> positions_by_distance(const Definition& d, const MoveSet& ms, int n) {
  auto key = [&](const Position& p) {
    return std::string(reinterpret_cast<const char*>(p.lab.data()), static_cast<std::size_t>(d.positions)) +
           std::string(reinterpret_cast<const char*>(p.ori.data()), static_cast<std::size_t>(d.positions));
  };
  std::unordered_set<std::string> seen{key(d.solved)};
  std::vector<Position> layer{d.solved};
  std::vector<std::uint64_t> out{1};
  for (int g = 1; g <= n; ++g) {
    std::vector<Position> next;
    for (const Position& p : layer)
      for (const auto& m : ms.gens) {
        Position q = d.applied(m.p, p);
        if (seen.insert(key(q)).second) next.push_back(q);
      }
    out.push_back(next.size());
    layer = std::move(next);
  }
  return out;
}

}  // namespace

TEST(PermMovePruning, CubeCountsArePublishedOnes) {
  // Half-turn metric: 18, 243, 3240, 43239, 574908 positions at distances 1..5; the pairwise
  // rules (the same face twice, opposite faces in one order) allow 43254 and 577368 strings.
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  const auto a = redundant_strings(d, ms, 5);
  ASSERT_EQ(a.depth(), 5);
  EXPECT_EQ(a.accepted(6), (std::vector<std::uint64_t>{1, 18, 243, 3240, 43239, 574908, 7644057}));
  EXPECT_EQ(pair_automaton(d, ms, true).accepted(5), (std::vector<std::uint64_t>{1, 18, 243, 3240, 43254, 577368}));
  // Depth 4: exactly the distinct positions at 4.
  EXPECT_EQ(redundant_strings(d, ms, 4).accepted(4).back(), 43239u);
  // Quarter-turn metric: 12, 114, 1068, 10011 positions at distances 1..4.
  const MoveSet qtm = build_moves(d, "qtm", "");
  EXPECT_EQ(redundant_strings(d, qtm, 4).accepted(4), (std::vector<std::uint64_t>{1, 12, 114, 1068, 10011}));
}

TEST(PermMovePruning, ACanonicalStringForEveryPosition) {
  for (const char* name : {"2x2x2", "pyraminx"}) {
    const Definition d = load_definition(name);
    const MoveSet ms = build_moves(d, "htm", "");
    const int depth = 4;
    const auto a = redundant_strings(d, ms, depth);
    ASSERT_EQ(a.depth(), depth) << name;
    const auto accepted = a.accepted(depth + 1);
    const auto positions = positions_by_distance(d, ms, depth + 1);
    for (int l = 0; l <= depth + 1; ++l) {
      if (l <= depth) {
        EXPECT_EQ(accepted[static_cast<std::size_t>(l)], positions[static_cast<std::size_t>(l)])
            << name << " length " << l;
      } else {
        EXPECT_GE(accepted[static_cast<std::size_t>(l)], positions[static_cast<std::size_t>(l)])
            << name << " length " << l;
      }
    }
    // Fewer strings than the pairwise rules allow, never more.
    const auto pairs = pair_automaton(d, ms, true).accepted(depth + 1);
    for (int l = 0; l <= depth + 1; ++l)
      EXPECT_LE(accepted[static_cast<std::size_t>(l)], pairs[static_cast<std::size_t>(l)]);
  }
}

TEST(PermMovePruning, PairwiseRulesAreDepthTwoWords) {
  for (const char* name : {"3x3x3", "2x2x2", "pyraminx", "skewb", "skewb-fixed", "topspin", "rotating-slide"}) {
    const Definition d = load_definition(name);
    for (const char* metric : {"htm", "qtm"}) {
      const MoveSet ms = build_moves(d, metric, "");
      const auto a = redundant_strings(d, ms, 2);
      const std::set<search::MoveWord> words(a.words().begin(), a.words().end());
      for (const auto& w : pair_words(ms, true)) EXPECT_TRUE(words.count(w)) << name << " " << metric;
    }
  }
  // The 3x3x3's depth-2 words are exactly them (the same face twice; opposite faces in one order).
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  auto words = redundant_strings(d, ms, 2).words();
  auto pairs = pair_words(ms, true);
  std::sort(words.begin(), words.end());
  std::sort(pairs.begin(), pairs.end());
  EXPECT_EQ(words, pairs);
  EXPECT_EQ(words.size(), 6u * 9 + 3u * 9);
}

TEST(PermMovePruning, CacheFileRoundTrips) {
  const Definition d = load_definition("skewb");
  const MoveSet ms = build_moves(d, "htm", "");
  const auto a = redundant_strings(d, ms, 4);
  const auto file =
      std::filesystem::temp_directory_path() / ("tansaku-perm-fsm-" + std::to_string(::getpid()) + ".fsm.zst");
  ASSERT_TRUE(a.write(file));
  const auto back = search::MoveAutomaton::read(file, static_cast<int>(ms.gens.size()), 4);
  std::filesystem::remove(file);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, a.words());
  const search::MoveAutomaton b(static_cast<int>(ms.gens.size()), 4, *back);
  EXPECT_EQ(b.states(), a.states());
  for (std::size_t q = 0; q < a.states(); ++q)
    for (int m = 0; m < a.letters(); ++m)
      ASSERT_EQ(b.next(static_cast<std::int32_t>(q), m), a.next(static_cast<std::int32_t>(q), m));
}

TEST(PermMovePruning, OptimalLengthsUnchanged) {
  // Random positions: IDA* with the pairwise rules only, with the automaton as deep as
  // asked, and the bidirectional search agree.
  for (const char* name : {"2x2x2", "pyraminx"}) {
    const Definition d = load_definition(name);
    const MoveSet ms = build_moves(d, "htm", "");
    for (const Position& p : random_positions(d, ms, d.solved, 7, 3)) {
      std::vector<std::size_t> lengths;
      for (int prune : {2, 0, 5, -1}) {
        const SolveRequest r = request(d, ms, p, prune < 0 ? "bibfs" : "idastar", std::max(prune, 0));
        const auto res = solve(r, search::Limits{});
        ASSERT_TRUE(res.path.found) << name;
        verify(d, ms, p, d.solved, res.path.moves);
        if (prune >= 0) {
          EXPECT_EQ(res.prune_depth, prune == 2 ? 2 : prune == 5 ? 5 : quick_pruning(d, ms).depth()) << name;
        }
        lengths.push_back(res.path.moves.size());
      }
      for (std::size_t i = 1; i < lengths.size(); ++i) EXPECT_EQ(lengths[i], lengths[0]) << name;
    }
  }
}

TEST(PermMovePruning, CubeShortScramblesOptimal) {
  // Scrambles of 4-8 moves: the same optimal length with the pairwise rules and with the
  // redundant strings of up to 5 moves, and fewer nodes; a scramble of at most 5 moves is
  // at most its length.
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  std::mt19937 rng(5);
  const std::vector<int> scrambles = {4, 6, 8};  // the 6- and 8-move ones most of the time: not under a sanitizer
  for (int k = 0; k < all_or_under_sanitizer(3, 1); ++k) {
    const int n = scrambles[static_cast<std::size_t>(k)];
    Position p = d.solved;
    for (int i = 0; i < n; ++i) p = d.applied(ms.gens[rng() % ms.gens.size()].p, p);
    std::vector<std::size_t> lengths;
    std::vector<std::uint64_t> nodes;
    for (int prune : {2, 5}) {
      SolveRequest r = request(d, ms, p, "idastar", prune);
      r.pdb_budget = std::uint64_t{1} << 20;
      const auto res = solve(r, search::Limits{});
      ASSERT_TRUE(res.path.found);
      verify(d, ms, p, d.solved, res.path.moves);
      lengths.push_back(res.path.moves.size());
      nodes.push_back(res.path.stats.expanded);
    }
    EXPECT_EQ(lengths[0], lengths[1]) << n << " moves";
    EXPECT_LE(lengths[0], static_cast<std::size_t>(n));
    EXPECT_LE(nodes[1], nodes[0]) << n << " moves";
  }
}

TEST(PermSolve, FromTheInverseTheSameOptimum) {
  // IDA* searches each bound from the start or from its inverse, whichever iterates in fewer
  // nodes (search::ida_star_inplace_dual): the same optimal lengths as from the start alone,
  // the inverse's solutions inverted back (verify replays them from the start).
  int from_inverse = 0;
  for (const char* name : {"2x2x2", "pyraminx"}) {
    const Definition d = load_definition(name);
    const MoveSet ms = build_moves(d, "htm", "");
    std::mt19937 rng(11);
    for (int k = 0; k < 8; ++k) {  // two of these 16 end from the inverse
      Position p = d.solved;
      for (int i = 0; i < 12; ++i) p = d.applied(ms.gens[rng() % ms.gens.size()].p, p);
      std::vector<std::size_t> lengths;
      for (const bool dual : {false, true}) {
        if (!dual) setenv("TANSAKU_PERM_DUAL", "0", 1);
        SolveRequest r = request(d, ms, p, "idastar", 0);
        r.pdb_budget = std::uint64_t{1} << 20;
        const auto res = solve(r, search::Limits{});
        unsetenv("TANSAKU_PERM_DUAL");
        ASSERT_TRUE(res.path.found) << name;
        verify(d, ms, p, d.solved, res.path.moves);
        lengths.push_back(res.path.moves.size());
        EXPECT_EQ(res.from_inverse && !dual, false);
        from_inverse += res.from_inverse;
      }
      EXPECT_EQ(lengths[0], lengths[1]) << name << " position " << k;
    }
  }
  EXPECT_GT(from_inverse, 0);  // some solutions came from the inverse
}

TEST(PermSolve, SymmetricStartsKeepTheirOptimum) {
  // Every 2x2x2 position up to 4 moves from Solved that a symmetry of 2x2x2.sym fixes (the
  // distances by breadth-first search), and 3x3x3 positions of published length: IDA* plays
  // one move of each kind the symmetries fixing the path map onto one another, and still
  // finds the optimum, with the redundant strings pruned or the pairwise rules alone.
  const Definition d = load_definition("2x2x2");
  const MoveSet ms = build_moves(d, "htm", "");
  const std::vector<Perm> group = symmetry_group(d, ms, d.solved);
  ASSERT_EQ(group.size(), 48u);
  auto key = [&](const Position& p) {
    return std::string(reinterpret_cast<const char*>(p.lab.data()), static_cast<std::size_t>(d.positions)) +
           std::string(reinterpret_cast<const char*>(p.ori.data()), static_cast<std::size_t>(d.positions));
  };
  std::unordered_set<std::string> seen{key(d.solved)};
  std::vector<Position> layer{d.solved};
  std::vector<std::pair<Position, int>> symmetric;
  for (int g = 1; g <= 4; ++g) {
    std::vector<Position> next;
    for (const Position& p : layer)
      for (const auto& m : ms.gens) {
        Position q = d.applied(m.p, p);
        if (!seen.insert(key(q)).second) continue;
        next.push_back(q);
        for (std::size_t k = 1; k < group.size(); ++k)
          if (conjugate(d, group[k], q) == q) {
            symmetric.emplace_back(q, g);
            break;
          }
      }
    layer = std::move(next);
  }
  ASSERT_GT(symmetric.size(), 100u);
  const auto step = symmetric.size() / static_cast<std::size_t>(all_or_under_sanitizer(120, 10));
  for (std::size_t i = 0; i < symmetric.size(); i += step) {
    const auto& [p, dist] = symmetric[i];
    for (int prune : {0, 2}) {
      SolveRequest r = request(d, ms, p, "idastar", prune);
      r.pdb_budget = std::uint64_t{1} << 16;
      search::Limits lim;
      lim.max_cost = dist + 1;  // a wrong prune: no solution, not a long search
      const auto res = solve(r, lim);
      ASSERT_TRUE(res.path.found) << i;
      verify(d, ms, p, d.solved, res.path.moves);
      ASSERT_EQ(res.path.moves.size(), static_cast<std::size_t>(dist)) << i << " prune " << prune;
      std::string h;
      for (const auto& x : res.heuristics) h += x + "\n";
      EXPECT_NE(h.find("a symmetric start: "), std::string::npos) << h;
    }
  }
  // The 3x3x3: the checkerboard (6), six spots (8), and two of a few moves.
  const Definition c = load_definition("3x3x3");
  const MoveSet cm = build_moves(c, "htm", "");
  const std::vector<std::pair<std::string, std::size_t>> known = {
      {"U2 D2 F2 B2 L2 R2", 6}, {"U D' R L' F B' U D'", 8}, {"U D'", 2}, {"U2 D2 R2 L2", 4}};
  for (const auto& [moves, length] : known) {
    Position p = c.solved;
    for (int m : parse_sequence(c, cm, moves, "test")) p = c.applied(cm.gens[static_cast<std::size_t>(m)].p, p);
    SolveRequest r = request(c, cm, p, "idastar", 0);
    r.pdb_budget = std::uint64_t{1} << 20;
    const auto res = solve(r, search::Limits{});
    ASSERT_TRUE(res.path.found) << moves;
    verify(c, cm, p, c.solved, res.path.moves);
    EXPECT_EQ(res.path.moves.size(), length) << moves;
    std::string h;
    for (const auto& x : res.heuristics) h += x + "\n";
    EXPECT_NE(h.find("a symmetric start: "), std::string::npos) << moves << "\n" << h;
  }
}

TEST(PermSolve, SymmetriesBeyondTheGroupLimitLeaveTheSearchAsItWas) {
  // A companion file whose symmetries generate more elements than a group may have (all 720
  // permutations of 6 pieces, every transposition a move): a solve without cached tables
  // uses no symmetry and solves, as it did before symmetric starts were looked for.
  const auto dir = std::filesystem::temp_directory_path() / ("tansaku-sym-limit-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string tws = "Name toy\n\nSet P 6 1\n\nSolved\nP\n1 2 3 4 5 6\nEnd\n";
  int k = 0;
  for (int a = 0; a < 6; ++a)
    for (int b = a + 1; b < 6; ++b) {
      std::vector<int> v = {1, 2, 3, 4, 5, 6};
      std::swap(v[static_cast<std::size_t>(a)], v[static_cast<std::size_t>(b)]);
      tws += "\nMove T" + std::string(1, static_cast<char>('A' + k++)) + "\nP\n";
      for (int x : v) tws += std::to_string(x) + " ";
      tws += "\nEnd\n";
    }
  std::ofstream(dir / "toy.tws") << tws;
  std::ofstream(dir / "toy.sym") << "Symmetry A\nP\n2 1 3 4 5 6\nEnd\n\nSymmetry B\nP\n2 3 4 5 6 1\nEnd\n";
  const Definition d = load_definition((dir / "toy.tws").string());
  const MoveSet ms = build_moves(d, "htm", "");
  EXPECT_THROW((void)symmetry_group(d, ms, d.solved), InputError);
  Position p = d.solved;
  for (int m : parse_sequence(d, ms, "TA TB", "test")) p = d.applied(ms.gens[static_cast<std::size_t>(m)].p, p);
  const auto res = solve(request(d, ms, p, "idastar", 0), search::Limits{});
  ASSERT_TRUE(res.path.found);
  verify(d, ms, p, d.solved, res.path.moves);
  EXPECT_EQ(res.path.moves.size(), 2u);
  std::filesystem::remove_all(dir);
}
