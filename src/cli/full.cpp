// run_full() (cli/full.h): exec of the sibling program.
#include "cli/full.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include <fmt/format.h>

namespace tansaku {

int run_full(char** argv) {
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  std::string path = "tansaku-full";
  if (n > 0) {
    std::string dir(self, static_cast<std::size_t>(n));
    path = dir.substr(0, dir.rfind('/') + 1) + "tansaku-full";
  }
  std::fflush(stdout);
  execv(path.c_str(), argv);  // argv[0] stays: messages name the command the user typed
  fmt::print(stderr, "tansaku: serve and mpirun runs need {} (built and installed with tansaku): {}\n", path,
             std::strerror(errno));
  return 4;
}

}  // namespace tansaku
