// The CLI under mpirun: MPI is initialised only when a launcher's environment says this
// process is one rank of a job (OpenMPI's OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK), so a
// plain run never touches MPI. Every rank runs the same command line; the engine shares the
// work through world() (core/cluster.h, implemented here with MPI collectives) and every
// rank computes the same report, which rank 0 alone prints: the others' stdout and stderr go
// to /dev/null (errors of bad input are the same on every rank; the engine makes the ranks
// agree on the errors met during the work, so all of them reach MPI_Finalize).
#include "cli/mpi.h"

#include "cli/full.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <thread>
#include <vector>

#include "tansaku/core/cluster.h"

#ifdef TANSAKU_MPI
#include <mpi.h>
#endif

namespace tansaku {

namespace {

bool launched_by_mpirun() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(v)) return true;
  return false;
}

}  // namespace

#if defined(TANSAKU_MPI) && defined(TANSAKU_FULL)
namespace {

class MpiCluster final : public Cluster {
 public:
  MpiCluster() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void sum(std::span<std::uint64_t> values) override {
    const double t = MPI_Wtime();
    MPI_Request req;
    MPI_Iallreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD,
                   &req);
    wait(req);
    waited_ += MPI_Wtime() - t;
  }
  void exchange(std::span<const std::uint64_t> send, std::span<const std::uint64_t> send_counts, std::uint64_t stride,
                std::span<std::uint64_t> recv, std::span<std::uint64_t> recv_counts) override {
    const auto k = static_cast<std::size_t>(size_);
    if (stride * k > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
      throw std::length_error("MPI exchange beyond 2^31 values");
    const double t = MPI_Wtime();
    MPI_Request req;
    MPI_Ialltoall(send_counts.data(), 1, MPI_UINT64_T, recv_counts.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD, &req);
    wait(req);
    sc_.resize(k), rc_.resize(k), sd_.resize(k), rd_.resize(k);
    for (std::size_t j = 0; j < k; ++j) {
      sc_[j] = static_cast<int>(send_counts[j]);
      rc_[j] = static_cast<int>(recv_counts[j]);
      sd_[j] = rd_[j] = static_cast<int>(j * stride);
      if (j != static_cast<std::size_t>(rank_)) sent_ += send_counts[j] * 8;
    }
    MPI_Ialltoallv(send.data(), sc_.data(), sd_.data(), MPI_UINT64_T, recv.data(), rc_.data(), rd_.data(), MPI_UINT64_T,
                   MPI_COMM_WORLD, &req);
    wait(req);
    waited_ += MPI_Wtime() - t;
  }
  std::uint64_t bytes_sent() const override { return sent_; }
  // Seconds this rank spent in collectives (waiting for the others, and the transfers).
  double waited() const { return waited_; }

 private:
  // Waits for a collective without holding a core: polls for a while (a short wait costs
  // nothing more), then sleeps between polls, so that a rank waiting for a slower one does
  // not take the core it, or another job, could run on (ranks of one machine, or a shared one).
  static void wait(MPI_Request& req) {
    int done = 0;
    for (int polls = 0;; ++polls) {
      MPI_Test(&req, &done, MPI_STATUS_IGNORE);
      if (done) return;
      if (polls >= 1000) std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }

  int rank_ = 0, size_ = 1;
  std::uint64_t sent_ = 0;
  double waited_ = 0;
  std::vector<int> sc_, rc_, sd_, rd_;
};

}  // namespace

int run_with_mpi(int argc, char** argv, int (*main_fn)(int, char**)) {
  if (!launched_by_mpirun()) return main_fn(argc, argv);
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int code = 4;
  {
    MpiCluster cluster;
    set_world(&cluster);
    if (cluster.rank() != 0) {
      if (!std::freopen("/dev/null", "w", stdout) || !std::freopen("/dev/null", "w", stderr)) MPI_Abort(MPI_COMM_WORLD, 4);
    }
    code = main_fn(argc, argv);
    std::fflush(stdout);
    // bench/mpi.sh: the bytes the ranks sent each other, on rank 0's stderr.
    if (code == 0 && std::getenv("TANSAKU_MPI_STATS")) {
      std::uint64_t sent = cluster.bytes_sent(), total = 0;
      MPI_Reduce(&sent, &total, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
      if (cluster.rank() == 0) std::fprintf(stderr, "mpi: %d ranks sent %llu bytes\n", cluster.size(), static_cast<unsigned long long>(total));
      const double w = cluster.waited();
      std::vector<double> all(static_cast<std::size_t>(cluster.size()));
      MPI_Gather(&w, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
      if (cluster.rank() == 0) {
        std::fprintf(stderr, "mpi: seconds in collectives per rank:");
        for (double x : all) std::fprintf(stderr, " %.2f", x);
        std::fprintf(stderr, "\n");
      }
    }
    std::fflush(stderr);
    set_world(nullptr);
    // An internal error may have left the other ranks inside a collective: stop the job.
    if (code == 4) MPI_Abort(MPI_COMM_WORLD, code);
  }
  MPI_Finalize();
  return code;
}

#elif defined(TANSAKU_FULL)

int run_with_mpi(int argc, char** argv, int (*main_fn)(int, char**)) { return main_fn(argc, argv); }

#else

// The lean program: a rank of an MPI job becomes tansaku-full (cli/full.h).
int run_with_mpi(int argc, char** argv, int (*main_fn)(int, char**)) {
  if (launched_by_mpirun()) return run_full(argv);
  return main_fn(argc, argv);
}

#endif

}  // namespace tansaku
