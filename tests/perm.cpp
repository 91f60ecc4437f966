// perm: definitions, the ranked space, explore counts against published values and an
// independent breadth-first search written here.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <queue>
#include <set>
#include <unordered_map>

#include "perm/definition.h"
#include "perm/generators.h"
#include "perm/notation.h"
#include "perm/ranked_domain.h"
#include "perm/space.h"
#include "tansaku/core/error.h"
#include "tansaku/search/explore.h"
#include "tansaku/search/explore_path.h"

using namespace tansaku;
using namespace tansaku::perm;

namespace {

search::ExploreResult explore_def(const Definition& d, const std::string& metric, const std::string& moves,
                                  std::size_t keep = 20, unsigned threads = 2) {
  MoveSet ms = build_moves(d, metric, moves);
  Space sp(d, ms, d.solved, std::uint64_t{1} << 30, threads);
  RankedDomain dom(d, ms, sp);
  const std::uint64_t r0 = sp.rank(d.solved);
  search::Limits lim;
  lim.threads = threads;
  return search::explore(dom, std::span<const std::uint64_t>(&r0, 1), keep, lim);
}

}  // namespace

TEST(PermExplore, Cube2x2x2UFRHtm) {  // labels: tsan
  auto res = explore_def(load_definition("2x2x2"), "htm", "U,F,R");
  EXPECT_EQ(res.states, 3674160u);
  EXPECT_EQ(res.depth, 11);
}

TEST(PermExplore, Cube2x2x2UFRQtm) {
  auto res = explore_def(load_definition("2x2x2"), "qtm", "U,F,R");
  EXPECT_EQ(res.states, 3674160u);
  EXPECT_EQ(res.depth, 14);
}

TEST(PermExplore, RotatingSlide) {  // labels: tsan
  auto res = explore_def(load_definition("rotating-slide"), "htm", "");
  EXPECT_EQ(res.states, 181440u);
  EXPECT_EQ(res.depth, 12);
  EXPECT_EQ(res.farthest_count, 13u);
}

TEST(PermExplore, PyraminxAndSkewb) {
  auto p = explore_def(load_definition("pyraminx"), "htm", "");
  EXPECT_EQ(p.states, 933120u);  // 6!/2 * 2^5 * 3^4, pyraminx without tips
  EXPECT_EQ(p.depth, 11);
  auto s = explore_def(load_definition("skewb"), "htm", "ULB,UBR,UFL,DBL");
  EXPECT_EQ(s.states, 3149280u);  // the skewb with one corner fixed
  EXPECT_EQ(s.depth, 11);
}

namespace {

// An independent breadth-first search over positions (a std::map of the position bytes),
// applying the moves exactly as the file defines them (no ranking, no tables).
std::vector<std::uint64_t> brute_histogram(const Definition& d, const std::vector<Perm>& gens) {
  std::unordered_map<std::string, int> seen;
  auto key = [&](const Position& p) {
    std::string k;
    for (int i = 0; i < d.positions; ++i) k += static_cast<char>(p.lab[static_cast<std::size_t>(i)]), k += static_cast<char>(p.ori[static_cast<std::size_t>(i)]);
    return k;
  };
  std::vector<Position> layer{d.solved};
  seen[key(d.solved)] = 0;
  std::vector<std::uint64_t> hist;
  while (!layer.empty()) {
    hist.push_back(layer.size());
    std::vector<Position> next;
    for (const auto& p : layer)
      for (const auto& g : gens) {
        Position q;
        for (int i = 0; i < d.positions; ++i) {
          const int from = g.perm[static_cast<std::size_t>(i)];
          q.lab[static_cast<std::size_t>(i)] = p.lab[static_cast<std::size_t>(from)];
          q.ori[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(
              (p.ori[static_cast<std::size_t>(from)] + g.twist[static_cast<std::size_t>(i)]) % d.omod[static_cast<std::size_t>(i)]);
        }
        if (seen.emplace(key(q), static_cast<int>(hist.size())).second) next.push_back(q);
      }
    layer.swap(next);
  }
  return hist;
}

// Every power of every base move, computed here by repeated application.
std::vector<Perm> all_powers(const Definition& d, bool quarter) {
  std::vector<Perm> out;
  for (const auto& m : d.moves) {
    std::vector<Perm> pw{m.p};
    while (!(pw.back() == d.identity())) pw.push_back(d.compose(pw.back(), m.p));
    const int order = static_cast<int>(pw.size());
    for (int k = 1; k < order; ++k)
      if (!quarter || k == 1 || k == order - 1) out.push_back(pw[static_cast<std::size_t>(k - 1)]);
  }
  return out;
}

const char* kSmall = R"(# a small puzzle: two sets, identical pieces, orientations
Name small
Set A 5 1
Set B 4 3
Solved
A
1 1 2 2 3
B
1 2 3 4
0 0 0 0
End
Move X
A
2 3 1 4 5
B
2 1 3 4
1 2 0 0
End
Move Y
A
1 2 4 5 3
B
1 3 4 2
0 1 1 1
End
)";

// Two sets whose parities the moves tie together (X is odd on both, Y even on both).
const char* kTied = R"(Name tied
Set A 5 1
Set B 4 2
Solved
A
1 2 3 4 5
B
1 2 3 4
End
Move X
A
2 1 3 4 5
B
2 1 3 4
1 0 0 0
End
Move Y
A
1 3 4 5 2
B
1 3 4 2
End
)";

// Orientation sums tied across two orbits: X and Y turn A by +1 and B by +2 in total, so
// only the sum over both is kept (27 of the 81 orientation combinations); C's parity is
// tied to A's and B's.
const char* kOriTie = R"(Name oritie
Set A 2 3
Set B 2 3
Set C 5 1
Solved
A
1 2
B
1 2
C
1 2 3 4 5
End
Move X
A
2 1
1 0
B
1 2
2 0
C
2 1 3 4 5
End
Move Y
A
1 2
0 1
B
2 1
0 2
C
1 3 4 5 2
End
)";

// Distance of every position reachable from d.solved (position bytes as the key).
std::map<std::string, int> brute_distances(const Definition& d, const std::vector<Perm>& gens) {
  auto key = [&](const Position& p) {
    std::string k;
    for (int i = 0; i < d.positions; ++i) k += static_cast<char>(p.lab[static_cast<std::size_t>(i)]), k += static_cast<char>(p.ori[static_cast<std::size_t>(i)]);
    return k;
  };
  std::map<std::string, int> dist{{key(d.solved), 0}};
  std::vector<Position> layer{d.solved};
  for (int k = 1; !layer.empty(); ++k) {
    std::vector<Position> next;
    for (const auto& p : layer)
      for (const auto& g : gens) {
        const Position q = d.applied(g, p);
        if (dist.emplace(key(q), k).second) next.push_back(q);
      }
    layer.swap(next);
  }
  return dist;
}

}  // namespace

TEST(PermExplore, IndependentBfsOnSmallDefinitions) {
  for (const char* text : {kSmall, kTied, kOriTie}) {
    const Definition d = parse_definition(text, "small.tws");
    for (const char* metric : {"htm", "qtm"}) {
      auto res = explore_def(d, metric, "");
      EXPECT_EQ(res.histogram, brute_histogram(d, all_powers(d, std::string(metric) == "qtm"))) << metric;
    }
  }
  const Definition rs = load_definition("rotating-slide");
  EXPECT_EQ(explore_def(rs, "htm", "").histogram, brute_histogram(rs, all_powers(rs, false)));
}

TEST(PermSpace, RankUnrankRoundTrip) {
  for (const char* text : {kSmall, kTied, kOriTie}) {
  const Definition d = parse_definition(text, "small.tws");
  MoveSet ms = build_moves(d, "htm", "");
  Space sp(d, ms, d.solved, 1 << 20);
  std::set<std::uint64_t> ranks;
  for (std::uint64_t r = 0; r < sp.size(); ++r) {
    const Position p = sp.unrank(r);
    ASSERT_EQ(sp.rank(p), r);
    ASSERT_TRUE(sp.contains(p));
    // Table neighbours agree with applying the move.
    sp.for_each_move_rank(r, [&](int m, std::uint64_t t) {
      ASSERT_EQ(t, sp.rank(d.applied(ms.gens[static_cast<std::size_t>(m)].p, p)));
    });
  }
  }
}

TEST(PermSpace, TiedCoordinatesAreMergedIntoTheReachableSet) {
  // The small definition: the space is exactly the reachable set; batch paths agree with
  // the one-rank path.
  const Definition d = parse_definition(kOriTie, "oritie.tws");
  MoveSet ms = build_moves(d, "htm", "");
  Space sp(d, ms, d.solved, 1 << 20);
  std::uint64_t reachable = 0;
  for (auto c : brute_histogram(d, all_powers(d, false))) reachable += c;
  EXPECT_EQ(sp.size(), reachable);
  EXPECT_EQ(sp.size(), 6480u);
  bool merged = false;
  for (const auto& line : sp.describe()) merged = merged || line.find("27 combinations reachable together (of 81") != std::string::npos;
  EXPECT_TRUE(merged);
  for (std::uint64_t lo = 0; lo < sp.size(); lo += 61) {  // batches of ascending, unequal-block ranks
    std::vector<std::uint64_t> r;
    for (std::uint64_t x = lo; x < std::min(sp.size(), lo + 61); x += 1 + x % 3) r.push_back(x);
    std::vector<std::uint64_t> one, batch;
    for (auto x : r) sp.for_each_neighbor_rank(x, [&](std::uint64_t t) { one.push_back(t); });
    const auto [calls, trues] = sp.for_each_neighbor_rank_batch(
        r.data(), r.size(), [&](std::uint64_t t) { return batch.push_back(t), t % 2 == 0; }, [](std::uint64_t, std::uint64_t) {});
    EXPECT_EQ(calls, one.size());
    EXPECT_EQ(trues, static_cast<std::uint64_t>(std::count_if(one.begin(), one.end(), [](auto t) { return t % 2 == 0; })));
    std::sort(one.begin(), one.end());
    std::sort(batch.begin(), batch.end());
    ASSERT_EQ(one, batch);
    // any: a neighbour below lo + 100, tested in move order up to the first.
    std::uint64_t want = 0, tested = 0;
    for (std::size_t i = 0; i < r.size(); ++i) {
      bool hit = false;
      sp.for_each_neighbor_rank(r[i], [&](std::uint64_t t) {
        if (!hit) ++tested, hit = t < lo + 100;
      });
      if (hit) want |= std::uint64_t{1} << i;
    }
    const auto [calls2, found] = sp.any_neighbor_rank_batch(
        r.data(), r.size(), [&](std::uint64_t t) { return t < lo + 100; }, [](std::uint64_t, std::uint64_t) {});
    EXPECT_EQ(found, want);
    EXPECT_EQ(calls2, tested);
  }
  // The skewb with a corner fixed: orientation sums and the corner orbits' 3-cycles are tied
  // mod 3 (8,748 of 78,732 combinations): the space is exactly the 3,149,280 positions.
  for (const auto& [name, moves] : {std::pair<std::string, std::string>{"skewb-fixed", ""}, {"skewb", "ULB,UBR,UFL,DBL"}}) {
    const Definition sk = load_definition(name);
    MoveSet skm = build_moves(sk, "htm", moves);
    Space s2(sk, skm, sk.solved, std::uint64_t{1} << 26);
    EXPECT_EQ(s2.size(), 3149280u) << name;
    for (std::uint64_t r = 0; r < s2.size(); r += 4999) {
      const Position p = s2.unrank(r);
      ASSERT_EQ(s2.rank(p), r);
      ASSERT_TRUE(s2.contains(p));
      s2.for_each_move_rank(r, [&](int m, std::uint64_t t) {
        ASSERT_EQ(t, s2.rank(sk.applied(skm.gens[static_cast<std::size_t>(m)].p, p)));
      });
    }
    Position twisted = sk.solved;  // one corner turned: outside the reachable set
    twisted.ori[0] = 1;
    EXPECT_FALSE(s2.contains(twisted)) << name;
  }
}

TEST(PermSpace, WithoutMoveTablesTheSameSpace) {
  // A Space given no room for move tables (a whole pattern's domain for a search) ranks as
  // the tabled one and steps every coordinate, the merged corner group included (its
  // values found by select in the reachable combinations), to the same neighbours.
  for (const auto& [name, moves] : {std::pair<std::string, std::string>{"skewb-fixed", ""}, {"skewb", ""}}) {
    const Definition sk = load_definition(name);
    MoveSet skm = build_moves(sk, "htm", moves);
    Space tabled(sk, skm, sk.solved, std::uint64_t{1} << 28), bare(sk, skm, sk.solved, 0);
    ASSERT_EQ(bare.size(), tabled.size()) << name;
    EXPECT_EQ(bare.size(), name == "skewb" ? 37791360u : 3149280u);
    EXPECT_EQ(bare.table_bytes() < 200000, true) << bare.table_bytes();  // the reachable set's bits only
    EXPECT_EQ(bare.describe(), tabled.describe());
    for (std::uint64_t r = 0; r < bare.size(); r += 7919) {
      const Position p = tabled.unrank(r);
      ASSERT_EQ(bare.unrank(r), p);
      ASSERT_EQ(bare.rank(p), r);
      std::vector<std::uint64_t> a, b;
      tabled.for_each_move_rank(r, [&](int, std::uint64_t t) { a.push_back(t); });
      bare.for_each_move_rank(r, [&](int m, std::uint64_t t) {
        b.push_back(t);
        ASSERT_EQ(t, tabled.rank(sk.applied(skm.gens[static_cast<std::size_t>(m)].p, p)));
      });
      ASSERT_EQ(a, b);
    }
  }
}

TEST(PermSpace, CombinationsRankAndSelect) {
  Combinations c(1000);
  std::vector<std::uint64_t> members;
  for (std::uint64_t x = 3; x < 1000; x += 1 + x % 7) {
    members.push_back(x);
    EXPECT_TRUE(c.insert(x));
  }
  EXPECT_FALSE(c.insert(members[5]));
  c.index();
  ASSERT_EQ(c.count, members.size());
  for (std::uint64_t i = 0; i < members.size(); ++i) {
    EXPECT_EQ(c.index_of(members[i]), i);
    EXPECT_EQ(c.select(i), members[i]);
  }
  EXPECT_EQ(c.index_of(4), ~0u);
  std::vector<std::uint64_t> seen;
  c.for_each([&](std::uint64_t x) { seen.push_back(x); });
  EXPECT_EQ(seen, members);
}

TEST(PermExplore, OneAndTwoThreadsAgree) {  // labels: tsan
  for (const auto& [name, moves] : {std::pair<std::string, std::string>{"2x2x2", "U,F,R"}, {"skewb-fixed", ""}, {"pyraminx", ""}}) {
    const Definition d = load_definition(name);
    auto a = explore_def(d, "htm", moves, 50, 1);
    auto b = explore_def(d, "htm", moves, 50, 2);
    EXPECT_EQ(a.histogram, b.histogram) << name;
    EXPECT_EQ(a.farthest, b.farthest) << name;
    EXPECT_EQ(a.stats.expanded, b.stats.expanded) << name;
  }
  EXPECT_EQ(explore_def(load_definition("skewb-fixed"), "htm", "", 0, 1).farthest_count, 90u);
}

TEST(PermExplore, DistancesMod3GiveShortestPaths) {
  for (const char* text : {kOriTie, kSmall}) {
    const Definition d = parse_definition(text, "small.tws");
    for (unsigned threads : {1u, 2u}) {
      MoveSet ms = build_moves(d, "htm", "");
      Space sp(d, ms, d.solved, 1 << 20);
      RankedDomain dom(d, ms, sp);
      const std::uint64_t r0 = sp.rank(d.solved);
      search::Limits lim;
      lim.threads = threads;
      auto res = search::explore(dom, std::span<const std::uint64_t>(&r0, 1), 5, lim, true);
      ASSERT_TRUE(res.distances);
      const auto dist = brute_distances(d, all_powers(d, false));
      std::size_t seen = 0;
      for (std::uint64_t r = 0; r < sp.size(); ++r) {
        const Position p = sp.unrank(r);
        std::string k;
        for (int i = 0; i < d.positions; ++i) k += static_cast<char>(p.lab[static_cast<std::size_t>(i)]), k += static_cast<char>(p.ori[static_cast<std::size_t>(i)]);
        const auto it = dist.find(k);
        if (it == dist.end()) {
          EXPECT_EQ(res.distances->get(r), 3u);  // not reached
          continue;
        }
        ++seen;
        ASSERT_EQ(res.distances->get(r), static_cast<unsigned>(it->second % 3));
        // The walk back reaches the source in exactly that many moves.
        const auto path = search::path_to_source(dom, *res.distances, r, it->second);
        ASSERT_EQ(path.size(), static_cast<std::size_t>(it->second));
        Position q = p;
        for (int m : path) q = d.applied(ms.gens[static_cast<std::size_t>(m)].p, q);
        ASSERT_TRUE(q == d.solved);
      }
      EXPECT_EQ(seen, dist.size());
    }
  }
}

TEST(PermDefinition, MovePowersAndNames) {
  const Definition d = load_definition("2x2x2");
  MoveSet htm = build_moves(d, "htm", "U,F,R");
  ASSERT_EQ(htm.gens.size(), 9u);
  EXPECT_EQ(format_sequence(htm, {0, 1, 2}), "U U2 U'");
  MoveSet qtm = build_moves(d, "qtm", "");
  EXPECT_EQ(qtm.gens.size(), 12u);
  EXPECT_EQ(power_name("R", 2, 5), "R2");
  EXPECT_EQ(power_name("R", 3, 5), "R2'");
  EXPECT_EQ(power_name("T", 1, 2), "T");
  EXPECT_THROW(build_moves(d, "htm", "U,X"), InputError);
  EXPECT_THROW(build_moves(d, "ftm", ""), InputError);
}

TEST(PermDefinition, BadInputNamesFileAndLine) {
  auto error_of = [](const std::string& text) {
    try {
      parse_definition(text, "bad.tws");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string head = "Name t\nSet A 3 2\nSolved\nA\n1 2 3\nEnd\n";
  EXPECT_EQ(error_of(head + "Move M\nB\n1 2 3\nEnd\n"), "bad.tws:8: unknown set 'B'");
  EXPECT_EQ(error_of(head + "Move M\nA\n1 2\nEnd\n"), "bad.tws:9: set 'A' has 3 pieces but the row has 2 numbers");
  EXPECT_EQ(error_of(head + "Move M\nA\n1 1 3\nEnd\n"), "bad.tws:9: the row of set 'A' is not a permutation (1 occurs twice)");
  EXPECT_EQ(error_of(head + "Move M\nA\n2 1 3\n0 2 0\nEnd\n"),
            "bad.tws:10: an orientation of set 'A': 2 is out of range 0..1");
  EXPECT_EQ(error_of(head + "Move M\nA\n2 1 3\nEnd\nMoveSequence S M X\n"),
            "bad.tws:11: MoveSequence S: 'X' is not a move");
  EXPECT_EQ(error_of(head + "Move M\nA\n2 1 3\nEnd\nIllegal A 4 2\n"),
            "bad.tws:11: a position of set 'A': 4 is out of range 1..3");
  EXPECT_EQ(error_of(head + "Move M\nA\n2 1 3\nEnd\nScrambleState S\n"),
            "bad.tws:11: the 'ScrambleState' section is not supported");
  EXPECT_EQ(error_of("Name t\nSet A 3 2\nSolved\nA\n1 ? 3\nEnd\n"), "bad.tws:5: '?' (orientation wildcards) is not supported");
  EXPECT_EQ(error_of(head + "Move M\nA\n2 1 3\n"), "bad.tws:7: the 'Move' block has no 'End'");
  EXPECT_EQ(error_of(head), "bad.tws: no 'Move'");
}

TEST(PermDefinition, KsolveOrientationConvention) {
  // The orientation row of a move is indexed by where the piece comes from: piece 1 (at 1)
  // moves to 2 and turns by 1 when the row says "1 0".
  const Definition d = parse_definition("Name t\nSet A 2 3\nSolved\nA\n1 2\n0 0\nEnd\nMove M\nA\n2 1\n1 0\nEnd\n", "t.tws");
  const Position p = d.applied(d.moves[0].p, d.solved);
  EXPECT_EQ(format_position(d, p), "A 2 1 0 1");
}
