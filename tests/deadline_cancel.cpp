// The two hooks `tansaku serve` adds to the core: a Deadline that a cancel flag set by another
// thread expires (a running search stops at its next poll), and progress lines routed to a
// per-thread sink instead of the terminal.
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "tansaku/core/deadline.h"
#include "tansaku/core/error.h"
#include "tansaku/core/progress.h"
#include "tansaku/puzzles/registry.h"

using namespace tansaku;

TEST(DeadlineCancel, FlagExpiresItAndCopiesFollow) {  // labels: tsan
  std::atomic<bool> flag{false};
  Deadline d;  // no time limit
  EXPECT_FALSE(d.active());
  d.cancel_on(&flag);
  EXPECT_TRUE(d.active());
  EXPECT_FALSE(d.expired());
  Deadline copy = d;
  flag = true;
  EXPECT_TRUE(d.expired());
  EXPECT_TRUE(copy.expired());
  EXPECT_TRUE(d.cancelled());
  try {
    d.check();
    FAIL() << "check() did not throw";
  } catch (const LimitError& e) {
    EXPECT_STREQ(e.what(), "cancelled");
  }
  bool thrown = false;
  try {
    for (int i = 0; i < 10000; ++i) copy.poll();
  } catch (const LimitError&) {
    thrown = true;
  }
  EXPECT_TRUE(thrown);
}

TEST(DeadlineCancel, TimeoutStillReportsTheTimeout) {  // labels: tsan
  std::atomic<bool> flag{false};
  Deadline d(1e-9);
  d.cancel_on(&flag);
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  try {
    d.check();
    FAIL() << "check() did not throw";
  } catch (const LimitError& e) {
    EXPECT_STREQ(e.what(), "time limit reached (--timeout)");
  }
}

// A 24-puzzle search that would run for hours stops soon after another thread sets the flag.
TEST(DeadlineCancel, StopsARunningSolve) {  // labels: tsan
  Options o;
  o.start = "5 14 18 6 22 20 0 2 1 10 15 11 12 17 21 7 19 4 3 9 13 24 23 8 16";
  o.given = {"start"};
  o.values["start"] = *o.start;
  o.threads = 1;
  o.memory = std::uint64_t{4} << 30;
  o.quiet = true;
  std::atomic<bool> flag{false};
  o.deadline.cancel_on(&flag);
  auto puzzle = make_puzzle("24-puzzle", o);
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    flag = true;
  });
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_THROW(puzzle->solve(o), LimitError);
  stopper.join();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(s, 10.0);  // the flag was seen (a solve of this start takes far longer)
}

namespace {
struct Lines final : ProgressSink {
  std::vector<std::string> got;
  void line(const std::string& text) override { got.push_back(text); }
};
}  // namespace

TEST(ProgressSink, ThreadSinkGetsTheLines) {
  Lines sink;
  set_thread_progress_sink(&sink);
  {
    Progress p(true);  // enabled although stderr is no terminal here: the sink takes the lines
    EXPECT_TRUE(p.enabled());
    p.update("depth {}", 7);
  }
  {
    Progress quiet(false);
    quiet.update("never {}", 1);
  }
  set_thread_progress_sink(nullptr);
  ASSERT_EQ(sink.got.size(), 1u);
  EXPECT_EQ(sink.got[0], "depth 7");
}
