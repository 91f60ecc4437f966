// The cores this process may use: the request layer caps --threads to them. Its own file so
// that the request layer (a library for the CLI, serve and the Python module) needs no MPI.
#pragma once

namespace tansaku {

// The cores this process may run on (its affinity mask, which mpirun or taskset may narrow;
// at least 1): more threads than these only contend, and TBB warns about them.
unsigned usable_cores();

}  // namespace tansaku
