// The processes of one distributed run (ranks 0..size-1), as the engine sees them: an
// element-wise sum and an all-to-all exchange, nothing more. The search engine is written
// against this interface so that the library does not depend on MPI: the CLI provides an
// MPI implementation when it runs under mpirun (src/cli/mpi.cpp) and tests can simulate
// ranks with threads. world() is that process-wide cluster (nullptr: a single process).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

namespace tansaku {

class Cluster {
 public:
  virtual ~Cluster() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Every rank passes a vector of the same length; each element becomes the sum over ranks.
  virtual void sum(std::span<std::uint64_t> values) = 0;
  // All to all over buffers of `size() * stride` values (every rank passes the same stride):
  // this rank sends send[j*stride, j*stride + send_counts[j]) to rank j, and receives what
  // rank i sent it in recv[i*stride, ...), with recv_counts[i] values (its own section too).
  virtual void exchange(std::span<const std::uint64_t> send, std::span<const std::uint64_t> send_counts,
                        std::uint64_t stride, std::span<std::uint64_t> recv, std::span<std::uint64_t> recv_counts) = 0;
  // Bytes this rank has sent to other ranks so far (for reports and benchmarks).
  virtual std::uint64_t bytes_sent() const = 0;
};

// The cluster the CLI runs in, or nullptr when it is one process.
Cluster* world();
void set_world(Cluster* c);

}  // namespace tansaku
