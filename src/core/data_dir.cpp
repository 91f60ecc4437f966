// shipped_data_dir() (core/input.h): where the shipped data files are, found at run time
// relative to the program or module holding this code, so that an installed copy works
// wherever its prefix is moved and never reads the tree it was built from.
//
// The build (CMakeLists.txt) gives two relative paths: from the programs' directory
// (bin/) and from the Python package's directory to the installed data (share/tansaku/).
// The build tree links `data` beside its programs and module to the source tree's data/;
// the wheel carries its data in the package directory as `data`.
#include <link.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include "tansaku/core/input.h"

#ifndef TANSAKU_DATA_FROM_BIN
#define TANSAKU_DATA_FROM_BIN "../share/tansaku"
#endif
#ifndef TANSAKU_DATA_FROM_PYTHON
#define TANSAKU_DATA_FROM_PYTHON "../../../../share/tansaku"
#endif

namespace tansaku {
namespace {

namespace fs = std::filesystem;

struct Lookup {
  std::uintptr_t address = 0;
  std::string file;  // the object's path ("" for the main program)
  bool found = false;
};

// The loaded object (the program, or a shared object such as the Python module) whose
// segments hold `address`.
int find_object(dl_phdr_info* info, std::size_t, void* data) {
  auto* l = static_cast<Lookup*>(data);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    const std::uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
    if (l->address >= lo && l->address < lo + ph.p_memsz) {
      l->file = info->dlpi_name ? info->dlpi_name : "";
      l->found = true;
      return 1;
    }
  }
  return 0;
}

// The directory of the file holding this code: the program (/proc/self/exe, links
// resolved) or the shared object it was loaded from.
fs::path own_directory() {
  Lookup l;
  l.address = reinterpret_cast<std::uintptr_t>(&find_object);
  dl_iterate_phdr(find_object, &l);
  std::error_code ec;
  fs::path file = l.found && !l.file.empty() ? fs::path(l.file) : fs::path("/proc/self/exe");
  fs::path real = fs::canonical(file, ec);
  return (ec ? file : real).parent_path();
}

// A directory of shipped data: data/README.md marks it.
bool holds_data(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "README.md", ec);
}

std::string find_data_dir() {
  if (const char* env = std::getenv("TANSAKU_DATA_DIR"); env && *env) return env;
  const fs::path own = own_directory();
  for (const char* rel : {TANSAKU_DATA_FROM_BIN, TANSAKU_DATA_FROM_PYTHON, "data"}) {
    const fs::path dir = (own / rel).lexically_normal();
    std::error_code ec;
    // Links resolved: the program and the module of a build tree name the same files.
    if (const fs::path real = fs::canonical(dir, ec); !ec && holds_data(real)) return real.string();
  }
  // Nothing found: where an installed program expects it, so that messages name a place.
  return (own / TANSAKU_DATA_FROM_BIN).lexically_normal().string();
}

}  // namespace

std::string shipped_data_dir() {
  static const std::string dir = find_data_dir();
  return dir;
}

}  // namespace tansaku
