// The server's memory budget (serve --memory) applied to what a request costs besides its
// search: the number of positions a drawing request may name, the size of a reply (counted
// against the request's share of --memory), and giving freed memory back to the system after a
// job, so that a burst of heavy requests does not leave the server's RSS at its peak.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace tansaku::serve {

// At most this many positions in one POST /api/draw (the app asks for a few dozen): more is
// refused with 413 before any is drawn.
inline constexpr std::size_t kMaxDrawStates = 1000;

// The largest reply a request with memory share `memory` (serve --memory / workers) may build:
// a sixteenth of the share (a reply exists as a JSON value, as text and in the HTTP layer at
// once), at least 1 MiB, at most 64 MiB.
std::uint64_t reply_cap(std::uint64_t memory);

// The message of a reply beyond reply_cap (a 422, exit code 3, like any limit).
std::string reply_too_large(std::uint64_t bytes, std::uint64_t cap);

// Tells the budget that a job finished (its working memory was freed); the server's idle
// thread then calls release_memory() once it sees it.
void job_finished();
// Returns freed heap memory to the system (glibc malloc_trim) on the first few calls after a
// job finished (serve calls it every 200 ms: the reply is freed once sent); cheap otherwise.
void release_memory();
// Tables kept loaded between requests (Puzzle::hold_tables; serve --no-keep-tables turns it
// off): a solve takes its puzzle's hold before it loads anything and hands it over here when
// it ends; the newest one is kept, so the next solve of that puzzle finds its tables loaded
// (a solve of another puzzle's tables replaces them; tables no hold keeps go once no running
// solve uses them). A hold keeps what one solve loaded: at most table_memory of a request's
// share (core/memory.h: seven eighths), which serve sets aside in its budget (request_share).
void set_keep_tables(bool on);
bool keeping_tables();
void keep_tables(std::shared_ptr<void> hold);
// A request's memory share: `total` over the workers, and when tables are kept, seven eighths
// of a share more for them (total / (workers + 7/8)).
std::uint64_t request_share(std::uint64_t total, unsigned workers, bool keep);

// Serves allocations of 256 KiB or more (request bodies, replies, drawings) straight from the
// system, so that each is returned whole when freed. glibc's own threshold rises after the
// first large free, and a burst of large replies from several threads then leaves pages in
// its arenas that no trim can give back. Called once when the server starts.
void map_large_allocations();

}  // namespace tansaku::serve
