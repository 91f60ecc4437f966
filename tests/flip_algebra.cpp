// Unit tests of the flip family's algebra: rules and grids, the bit-parallel verifier
// against a naive one, light chasing against dense elimination, the coset minimum against
// brute force, and the Lights Out nullities of OEIS A159257.
#include <gtest/gtest.h>

#include <random>

#include "flip/board.h"
#include "flip/linear.h"
#include "flip/minimize.h"
#include "flip/verify.h"
#include "tansaku/core/error.h"

using namespace tansaku;
using namespace tansaku::flip;

namespace {

Board make(int r, int c, const std::string& rule, bool torus = false) { return Board(r, c, torus, parse_rule(rule)); }

Bits naive_effect(const Board& b, const Bits& x) {
  Bits out(x.size());
  for (std::int64_t p = 0; p < b.cells(); ++p)
    if (x.get(static_cast<std::size_t>(p))) b.for_each_toggled(p, [&](std::int64_t q) { out.flip(static_cast<std::size_t>(q)); });
  return out;
}

Bits random_bits(std::size_t n, std::mt19937_64& rng) {
  Bits x(n);
  for (std::size_t i = 0; i < n; ++i) x.set(i, rng() & 1);
  return x;
}

Rule random_rule(std::mt19937_64& rng) {
  for (;;) {
    std::string m;
    for (int i = 0; i < 9; ++i) m += (rng() & 1) ? '1' : '0';
    if (m != "000000000") return parse_rule(m);
  }
}

// Rank of a set of vectors over GF(2).
std::size_t rank_of(std::vector<Bits> v) {
  std::size_t r = 0;
  if (v.empty()) return 0;
  const std::size_t n = v[0].size();
  for (std::size_t col = 0; col < n && r < v.size(); ++col) {
    std::size_t piv = r;
    while (piv < v.size() && !v[piv].get(col)) ++piv;
    if (piv == v.size()) continue;
    std::swap(v[r], v[piv]);
    for (std::size_t i = 0; i < v.size(); ++i)
      if (i != r && v[i].get(col)) v[i] ^= v[r];
    ++r;
  }
  return r;
}

std::int64_t brute_min(const Bits& x0, const std::vector<Bits>& kernel, std::uint64_t* count) {
  std::int64_t best = 1 << 30;
  *count = 0;
  for (std::uint64_t c = 0; c < (std::uint64_t{1} << kernel.size()); ++c) {
    Bits y = x0;
    for (std::size_t i = 0; i < kernel.size(); ++i)
      if ((c >> i) & 1) y ^= kernel[i];
    const auto w = static_cast<std::int64_t>(y.count());
    if (w < best) best = w, *count = 0;
    if (w == best) ++*count;
  }
  return best;
}

}  // namespace

TEST(FlipRule, NamedAndMasks) {
  EXPECT_EQ(parse_rule(std::nullopt).mask_text(), "111/101/111");
  EXPECT_EQ(parse_rule("eight").name, "eight");
  EXPECT_EQ(parse_rule("lights-out").mask_text(), "010/111/010");
  EXPECT_EQ(parse_rule("010 111 010").name, "lights-out");
  EXPECT_EQ(parse_rule("110011000").mask_text(), "110/011/000");
  EXPECT_FALSE(parse_rule("110011000").point_symmetric());
  EXPECT_EQ(parse_rule("110011000").reflected().mask_text(), "000/110/011");
  EXPECT_THROW(parse_rule("11/101/111"), InputError);
  EXPECT_THROW(parse_rule("1111/101/111"), InputError);
  EXPECT_THROW(parse_rule("11110111"), InputError);
  EXPECT_THROW(parse_rule("111/121/111"), InputError);
  EXPECT_THROW(parse_rule("000/000/000"), InputError);
  EXPECT_THROW(parse_rule("knight"), InputError);
}

TEST(FlipBoard, GridForms) {
  Board b = make(2, 3, "eight");
  Bits x = b.parse_grid("101/011", "start");
  EXPECT_EQ(b.format_grid(x), "101/011");
  EXPECT_EQ(b.format_grid(b.parse_grid("101011", "start")), "101/011");
  EXPECT_EQ(b.format_grid(b.parse_grid("1 0 1 0 1 1", "start")), "101/011");
  EXPECT_EQ(b.format_grid(b.parse_grid("101, 011\n", "start")), "101/011");
  EXPECT_THROW(b.parse_grid("101/01", "start"), InputError);
  EXPECT_THROW(b.parse_grid("1010111", "start"), InputError);
  EXPECT_THROW(b.parse_grid("10/10/11", "start"), InputError);
  EXPECT_THROW(b.parse_grid("102/011", "start"), InputError);
  EXPECT_THROW(b.parse_grid("1x1011", "start"), InputError);
}

TEST(FlipBoard, SeedPressPattern) {
  // Seed 000: pressing button 5 of the 4x4 board toggles 0 1 2 4 6 8 9 10.
  Board b = make(4, 4, "eight");
  std::vector<std::int64_t> t;
  b.for_each_toggled(5, [&](std::int64_t q) { t.push_back(q); });
  std::sort(t.begin(), t.end());
  EXPECT_EQ(t, (std::vector<std::int64_t>{0, 1, 2, 4, 6, 8, 9, 10}));
}

TEST(FlipVerify, BitParallelMatchesNaive) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const int R = 1 + static_cast<int>(rng() % 9), C = 1 + static_cast<int>(rng() % 70);
    const bool torus = rng() & 1;
    Board b(R, C, torus, random_rule(rng));
    Bits x = random_bits(static_cast<std::size_t>(b.cells()), rng);
    ASSERT_EQ(effect(b, x), naive_effect(b, x)) << R << "x" << C << " torus " << torus << " " << b.rule().mask_text();
  }
}

TEST(FlipLinear, ChaseAgreesWithDense) {
  std::mt19937_64 rng(11);
  int unsolvable = 0, with_kernel = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int R = 1 + static_cast<int>(rng() % 8), C = 1 + static_cast<int>(rng() % 8);
    const bool torus = rng() % 3 == 0;
    const Rule rule = trial % 3 == 0 ? parse_rule("eight") : trial % 3 == 1 ? parse_rule("lights-out") : random_rule(rng);
    Board b(R, C, torus, rule);
    const auto n = static_cast<std::size_t>(b.cells());
    Bits rhs = random_bits(n, rng);
    LinearOptions lo;
    LinearResult d = solve_dense(b, rhs, lo), c = solve_chase(b, rhs, lo);
    SCOPED_TRACE(testing::Message() << R << "x" << C << " torus " << torus << " " << rule.mask_text());
    ASSERT_EQ(d.rank, c.rank);
    ASSERT_EQ(d.nullity, c.nullity);
    ASSERT_EQ(d.solvable, c.solvable);
    ASSERT_EQ(static_cast<std::int64_t>(c.kernel.size()), c.nullity);
    ASSERT_EQ(rank_of(c.kernel), c.kernel.size());  // a basis
    for (const auto& k : c.kernel) ASSERT_TRUE(effect(b, k).none());
    if (c.nullity) ++with_kernel;
    if (!c.solvable) {
      ++unsolvable;
      continue;
    }
    ASSERT_EQ(effect(b, c.particular), rhs);
    ASSERT_EQ(effect(b, d.particular), rhs);
    if (c.nullity <= 12) {
      auto mc = minimize(c.particular, c.kernel, {}), md = minimize(d.particular, d.kernel, {});
      ASSERT_TRUE(mc.exact);
      ASSERT_EQ(mc.weight, md.weight);
      ASSERT_EQ(mc.count, md.count);
      ASSERT_EQ(mc.best, md.best);  // lexicographically first minimum, whatever the basis
    }
  }
  EXPECT_GT(unsolvable, 20);
  EXPECT_GT(with_kernel, 50);
}

TEST(FlipLinear, SeedFourByFour) {
  Board b = make(4, 4, "eight");
  Bits on(16);
  on.fill(true);
  LinearResult c = solve_chase(b, on, {});
  EXPECT_TRUE(c.solvable);
  EXPECT_EQ(c.rank, 12);
  EXPECT_EQ(c.nullity, 4);
  MinimizeOptions mo;
  mo.want_all = true;
  auto m = minimize(c.particular, c.kernel, mo);
  EXPECT_TRUE(m.exact);
  EXPECT_EQ(m.weight, 6);
  ASSERT_EQ(m.count, 4u);
  std::vector<std::vector<std::int64_t>> sols;
  for (const auto& s : m.all) sols.push_back(s.ones());
  EXPECT_EQ(sols, (std::vector<std::vector<std::int64_t>>{
                      {0, 2, 5, 9, 12, 14}, {0, 3, 5, 6, 8, 11}, {1, 3, 6, 10, 13, 15}, {4, 7, 9, 10, 12, 15}}));
  EXPECT_EQ(m.examined, 16u);
}

TEST(FlipLinear, LightsOutNullityA159257) {
  const int expected[30] = {0, 0, 0, 4, 2, 0, 0, 0, 8, 0, 6, 0, 0, 4, 0, 8, 2, 0, 16, 0, 0, 0, 14, 4, 0, 0, 0, 0, 10, 20};
  LinearOptions lo;
  lo.want_kernel = false;
  for (int n = 1; n <= 30; ++n) {
    Board b = make(n, n, "lights-out");
    EXPECT_EQ(solve_chase(b, Bits(static_cast<std::size_t>(n * n)), lo).nullity, expected[n - 1]) << n;
    if (n <= 12) {
      EXPECT_EQ(solve_dense(b, Bits(static_cast<std::size_t>(n * n)), lo).nullity, expected[n - 1]) << n;
    }
  }
}

TEST(FlipLinear, EightFlipScansTheDiagonal) {
  // The 8-flip needs the first row and column free (R + C - 1), never a singular row step,
  // including widths = 2 mod 3 where the row-by-row chase is singular.
  for (int c : {5, 8, 11, 14}) {
    Board b = make(7, c, "eight");
    LinearResult r = solve_chase(b, Bits(static_cast<std::size_t>(7 * c)), {});
    EXPECT_EQ(r.unknowns, 7 + c - 1);
    EXPECT_EQ(r.nullity, solve_dense(b, Bits(static_cast<std::size_t>(7 * c)), {}).nullity);
  }
  Board lo = make(9, 30, "lights-out");
  EXPECT_EQ(solve_chase(lo, Bits(270), {}).unknowns, 9);  // chased along the short side
}

TEST(FlipMinimize, WalshHadamardAndBruteForce) {
  std::vector<std::int32_t> a = {1, 0, 1, 0, 0, 1, 1, 0};
  std::vector<std::int32_t> naive(8, 0);
  for (int c = 0; c < 8; ++c)
    for (int s = 0; s < 8; ++s) naive[c] += a[s] * ((std::popcount(static_cast<unsigned>(c & s)) & 1) ? -1 : 1);
  walsh_hadamard(a.data(), 3);
  EXPECT_EQ(a, naive);
  // Beyond the in-cache block the levels go two at a time: check against plain butterflies.
  std::mt19937_64 g(9);
  for (int k : {14, 15, 16, 17, 18}) {
    std::vector<std::int32_t> x(std::size_t{1} << k), ref;
    for (auto& v : x) v = static_cast<std::int32_t>(g() % 7) - 3;
    ref = x;
    for (std::size_t h = 1; h < ref.size(); h <<= 1)
      for (std::size_t i = 0; i < ref.size(); i += 2 * h)
        for (std::size_t j = i; j < i + h; ++j) {
          const auto u = ref[j], v = ref[j + h];
          ref[j] = u + v, ref[j + h] = u - v;
        }
    walsh_hadamard(x.data(), k);
    ASSERT_EQ(x, ref) << k;
  }

  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t n = 5 + rng() % 300;
    const int k = static_cast<int>(rng() % 11);
    Bits x0 = random_bits(n, rng);
    std::vector<Bits> kernel;
    for (int i = 0; i < k; ++i) kernel.push_back(random_bits(n, rng));
    std::uint64_t count = 0;
    const auto best = brute_min(x0, kernel, &count);
    auto m = minimize(x0, kernel, {});
    ASSERT_TRUE(m.exact);
    ASSERT_EQ(m.weight, best);
    ASSERT_EQ(m.count, count);
    ASSERT_EQ(static_cast<std::int64_t>(m.best.count()), best);
    // The local search never beats the exact minimum and never gets worse than x0.
    MinimizeOptions lo;
    lo.exact_limit = 2;
    auto h = minimize(x0, kernel, lo);
    ASSERT_GE(h.weight, best);
    ASSERT_LE(h.weight, static_cast<std::int64_t>(x0.count()));
    if (k > 2) {
      ASSERT_FALSE(h.exact);
    }
  }
}

TEST(FlipMinimize, RefusesAllBeyondExactReach) {
  std::mt19937_64 rng(5);
  std::vector<Bits> kernel;
  for (int i = 0; i < 6; ++i) kernel.push_back(random_bits(64, rng));
  MinimizeOptions mo;
  mo.exact_limit = 4;
  mo.want_all = true;
  EXPECT_THROW(minimize(random_bits(64, rng), kernel, mo), LimitError);
}
