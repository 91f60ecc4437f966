// Ranks simulated by threads for the tests of code written against core/cluster.h (the
// distributed explore, the knight's-tour split count): each collective waits for every rank
// at a barrier, so the ranks run as they would under mpirun, in one process.
#pragma once
#include <algorithm>
#include <barrier>
#include <cstdint>
#include <span>
#include <thread>
#include <vector>

#include "tansaku/core/cluster.h"

namespace tansaku {

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

// Runs body(rank, cluster) on k ranks as threads; returns once every rank has finished (the
// body catches what it throws: an exception leaving a thread ends the program).
template <class Body>
void on_thread_ranks(int k, Body body) {
  Hub hub(k);
  std::vector<std::thread> ts;
  for (int j = 0; j < k; ++j)
    ts.emplace_back([&, j] {
      ThreadCluster c(hub, j);
      body(j, static_cast<Cluster&>(c));
    });
  for (auto& t : ts) t.join();
}

}  // namespace tansaku
