// The packed 2-bit table explore runs on: claims (locked and single-threaded), word-wise
// updates, fill and match.
#include <gtest/gtest.h>

#include <sys/mman.h>

#include <chrono>
#include <thread>

#include "tansaku/core/background_task.h"
#include "tansaku/core/two_bit_table.h"

using tansaku::TwoBitTable;

TEST(TwoBitTable, ClaimsSetOnlyEmptyCells) {
  TwoBitTable t(100);
  EXPECT_TRUE(t.claim(5, 1));
  EXPECT_FALSE(t.claim(5, 2));
  EXPECT_EQ(t.get(5), 1u);
  EXPECT_TRUE(t.claim_alone(6, 2));
  EXPECT_FALSE(t.claim_alone(6, 1));
  EXPECT_FALSE(TwoBitTable::claim_alone(t.data(), 5, 2));
  EXPECT_EQ(t.get(5), 1u);
  EXPECT_EQ(t.get(6), 2u);
  EXPECT_TRUE(TwoBitTable::claim_alone(t.data(), 99, 3));
  EXPECT_EQ(t.get(99), 3u);
  for (std::uint64_t i = 0; i < 100; ++i)
    if (i != 5 && i != 6 && i != 99) {
      EXPECT_EQ(t.get(i), 0u) << i;
    }
}

TEST(TwoBitTable, WordUpdatesAndFill) {
  TwoBitTable t(64);
  t.fill(3);
  for (std::uint64_t i = 0; i < 64; ++i) EXPECT_EQ(t.get(i), 3u);
  t.fill(0);
  t.set_plain(1, 1), t.set_plain(4, 1), t.set_plain(7, 2);
  const std::uint64_t ones = t.match(0, 1);
  EXPECT_EQ(ones, (std::uint64_t{1} << 2) | (std::uint64_t{1} << 8));
  t.set_cells_owned(0, ones, 2);  // cells 1 and 4 to 2; the others unchanged
  EXPECT_EQ(t.get(1), 2u);
  EXPECT_EQ(t.get(4), 2u);
  EXPECT_EQ(t.get(7), 2u);
  EXPECT_EQ(t.get(0), 0u);
  t.set_cells_owned(0, t.match(0, 2), 3);
  EXPECT_EQ(t.match(0, 3), (std::uint64_t{1} << 2) | (std::uint64_t{1} << 8) | (std::uint64_t{1} << 14));
  t.prefetch_range(0, 64);  // a hint only
}

TEST(TwoBitTable, AdoptsACopyWhileLookupsRun) {
  // A table on one mapping takes over a copy of the same cells while a thread reads it; a
  // task attached to the table is stopped and joined before the mappings go.
  constexpr std::uint64_t cells = 1 << 16;
  const std::size_t bytes = TwoBitTable::bytes_for(cells);
  auto map = [&] {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT_NE(p, MAP_FAILED);
    auto* w = static_cast<std::uint64_t*>(p);
    for (std::uint64_t i = 0; i < bytes / 8; ++i) w[i] = 0x1b1b1b1b1b1b1b1bull * (i % 3 + 1);
    return w;
  };
  std::uint64_t* first = map();
  std::uint64_t* copy = map();
  TwoBitTable t(cells, first, bytes);
  ASSERT_EQ(t.lookup_cells(), first);
  std::atomic<bool> go{true};
  std::atomic<std::uint64_t> sum{0};
  std::thread reader([&] {
    while (go) {
      std::uint64_t s = 0;
      for (std::uint64_t i = 0; i < cells; i += 7) s += t.get(i);
      sum = s;
    }
  });
  const std::uint64_t before = [&] { std::uint64_t s = 0; for (std::uint64_t i = 0; i < cells; i += 7) s += t.get(i); return s; }();
  t.adopt(copy, bytes);
  EXPECT_EQ(t.lookup_cells(), copy);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  go = false;
  reader.join();
  EXPECT_EQ(sum.load(), before);
  std::atomic<bool> saw_stop{false};
  t.attach(std::make_shared<tansaku::BackgroundTask>([&](const std::atomic<bool>& stop) {
    while (!stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    saw_stop = true;
  }));
  t.attach(nullptr);  // the task goes: stopped and joined
  EXPECT_TRUE(saw_stop.load());
}

TEST(TwoBitTable, FourBitCells) {
  // A table of 2n 2-bit cells read as n 4-bit cells: set_cells4_owned writes the 4-bit
  // cells that a 2-bit word's mask names (cell k of word w: 4-bit cell 32w + k), leaving
  // the others, and get4 reads them back.
  const std::uint64_t n = 100;
  TwoBitTable t(2 * n);
  t.fill(3);  // every 4-bit cell 15
  for (std::uint64_t i = 0; i < n; ++i) ASSERT_EQ(t.get4(i), 15u);
  std::vector<unsigned> want(n, 15);
  std::uint64_t x = 0x243f6a8885a308d3ull;
  for (unsigned v = 0; v < 15; ++v)
    for (std::uint64_t w = 0; w < (n + 31) / 32; ++w) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      std::uint64_t mask = x & 0x5555555555555555ull;
      for (std::uint64_t k = 0; k < 32; ++k)
        if (32 * w + k >= n) mask &= ~(std::uint64_t{1} << (2 * k));  // beyond the table
      t.set_cells4_owned(w, mask, v);
      for (std::uint64_t k = 0; k < 32; ++k)
        if (mask >> (2 * k) & 1) want[32 * w + k] = v;
      for (std::uint64_t i = 0; i < n; ++i) ASSERT_EQ(t.get4(i), want[i]) << i << " " << v;
    }
}
