// The app's files (src/serve/web/), embedded into the program at build time by
// cmake/embed.cmake: the server needs nothing beside its binary.
#pragma once
#include <cstddef>
#include <string>

namespace tansaku::serve {

struct Asset {
  const char* data;
  std::size_t size;
  const char* type;  // MIME type
};

const Asset* find_asset(const std::string& name);  // "index.html"; nullptr if none

}  // namespace tansaku::serve
