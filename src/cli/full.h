// Two programs from one command line: `tansaku` is lean (no web server, no MPI: every run
// would otherwise load OpenSSL through cpp-httplib and Open MPI with hwloc and libevent, 15
// shared libraries and a few milliseconds of start-up), and hands `serve` and runs under
// mpirun to `tansaku-full`, the same program with both linked in, installed beside it.
#pragma once

namespace tansaku {

// Replaces this process by tansaku-full (found beside /proc/self/exe) with the same
// arguments; returns only when that fails, with exit code 4 and a one-line message.
int run_full(char** argv);

}  // namespace tansaku
