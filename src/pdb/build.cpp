// The table builder's part that is not a template (see tansaku/pdb/build.h): sizes, the
// partial file's sections and counters, the progress line.
#include "tansaku/pdb/build.h"

#include <algorithm>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "tansaku/core/input.h"
#include "tansaku/core/progress.h"

namespace tansaku::pdb {

std::uint64_t build_bytes(std::uint64_t size, int bits) {
  return bits == 4 ? TwoBitTable::bytes_for(size) + TwoBitTable::bytes_for(2 * size) : TwoBitTable::bytes_for(size);
}

bool build_in_place(std::uint64_t size, int bits, std::uint64_t memory) {
  // Also in place where a budget above the machine's (--memory beyond what it has) would
  // leave a state table beside the cells without room.
  return bits == 2 && 2 * TwoBitTable::bytes_for(size) > std::min(memory, default_memory_budget());
}

// The 2-bit build in place is version 2 (its cells hold other values while it runs): a partial
// file of the other way is another build's, and the build starts over.
std::string builder_name(int bits, bool in_place) {
  return fmt::format("layered-bfs {} cells {}", in_place ? 2 : 1, bits);
}

namespace detail {

std::optional<LayersPoint> resume_layers(Checkpoint& cp, TwoBitTable* states, TwoBitTable& cells, std::uint64_t size,
                                         const search::Limits& lim) {
  auto r = cp.resume(lim.memory, lim.threads);
  if (!r) return std::nullopt;
  auto bytes = [&](const char* name) { return r->has(name) ? r->section_bytes(name) : UINT64_MAX; };
  if (bytes("states") != (states ? states->bytes() : UINT64_MAX) || bytes("cells") != cells.bytes()) {
    cp.note(fmt::format("{}: a partial build of other sizes; starting over", printable(cp.file().string())));
    return std::nullopt;
  }
  const BuildPoint bp = Checkpoint::point_of(*r);
  LayersPoint p;
  try {
    p.depth = bp.layer;
    p.width = bp.info.at("width").get<std::uint64_t>();
    p.seen = bp.info.at("seen").get<std::uint64_t>();
    p.claimed = bp.info.at("claimed").get<std::uint64_t>();
    p.histogram = bp.info.at("histogram").get<std::vector<std::uint64_t>>();
  } catch (const nlohmann::json::exception&) {
    cp.note(fmt::format("{}: damaged partial build (its counters); starting over", printable(cp.file().string())));
    return std::nullopt;
  }
  if (p.histogram.size() != static_cast<std::size_t>(p.depth) || p.width == 0) {
    cp.note(fmt::format("{}: damaged partial build (its counters); starting over", printable(cp.file().string())));
    return std::nullopt;
  }
  const unsigned threads = std::max(1u, lim.threads);
  if (states) r->section_into("states", states->data(), threads, false);  // resume() checked every section
  r->section_into("cells", cells.data(), threads, false);
  cp.note(
      fmt::format("{}: going on from depth {} ({} of {} entries reached)", cp.file().string(), p.depth, bp.done, size));
  return p;
}

void save_layers(Checkpoint& cp, const LayersPoint& p, TwoBitTable* states, TwoBitTable& cells, std::uint64_t size,
                 const search::Limits& lim) {
  if (lim.progress)
    lim.progress->update("pdb build: saving the partial build at depth {} ({})", p.depth, cp.file().string());
  BuildPoint bp;
  bp.layer = p.depth;
  bp.done = p.seen + p.width + p.claimed;  // reached so far
  bp.total = size;
  bp.info = {{"width", p.width}, {"seen", p.seen}, {"claimed", p.claimed}, {"histogram", p.histogram}};
  std::vector<SectionData> sections;
  if (states) sections.push_back({"states", states->data(), states->bytes()});
  sections.push_back({"cells", cells.data(), cells.bytes()});
  cp.save(bp, sections, std::max(1u, lim.threads));
}

void finish_in_place(TwoBitTable& cells, unsigned threads) {
  // Per 2-bit cell, v -> (v - 1) mod 4: the low bit flips, the high bit flips where the low
  // bit was 0.
  constexpr std::uint64_t kLow = 0x5555555555555555ull;
  std::uint64_t* const w = cells.data();
  auto part = [&](std::uint64_t lo, std::uint64_t hi) {
    for (std::uint64_t i = lo; i < hi; ++i) {
      const std::uint64_t low = ~w[i] & kLow, high = (w[i] >> 1) & kLow;
      w[i] = low | ((high ^ low) << 1);
    }
  };
  const std::uint64_t words = cells.words(), parts = std::max(1u, threads);
  std::vector<std::thread> pool;
  for (std::uint64_t k = 1; k < parts; ++k) pool.emplace_back(part, words * k / parts, words * (k + 1) / parts);
  part(0, words / parts);
  for (auto& t : pool) t.join();
}

void progress_layers(const search::Limits& lim, const LayersPoint& p, std::uint64_t size) {
  if (!lim.progress) return;
  std::uint64_t reached = 0;
  for (auto w : p.histogram) reached += w;
  lim.progress->update("pdb build: depth {}, {} of {} entries ({:.1f}%)", p.depth, reached, size,
                       size ? 100.0 * static_cast<double>(reached) / static_cast<double>(size) : 0.0);
}

}  // namespace detail
}  // namespace tansaku::pdb
