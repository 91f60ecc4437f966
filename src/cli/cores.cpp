// usable_cores() (cli/cores.h): the affinity mask, apart from the MPI code of mpi.cpp.
#include "cli/cores.h"

#include <sched.h>

#include <algorithm>
#include <thread>

namespace tansaku {

unsigned usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) return static_cast<unsigned>(CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace tansaku
