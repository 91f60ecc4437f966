// The memory budget (--memory): parse sizes, refuse work that cannot fit before it starts,
// and read the peak resident set for reports.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace tansaku {

// "512M", "2G", "1.5GiB", "65536" (bytes). Throws InputError on anything else.
std::uint64_t parse_size(std::string_view text);
// The least --memory of whole MiB (under 1 GiB) or GiB that is at least `bytes`, as a user
// types it: "19M", "20G" (for hints naming the budget that would do).
std::string memory_argument(std::uint64_t bytes);
// "1.5 GiB" style, for messages.
std::string format_size(std::uint64_t bytes);
// Physical memory of this machine in bytes.
std::uint64_t physical_memory();
// Memory the kernel could give this process now without swapping (MemAvailable of
// /proc/meminfo; physical memory where that cannot be read).
std::uint64_t available_memory();
// Default budget when --memory is absent: 3/4 of physical memory.
std::uint64_t default_memory_budget();
// The most of a solve's budget the cached tables it loads may take: seven eighths. A search
// over loaded tables holds little beside them (its path and scratch), and a table file of more
// than half the memory available is read once into place rather than mapped and copied, so
// it is not held twice. tansaku serve sets as much of a request's share aside for the tables
// it keeps between requests. (A family whose solve also builds tables of its own in memory
// may give the cached ones less.)
inline std::uint64_t table_memory(std::uint64_t budget) { return budget - budget / 8; }
// Refuses work before it starts: throws InputError("<what> needs X but the memory budget is
// Y") when need > budget (exit 2; a budget hit during the work is a LimitError, exit 3).
void require_memory(std::uint64_t need, std::uint64_t budget, std::string_view what);
// Peak resident set size of this process in bytes (0 if unknown).
std::uint64_t peak_rss();

}  // namespace tansaku
