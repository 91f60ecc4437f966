// --memory: size parsing and printing, the default budget (3/4 of physical memory), the
// up-front check that work fits, and the peak resident set (getrusage).
#include "tansaku/core/memory.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/memory_error.h"

namespace tansaku {

std::uint64_t parse_size(std::string_view text) {
  std::string t(text);
  std::size_t pos = 0;
  double value = 0;
  try {
    value = std::stod(t, &pos);
  } catch (...) {
    throw InputError(fmt::format("bad size '{}': expected a number with an optional K/M/G/T suffix", text));
  }
  std::string unit;
  for (char c : t.substr(pos))
    if (!std::isspace(static_cast<unsigned char>(c))) unit += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  double mult = 1;
  if (unit.empty() || unit == "B") mult = 1;
  else if (unit == "K" || unit == "KB" || unit == "KIB") mult = 1024.0;
  else if (unit == "M" || unit == "MB" || unit == "MIB") mult = 1024.0 * 1024;
  else if (unit == "G" || unit == "GB" || unit == "GIB") mult = 1024.0 * 1024 * 1024;
  else if (unit == "T" || unit == "TB" || unit == "TIB") mult = 1024.0 * 1024 * 1024 * 1024;
  else
    throw InputError(
        fmt::format("bad size '{}': unknown unit '{}' (K, M, G or T, with an optional B or iB)", text, [&] {
          std::string u = t.substr(pos);
          u.erase(0, u.find_first_not_of(" \t"));
          u.erase(u.find_last_not_of(" \t") + 1);
          return u;
        }()));
  if (!(value >= 0) || !std::isfinite(value)) throw InputError(fmt::format("bad size '{}'", text));
  // 2^64 and beyond do not convert (undefined behaviour, found by fuzz/fuzz_states.cpp).
  if (value * mult >= 18446744073709551616.0) throw InputError(fmt::format("size '{}' is too large", text));
  return static_cast<std::uint64_t>(value * mult);
}

std::string memory_argument(std::uint64_t bytes) {
  const int unit = bytes >= std::uint64_t{1} << 30 ? 30 : 20;
  return fmt::format("{}{}", (bytes + (std::uint64_t{1} << unit) - 1) >> unit, unit == 30 ? "G" : "M");
}

std::string format_size(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) v /= 1024, ++u;
  return u == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.1f} {}", v, units[u]);
}

std::uint64_t physical_memory() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return (pages > 0 && page > 0) ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page)
                                 : (std::uint64_t{8} << 30);
}

std::uint64_t available_memory() {
  if (std::FILE* f = std::fopen("/proc/meminfo", "r")) {
    char line[256];
    unsigned long long kib = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof line, f)) found = std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1;
    std::fclose(f);
    if (found) return static_cast<std::uint64_t>(kib) * 1024;
  }
  return physical_memory();
}

std::uint64_t default_memory_budget() { return physical_memory() / 4 * 3; }

void require_memory(std::uint64_t need, std::uint64_t budget, std::string_view what) {
  if (need > budget)
    throw MemoryRefused(fmt::format("{} needs {} but the memory budget is {} (--memory)", what, format_size(need),
                                    format_size(budget)));
}

std::uint64_t peak_rss() {
  struct rusage ru {};
  if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
  return static_cast<std::uint64_t>(ru.ru_maxrss) * 1024;
}

}  // namespace tansaku
