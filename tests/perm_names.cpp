// The promises of a loaded permutation-puzzle definition over many random definitions (the
// generator of fuzz/fuzz_perm_generated.cpp, fed by a seeded generator): every move name,
// powers included, is written one way and read back as itself, and the pieces of each set are
// numbered 1..k (issue 37). Definitions that break a rule must be refused as bad input.
#include <gtest/gtest.h>

#include "../fuzz/tws_generator.h"
#include "tansaku/core/random.h"

namespace {

using namespace tansaku;

TEST(PermNames, RandomDefinitionsKeepTheirPromises) {
  int loaded = 0, refused = 0;
  for (std::uint64_t seed = 1; seed <= 20000; ++seed) {
    SplitMix64 rng{seed};
    std::vector<std::uint8_t> bytes(96);
    for (auto& x : bytes) x = static_cast<std::uint8_t>(rng.next());
    fuzz::ByteSource src{bytes.data(), bytes.size()};
    const std::string text = fuzz::generate_tws(src);
    perm::Definition d;
    try {
      d = perm::parse_definition(text, "gen.tws");
    } catch (const InputError&) {
      ++refused;
      continue;
    }
    ++loaded;
    const std::string broken = fuzz::broken_promise(d);
    ASSERT_EQ(broken, "") << "seed " << seed << ":\n" << text;
  }
  // The walk covers both sides: definitions that load and definitions refused.
  EXPECT_GT(loaded, 1000);
  EXPECT_GT(refused, 1000);
}

// The defects themselves, at the parser: R2 beside R, and a gap in the piece numbers.
TEST(PermNames, CollisionsAndGapsRefused) {
  const std::string head = "Set P 4 1\nSolved\nP\n1 2 3 4\nEnd\nMove R\nP\n2 3 4 1\nEnd\n";
  EXPECT_THROW(perm::parse_definition(head + "Move R2\nP\n2 1 3 4\nEnd\n", "x.tws"), InputError);
  EXPECT_THROW(perm::parse_definition(head + "Move R'\nP\n2 1 3 4\nEnd\n", "x.tws"), InputError);
  EXPECT_NO_THROW(perm::parse_definition(head + "Move S\nP\n2 1 3 4\nEnd\n", "x.tws"));
  EXPECT_THROW(perm::parse_definition("Set P 3 1\nSolved\nP\n1 3 3\nEnd\nMove M\nP\n2 1 3\nEnd\n", "x.tws"),
               InputError);
  EXPECT_NO_THROW(perm::parse_definition("Set P 3 1\nSolved\nP\n1 2 2\nEnd\nMove M\nP\n2 1 3\nEnd\n", "x.tws"));
}

}  // namespace
