// One file format for every family's tables (pattern databases and the like), so that writing
// atomically, checksums, compression, mapping and the refusal of a damaged file are written
// once. A file is a fixed prefix (magic, version, the header's length and its checksum), a
// JSON header (the kind of table, the content hash of what it is built from, the cell
// encoding, the entry count, the family's own fields, and every section's place, sizes and
// checksum), then the sections, each from a page boundary, raw (mapped on load) or
// compressed by zstd in frames of 16 MiB (decompressed on every thread). The header comes
// first and holds every size, so a reader refuses a file too big for its memory budget, or
// shorter or longer than it says, before reading any section. A big raw section a search
// reads at random is loaded into memory of huge pages (TableReader::load). docs/pdb.md
// describes it.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tansaku/core/zeroed_pages.h"
#include "tansaku/search/limits.h"

namespace tansaku::pdb {

// 64-bit FNV-1a over what a table is built from (a definition's content, a pattern): the
// key a table is found by, whatever the file the definition came from is called.
struct ContentHash {
  std::uint64_t h = 1469598103934665603ull;
  ContentHash& add_bytes(const void* data, std::size_t n);
  ContentHash& add(std::uint64_t v);     // its 8 bytes, little end first
  ContentHash& add(std::string_view s);  // its length, then its bytes
  std::string hex() const;               // 16 hex digits
};

// A checksum of 64-bit words (two running sums, Fletcher style: fast enough to check on
// every load). join() appends a following part's sum, so parts can be summed on threads.
struct Checksum {
  std::uint64_t a = 0, b = 0, n = 0;
  void add(const std::uint64_t* w, std::size_t count);
  void join(const Checksum& next);
  std::string text() const;  // 32 hex digits
};
// The checksum of `bytes` bytes (the last word padded with zeros).
std::string checksum_of(const void* data, std::uint64_t bytes);

enum class Storage { raw, zstd };

// What a table file says of itself, besides its sections.
struct TableHeader {
  std::string kind;      // which family wrote it and what kind of table it is
  std::string content;   // the content hash of what the table is built from (ContentHash::hex)
  std::string encoding;  // what a cell holds ("u8-distance", "2-bit-mod-3", ...)
  std::uint64_t entries = 0;
  nlohmann::ordered_json info = nlohmann::ordered_json::object();  // the family's own fields
};

struct SectionData {
  std::string name;
  const void* data = nullptr;
  std::uint64_t bytes = 0;
  Storage storage = Storage::raw;
};

// Writes the file to a temporary name in the same directory (created when missing), then
// renames it over `file`: a reader, or another process writing the same table, never sees
// half a file. InputError when the directory cannot be made or written (read-only, full).
void write_table_file(const std::filesystem::path& file, const TableHeader& header,
                      std::span<const SectionData> sections, unsigned threads = 1);

// A section as read: its bytes (a mapping of the file for raw sections, memory for
// compressed ones), valid while the Bytes live.
struct Bytes {
  const std::uint8_t* data = nullptr;
  std::uint64_t size = 0;
  std::shared_ptr<const void> owner;
};

// Where TableReader::load puts a section.
enum class Placement {
  // For a search that reads it at random: a raw section of at least set_huge_copy_from's
  // bytes goes into memory of huge pages, read once straight there when the page cache could
  // not hold the file beside a copy (set_read_once_above), else mapped at once and copied
  // there by a thread while the caller reads the mapping (LoadedSection::upgrade); a
  // smaller one is mapped.
  search,
  // Read into memory of huge pages whatever its size (a small table read on every node).
  huge_pages,
  // Checked alone (`pdb verify`): mapped and summed, no copy.
  check,
};

// A section as load() placed it: memory of its own on huge pages, or the file's mapping
// (`mapped`); either way `bytes` bytes, unmapped by PagesDeleter{bytes}.
struct LoadedSection {
  std::unique_ptr<std::uint8_t[], PagesDeleter> memory;
  std::uint64_t bytes = 0;
  bool mapped = false;
  // Set for a big section mapped for a search: upgrade(adopt) starts a thread that reads the
  // section again into memory of huge pages, checks it against its checksum and hands it to
  // adopt(copy, bytes) (which owns it from then: PagesDeleter{bytes}; the caller's lookups
  // may run meanwhile), then lets the mapping's pages go (a lookup still reading there faults
  // its page back in from the file: the same bytes). Nothing is handed over when there is no
  // memory for the copy, the file changed or the thread was stopped. The handle it returns
  // stops and joins the thread when it goes: it must go before the mapping does.
  std::function<std::shared_ptr<void>(std::function<void(void* copy, std::size_t bytes)> adopt)> upgrade;
};

class TableReader {
 public:
  // Opens `file` and reads and checks its header only: InputError (one line: the file, what is
  // wrong, then `hint`, e.g. "`tansaku pdb build ...` builds it again") when it is not a table
  // file, damaged, truncated or padded; InputError from require_memory when its sections need
  // more than `memory` bytes (nothing more is read).
  TableReader(const std::filesystem::path& file, std::string hint, std::uint64_t memory = UINT64_MAX);
  TableReader(TableReader&&) noexcept;
  ~TableReader();

  const TableHeader& header() const { return header_; }
  const nlohmann::ordered_json& json() const { return json_; }  // the whole header
  std::uint64_t memory_bytes() const;                           // the sections' bytes in memory
  std::uint64_t file_bytes() const;
  bool has(std::string_view section) const;
  std::uint64_t section_bytes(std::string_view section) const;  // as the header says; InputError when absent
  // A section, checked against its checksum (check: false trusts it; for mapped sections a
  // search reads at random, checking reads them all); InputError as above when damaged or
  // absent. Compressed sections are decompressed on `threads` threads.
  Bytes section(std::string_view name, unsigned threads = 1, bool check = true) const;
  // A section read or decompressed into `dst` (its `bytes` of memory the caller owns, e.g.
  // on huge pages), checked as section() checks.
  void section_into(std::string_view name, void* dst, unsigned threads = 1, bool check = true) const;
  // A section placed as `placement` says and checked against its checksum as it is read or
  // mapped, on up to four of `lim.threads` threads: lim.progress shows "loading FILE: N%"
  // ("loading FILE: LABEL N%" with a label), the deadline stops it (LimitError); InputError
  // from require_memory when it needs more than lim.memory bytes, MemoryRefused when no
  // memory of huge pages can be had for it, InputError as above when damaged or absent.
  LoadedSection load(std::string_view name, const search::Limits& lim, Placement placement = Placement::search,
                     std::string_view label = "") const;
  // Every section read and checked (`pdb verify`).
  void verify(unsigned threads = 1) const;
  // The one-line refusal for this file: "FILE: WHY; HINT".
  std::string refusal(std::string_view why) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  TableHeader header_;
  nlohmann::ordered_json json_;
};

// Whether the first bytes of `file` are this format's magic. A file whose first bytes are
// "TSK" but not the magic is a table file of an earlier version (one of the layouts the
// families wrote before this format): TableReader refuses it as such, with its hint.
bool is_table_file(const std::filesystem::path& file);

// Sections of at least this many bytes (64 MiB) are placed in huge pages for a search
// (Placement::search); tests lower it to take those paths with small tables.
void set_huge_copy_from(std::uint64_t bytes);
// Files of more than this many bytes are read once, straight into huge pages (by direct
// reads where the file system allows them, else each part's page cache dropped once read),
// and the caller waits for them: a file that the page cache and a copy could not hold
// together. By default (~0) the bound is half the memory available when the section is
// loaded; tests set it (0: every such section).
void set_read_once_above(std::uint64_t bytes);

}  // namespace tansaku::pdb
