// The distributed explore (search/explore_distributed.h) with ranks simulated by threads, and
// the spilled one (search/explore_spill.h): both give exactly explore()'s result in memory.
#include <barrier>
#include <string>
#include <cstdint>
#include <filesystem>
#include <random>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "tansaku/core/cluster.h"
#include "tansaku/search/claim_bitmaps.h"
#include "tansaku/search/claim_coding.h"
#include "tansaku/search/explore.h"
#include "tansaku/search/explore_path.h"

using namespace tansaku;

namespace {

// A symmetric graph on [0, n): r +- 1 and r +- 17 (mod n), r ^ 8 and r ^ 512 (when < n).
struct Ring {
  using State = std::uint64_t;
  using Move = int;
  std::uint64_t n;
  bool is_goal(State) const { return false; }
  template <class F>
  void for_each_move(State s, F&& f) const {
    f(0, (s + 1) % n), f(1, (s + n - 1) % n), f(2, (s + 17) % n), f(3, (s + n - 17) % n);
    if ((s ^ 8) < n) f(4, s ^ 8);
    if ((s ^ 512) < n) f(5, s ^ 512);
  }
  std::uint64_t size() const { return n; }
  std::uint64_t rank(State s) const { return s; }
  State unrank(std::uint64_t r) const { return r; }
  bool symmetric() const { return true; }
};

// Moves only forward: r -> 3r+1 and r -> r+5 (mod n): not symmetric, some states unreached.
struct OneWay {
  using State = std::uint64_t;
  using Move = int;
  std::uint64_t n;
  bool is_goal(State) const { return false; }
  template <class F>
  void for_each_move(State s, F&& f) const {
    f(0, (3 * s + 1) % n), f(1, (s + 5) % n);
  }
  std::uint64_t size() const { return n; }
  std::uint64_t rank(State s) const { return s; }
  State unrank(std::uint64_t r) const { return r; }
};

// Ranks as threads: each collective waits for all of them at a barrier.
struct Hub {
  explicit Hub(int k)
      : k(k),
        bar(k),
        sums(static_cast<std::size_t>(k)),
        sends(static_cast<std::size_t>(k)),
        counts(static_cast<std::size_t>(k)) {}
  int k;
  std::barrier<> bar;
  std::vector<std::span<std::uint64_t>> sums;
  std::vector<std::span<const std::uint64_t>> sends, counts;
};

class ThreadCluster final : public Cluster {
 public:
  ThreadCluster(Hub& hub, int rank) : hub_(hub), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return hub_.k; }
  void sum(std::span<std::uint64_t> values) override {
    hub_.sums[static_cast<std::size_t>(rank_)] = values;
    hub_.bar.arrive_and_wait();
    std::vector<std::uint64_t> total(values.size(), 0);
    for (auto s : hub_.sums)
      for (std::size_t i = 0; i < s.size(); ++i) total[i] += s[i];
    hub_.bar.arrive_and_wait();
    std::copy(total.begin(), total.end(), values.begin());
  }
  void exchange(std::span<const std::uint64_t> send, std::span<const std::uint64_t> send_counts, std::uint64_t stride,
                std::span<std::uint64_t> recv, std::span<std::uint64_t> recv_counts) override {
    hub_.sends[static_cast<std::size_t>(rank_)] = send;
    hub_.counts[static_cast<std::size_t>(rank_)] = send_counts;
    hub_.bar.arrive_and_wait();
    const auto me = static_cast<std::size_t>(rank_);
    for (std::size_t i = 0; i < static_cast<std::size_t>(hub_.k); ++i) {
      recv_counts[i] = hub_.counts[i][me];
      std::copy_n(hub_.sends[i].begin() + static_cast<std::ptrdiff_t>(me * stride), recv_counts[i],
                  recv.begin() + static_cast<std::ptrdiff_t>(i * stride));
      if (i != me) sent_ += recv_counts[i] * 8;
    }
    hub_.bar.arrive_and_wait();
  }
  std::uint64_t bytes_sent() const override { return sent_; }

 private:
  Hub& hub_;
  int rank_;
  std::uint64_t sent_ = 0;
};

void expect_same(const search::ExploreResult& a, const search::ExploreResult& b) {
  EXPECT_EQ(a.states, b.states);
  EXPECT_EQ(a.depth, b.depth);
  EXPECT_EQ(a.histogram, b.histogram);
  EXPECT_EQ(a.farthest, b.farthest);
  EXPECT_EQ(a.farthest_count, b.farthest_count);
  EXPECT_EQ(a.stats.expanded, b.stats.expanded);
  EXPECT_EQ(a.table_bytes, b.table_bytes);
}

// Runs body(j, lim) on k threaded ranks, each with its own ThreadCluster in lim.cluster and
// lim.memory, lim.spill set; returns once every rank has finished.
template <class Body>
void on_ranks(int k, std::uint64_t memory, const std::string& spill, Body body) {
  Hub hub(k);
  std::vector<std::thread> ts;
  for (int j = 0; j < k; ++j)
    ts.emplace_back([&, j] {
      ThreadCluster c(hub, j);
      search::Limits lim;
      lim.memory = memory;
      lim.cluster = &c;
      lim.spill = spill;
      body(j, lim);
    });
  for (auto& t : ts) t.join();
}

// Runs the explore on k threaded ranks; every rank's result must equal `want`.
template <class D>
void check_ranks(const D& d, std::vector<std::uint64_t> sources, int k, std::uint64_t memory, std::size_t keep,
                 const search::ExploreResult& want, bool paths = false, unsigned threads = 1,
                 const std::string& spill = "") {
  std::vector<search::ExploreResult> got(static_cast<std::size_t>(k));
  std::vector<std::vector<std::vector<int>>> walks(static_cast<std::size_t>(k));
  on_ranks(k, memory, spill, [&](int j, search::Limits& lim) {
    lim.threads = threads;
    auto& r = got[static_cast<std::size_t>(j)];
    r = search::explore(d, sources, keep, lim, paths);
    if (paths)
      for (auto f : r.farthest) walks[static_cast<std::size_t>(j)].push_back(search::path_to_source(d, r, f, r.depth));
  });
  for (int j = 0; j < k; ++j) {
    SCOPED_TRACE(::testing::Message() << "rank " << j << " of " << k);
    expect_same(got[static_cast<std::size_t>(j)], want);
    if (paths) {
      for (std::size_t i = 0; i < want.farthest.size(); ++i)
        EXPECT_EQ(walks[static_cast<std::size_t>(j)][i], search::path_to_source(d, *want.distances, want.farthest[i], want.depth));
    }
  }
}

// Which of 2 ranks (threads) refused to explore the ring from state 0 with this budget.
std::vector<int> refused_ranks(const Ring& d, std::uint64_t memory, const std::string& spill = "") {
  std::vector<int> refused(2, 0);
  on_ranks(2, memory, spill, [&](int j, search::Limits& lim) {
    const std::vector<std::uint64_t> src = {0};
    try {
      search::explore(d, src, 1, lim);
    } catch (const InputError&) {
      refused[static_cast<std::size_t>(j)] = 1;
    }
  });
  return refused;
}

}  // namespace

TEST(ExploreDistributed, SameAsOneProcessForAnyRanks) {  // labels: tsan
  const Ring d{100003};
  const std::vector<std::uint64_t> src = {5};
  const auto want = search::explore(d, src, 7);
  ASSERT_EQ(want.states, d.n);
  for (int k : {1, 2, 3, 4, 7}) check_ranks(d, src, k, std::uint64_t{1} << 30, 7, want);
}

TEST(ExploreDistributed, SmallBuffersManyRounds) {  // labels: tsan
  const Ring d{100003};
  const std::vector<std::uint64_t> src = {0, 99999, 4242};
  const auto want = search::explore(d, src, 30);
  for (int k : {2, 5}) check_ranks(d, src, k, 512 << 10, 30, want);  // 1024 ranks a buffer
}

// Hybrid: each rank expands with several threads (chunks of 32768 states: the larger rings
// give each rank several); small buffers force many rounds with threads stopping mid-chunk.
TEST(ExploreDistributed, ThreadsPerRank) {  // labels: tsan
  for (std::uint64_t n : {100003u, 400009u}) {
    const Ring d{n};
    const std::vector<std::uint64_t> src = {0, n / 3, 77};
    const auto want = search::explore(d, src, 12);
    for (int k : {1, 2, 3})
      for (unsigned t : {2u, 3u}) {
        SCOPED_TRACE(::testing::Message() << n << " states, " << k << " ranks, " << t << " threads");
        check_ranks(d, src, k, std::uint64_t{1} << 30, 12, want, false, t);
        check_ranks(d, src, k, 512 << 10, 12, want, false, t);
      }
  }
  const OneWay w{65536 * 3 + 37};
  const std::vector<std::uint64_t> one = {1};
  check_ranks(w, one, 2, 512 << 10, 5, search::explore(w, one, 5), false, 2);
  const Ring p{20011};
  const std::vector<std::uint64_t> three = {3};
  check_ranks(p, three, 2, std::uint64_t{1} << 30, 4, search::explore(p, three, 4, {}, true), true, 2);
}

// Large layers send their claims as bitmaps when those fit --memory (search/claim_bitmaps.h),
// the others as lists of ranks in rounds. Here a share (125 KB) and the lists' buffers fit
// 300 KB but the bitmaps (250 KB more) do not: every layer goes by lists, in many rounds; with
// 1 GB the large layers go by bitmaps. Both with threads in each rank too.
TEST(ExploreDistributed, ListsWhenBitmapsDoNotFit) {  // labels: tsan
  const OneWay d{1000003};
  const std::vector<std::uint64_t> src = {1};
  const auto want = search::explore(d, src, 6);
  for (unsigned t : {1u, 2u}) {
    SCOPED_TRACE(::testing::Message() << t << " threads");
    check_ranks(d, src, 2, 300 << 10, 6, want, false, t);
    check_ranks(d, src, 2, std::uint64_t{1} << 30, 6, want, false, t);
  }
}

TEST(ClaimBitmaps, SpreadAndBitsOfEachOwner) {
  EXPECT_EQ(search::ClaimBitmaps::spread(0), 0u);
  EXPECT_EQ(search::ClaimBitmaps::spread(0b1011), 0b1000101u);
  EXPECT_EQ(search::ClaimBitmaps::spread(0xffffffffull), 0x5555555555555555ull);
  EXPECT_EQ(search::ClaimBitmaps::spread(0x80000000ull), std::uint64_t{1} << 62);
  search::ClaimBitmaps b(128, 3);  // blocks of 128 states: 2 words of bits each
  b.mark<true>(5), b.mark<false>(128 * 2 + 127);
  EXPECT_TRUE(b.marked(5));
  EXPECT_TRUE(b.marked(383));
  EXPECT_FALSE(b.marked(6));
  EXPECT_EQ(search::ClaimBitmaps::bytes(128, 3), 2u * 2 * 3 * 8);
}

TEST(ExploreDistributed, NotSymmetricAndUnreachedStates) {  // labels: tsan
  const OneWay d{65536 + 37};
  const std::vector<std::uint64_t> src = {1};
  const auto want = search::explore(d, src, 5);
  EXPECT_LT(want.states, d.n + 1);
  for (int k : {2, 3}) check_ranks(d, src, k, std::uint64_t{1} << 30, 5, want);
}

TEST(ExploreDistributed, MoreRanksThanWords) {  // labels: tsan
  const Ring d{70};  // 3 words of the table for 5 ranks (blocks of 2 words): three own nothing
  const std::vector<std::uint64_t> src = {0};
  const auto want = search::explore(d, src, 3);
  check_ranks(d, src, 5, std::uint64_t{1} << 30, 3, want);
}

TEST(ExploreDistributed, PathsFromDistributedDistances) {  // labels: tsan
  const Ring d{20011};
  const std::vector<std::uint64_t> src = {3};
  const auto want = search::explore(d, src, 4, {}, true);
  check_ranks(d, src, 3, std::uint64_t{1} << 30, 4, want, true);
}

TEST(ExploreDistributed, RefusedWhenAShareDoesNotFit) {  // labels: tsan
  const Ring d{1000000};
  EXPECT_EQ(refused_ranks(d, 100000), (std::vector<int>{1, 1}));  // a share is 125 KB
}

TEST(ExploreSpill, SameAsInMemory) {
  const auto dir = std::filesystem::temp_directory_path() / "tansaku-test-spill";
  std::filesystem::create_directories(dir);
  // Tables of 7.5 and 25 KB.
  for (auto [n, memory] : {std::pair<std::uint64_t, std::uint64_t>{30011, 7 << 10}, {100003, 16 << 10}, {100003, 20 << 10}}) {
    const Ring d{n};
    const std::vector<std::uint64_t> src = {0, n / 2};
    const auto want = search::explore(d, src, 9);
    search::Limits lim;
    lim.spill = dir.string();
    lim.memory = memory;
    expect_same(search::explore(d, src, 9, lim), want);
  }
  const OneWay w{65536 + 37};
  const std::vector<std::uint64_t> one = {1};
  search::Limits lim;
  lim.spill = dir.string();
  lim.memory = 12 << 10;
  expect_same(search::explore(w, one, 5, lim), search::explore(w, one, 5));
  EXPECT_TRUE(std::filesystem::is_empty(dir));  // its files are removed
  std::filesystem::remove_all(dir);
}

TEST(ExploreSpill, RefusedWithoutADirectoryOrMemory) {
  const Ring d{100003};
  const std::vector<std::uint64_t> src = {0};
  search::Limits lim;
  lim.memory = 12 << 10;
  EXPECT_THROW(search::explore(d, src, 1, lim), InputError);  // no --spill: the table does not fit
  lim.spill = "/nonexistent/tansaku";
  EXPECT_THROW(search::explore(d, src, 1, lim), InputError);
  lim.spill = std::filesystem::temp_directory_path().string();
  lim.memory = 64;
  EXPECT_THROW(search::explore(d, src, 1, lim), InputError);
}

// --spill under MPI: each rank whose block does not fit --memory keeps it in parts on disk,
// in its own directory (claims on other ranks' blocks through outboxes and exchanges);
// with threads in each rank too (the spilled rank expands on one). Same answer, files removed.
TEST(ExploreSpill, RanksSpillTheirBlocks) {
  const auto dir = std::filesystem::temp_directory_path() / "tansaku-test-spill-ranks";
  std::filesystem::create_directories(dir);
  const Ring d{100003};  // 25 KB: a share of 12.5 KB (2 ranks) or 8.3 KB (3), and 65 KB of lists' buffers
  const std::vector<std::uint64_t> src = {0, 50001};
  const auto want = search::explore(d, src, 9);
  for (int k : {2, 3})
    for (unsigned t : {1u, 2u}) {
      SCOPED_TRACE(::testing::Message() << k << " ranks, " << t << " threads");
      check_ranks(d, src, k, 40 << 10, 9, want, false, t, dir.string());
      EXPECT_TRUE(std::filesystem::is_empty(dir));
    }
  const OneWay w{65536 * 3 + 37};
  const std::vector<std::uint64_t> one = {1};
  check_ranks(w, one, 2, 40 << 10, 5, search::explore(w, one, 5), false, 2, dir.string());
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  std::filesystem::remove_all(dir);
}

// Without --spill the same share is refused on every rank; with a budget too small for one
// part and its buffers, too.
TEST(ExploreSpill, RanksRefusedWithoutSpillOrMemory) {
  const Ring d{100003};
  const auto dir = std::filesystem::temp_directory_path() / "tansaku-test-spill-ranks-refused";
  std::filesystem::create_directories(dir);
  for (auto [memory, spill] : {std::pair<std::uint64_t, std::string>{40 << 10, ""}, {2 << 10, dir.string()}})
    EXPECT_EQ(refused_ranks(d, memory, spill), (std::vector<int>{1, 1})) << memory;
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  std::filesystem::remove_all(dir);
}

namespace {
std::vector<std::uint64_t> round_trip(std::vector<std::uint64_t> v) {
  std::vector<std::uint64_t> a = v, out;
  const std::uint64_t words = search::encode_gaps(a.data(), a.size());
  EXPECT_LE(words, v.size());
  search::decode_gaps(a.data(), words, [&](std::uint64_t x) { out.push_back(x); });
  return out;
}
}  // namespace

// The claims' coding (claim_coding.h): zigzag varints of the gaps, in place, round-trip
// exactly whatever the order (ascending is what makes them short).
TEST(ClaimCoding, GapsRoundTrip) {
  EXPECT_EQ(round_trip({}), std::vector<std::uint64_t>{});
  const std::uint64_t g = std::uint64_t{1} << 55;
  for (const std::vector<std::uint64_t>& v :
       {std::vector<std::uint64_t>{0}, {5}, {0, 0, 0}, {3, 3, 4, 4, 4, 200}, {200, 4, 3, 3, 0},
        {127, 128, 16383, 16384, 1ull << 33, (1ull << 33) + 1, (1ull << 33) * 3, 1},
        {g - 1}, {1, g}, {g - 1, 0}, {5, 5 + g - 1, 4}, {g - 1, 2 * g - 2, g - 1}})
    EXPECT_EQ(round_trip(v), v);
  for (std::vector<std::uint64_t> bad : {std::vector<std::uint64_t>{g}, {0, g}, {g - 1, 2 * g - 2, 0}}) {
    EXPECT_THROW(search::encode_gaps(bad.data(), bad.size()), std::length_error);
  }
  // Dense lists: a byte a claim.
  std::vector<std::uint64_t> dense(1000);
  for (std::uint64_t i = 0; i < dense.size(); ++i) dense[i] = 3 * i;
  std::vector<std::uint64_t> a = dense;
  EXPECT_EQ(search::encode_gaps(a.data(), a.size()), 125u);
  EXPECT_EQ(round_trip(dense), dense);
}

// pack_claims: offsets from the owner's first state, ordered by their top 22 bits (radix),
// repeats dropped, coded: every claim comes back, none other, at most n words.
TEST(ClaimCoding, PackOrdersAndDropsRepeats) {
  std::mt19937_64 rng(7);
  for (std::uint64_t n : {0u, 1u, 10u, 1000u, 5000u, 100000u})
    for (std::uint64_t range : {std::uint64_t{50}, std::uint64_t{1} << 20, std::uint64_t{1} << 27, std::uint64_t{1} << 40}) {
      SCOPED_TRACE(::testing::Message() << n << " claims in " << range);
      const std::uint64_t base = 123456789;
      std::vector<std::uint64_t> v(n), scratch(n);
      for (auto& x : v) x = base + rng() % range;
      std::vector<std::uint64_t> want;
      for (auto x : v) want.push_back(x - base);
      std::sort(want.begin(), want.end());
      want.erase(std::unique(want.begin(), want.end()), want.end());
      const unsigned bits = static_cast<unsigned>(std::bit_width(range - 1));
      const std::uint64_t words = search::pack_claims(v.data(), n, base, scratch.data(), bits);
      EXPECT_LE(words, n);
      std::vector<std::uint64_t> got;
      search::decode_gaps(v.data(), words, [&](std::uint64_t x) { got.push_back(x); });
      EXPECT_LE(got.size(), n);
      const unsigned low = std::max(0, static_cast<int>(bits) - 22);
      for (std::size_t i = 1; i < got.size(); ++i) ASSERT_LE(got[i - 1] >> low, got[i] >> low) << i;
      if (low == 0) {
        EXPECT_EQ(got, want);  // the order is total: ascending, no repeats
      }
      std::sort(got.begin(), got.end());
      got.erase(std::unique(got.begin(), got.end()), got.end());
      EXPECT_EQ(got, want);
    }
}
